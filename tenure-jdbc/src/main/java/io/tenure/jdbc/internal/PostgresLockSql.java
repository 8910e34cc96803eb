package io.tenure.jdbc.internal;

/** How PostgreSQL takes a lock first and fences a holder's write: a shared row lock. */
final class PostgresLockSql extends StandardLockSql {
  @Override
  public String insert() {
    return """
        INSERT INTO ${locks} (name, holder, owner, token, acquired_at, expires_at)
        VALUES (:name, :holder, :owner, 1, ${now}, ${now + :ttl})
        ON CONFLICT (name) DO NOTHING
        """;
  }

  /**
   * FOR SHARE: a take-over's UPDATE waits for the fenced transaction, then finds a newer expiry; a
   * fence waiting behind a take-over re-reads the row and finds another owner.
   */
  @Override
  public String fence() {
    return held().strip() + " FOR SHARE";
  }
}
