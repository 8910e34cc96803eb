package io.tenure.jdbc.internal;

/** The lock statements every database runs as written (standard SQL, the dialect's clock). */
abstract class StandardLockSql implements LockSql {
  @Override
  public boolean insertReportsDuplicates() {
    return false;
  }

  @Override
  public String takeOver() {
    return """
        UPDATE ${locks} SET holder = :holder, owner = :owner, token = token + 1,
          acquired_at = ${now}, expires_at = ${now + :ttl}
        WHERE name = :name AND expires_at <= ${now}
        """;
  }

  @Override
  public String renew() {
    return """
        UPDATE ${locks} SET expires_at = ${now + :ttl}
        WHERE name = :name AND owner = :owner AND token = :token AND expires_at > ${now}
        """;
  }

  @Override
  public String release() {
    return """
        UPDATE ${locks} SET
          expires_at = CASE WHEN ${kept_until} > ${now} THEN ${kept_until} ELSE ${now} END,
          owner = NULL
        WHERE name = :name AND owner = :owner AND token = :token AND expires_at > ${now}
        """;
  }

  @Override
  public String held() {
    return """
        SELECT 1 FROM ${locks}
        WHERE name = :name AND owner = :owner AND token = :token AND expires_at > ${now}
        """;
  }

  @Override
  public boolean fenceIsUpdate() {
    return false;
  }

  @Override
  public String read() {
    return "SELECT " + COLUMNS + ", ${now} AS read_at FROM ${locks} WHERE name = :name";
  }

  @Override
  public String list() {
    return "SELECT " + COLUMNS + ", ${now} AS read_at FROM ${locks} ORDER BY name LIMIT :limit";
  }
}
