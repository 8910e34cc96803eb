package io.tenure.jdbc;

import io.tenure.tck.LeadershipComplianceTest;
import io.tenure.tck.StoreFixture;

class MariaDbLeadershipComplianceTest extends LeadershipComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.MARIADB);
  }
}
