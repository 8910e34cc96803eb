package io.tenure.jdbc.internal;

/** How MariaDB and MySQL take a lock first and fence a holder's write: a shared row lock. */
final class MariaDbLockSql extends StandardLockSql {
  /** No insert that ignores only the primary key's duplicate: the duplicate is reported. */
  @Override
  public String insert() {
    return """
        INSERT INTO ${locks} (name, holder, owner, token, acquired_at, expires_at)
        VALUES (:name, :holder, :owner, 1, ${now}, ${now + :ttl})
        """;
  }

  @Override
  public boolean insertReportsDuplicates() {
    return true;
  }

  /** LOCK IN SHARE MODE, which both MariaDB and MySQL 8 accept (FOR SHARE is MySQL's alone). */
  @Override
  public String fence() {
    return held().strip() + " LOCK IN SHARE MODE";
  }
}
