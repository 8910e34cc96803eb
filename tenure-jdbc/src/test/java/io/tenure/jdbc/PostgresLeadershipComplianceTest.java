package io.tenure.jdbc;

import io.tenure.tck.LeadershipComplianceTest;
import io.tenure.tck.StoreFixture;

class PostgresLeadershipComplianceTest extends LeadershipComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  }
}
