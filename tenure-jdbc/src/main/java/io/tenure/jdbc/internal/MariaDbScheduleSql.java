package io.tenure.jdbc.internal;

/**
 * How MariaDB and MySQL insert a new schedule: no insert ignores only the primary key's duplicate
 * ({@code INSERT IGNORE} would hide other errors), so the duplicate is reported and read.
 */
final class MariaDbScheduleSql extends StandardScheduleSql {
  @Override
  public String insert() {
    return INSERT;
  }

  @Override
  public boolean insertReportsDuplicates() {
    return true;
  }
}
