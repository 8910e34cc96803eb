package io.tenure.jdbc.internal;

/**
 * How SQLite takes a lock first and fences a holder's write. SQLite locks the database, not rows:
 * the fence is an update that changes nothing but takes the write lock, so no take-over can commit
 * until the caller's transaction ends (a read would leave a deferred transaction without it).
 */
final class SqliteLockSql extends StandardLockSql {
  @Override
  public String insert() {
    return """
        INSERT INTO ${locks} (name, holder, owner, token, acquired_at, expires_at)
        VALUES (:name, :holder, :owner, 1, ${now}, ${now + :ttl})
        ON CONFLICT (name) DO NOTHING
        """;
  }

  @Override
  public String fence() {
    return """
        UPDATE ${locks} SET token = token
        WHERE name = :name AND owner = :owner AND token = :token AND expires_at > ${now}
        """;
  }

  @Override
  public boolean fenceIsUpdate() {
    return true;
  }
}
