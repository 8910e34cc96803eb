package io.tenure.jdbc.internal;

/** How PostgreSQL inserts a new schedule: a conflict on the name inserts nothing. */
final class PostgresScheduleSql extends StandardScheduleSql {
  @Override
  public String insert() {
    return INSERT + " ON CONFLICT (name) DO NOTHING";
  }
}
