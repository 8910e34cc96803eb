package io.tenure.jdbc.internal;

/** How SQLite inserts a new schedule: a conflict on the name inserts nothing. */
final class SqliteScheduleSql extends StandardScheduleSql {
  @Override
  public String insert() {
    return INSERT + " ON CONFLICT (name) DO NOTHING";
  }
}
