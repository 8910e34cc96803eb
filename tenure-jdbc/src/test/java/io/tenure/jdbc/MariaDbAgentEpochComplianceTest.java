package io.tenure.jdbc;

import io.tenure.tck.AgentEpochComplianceTest;
import io.tenure.tck.StoreFixture;

class MariaDbAgentEpochComplianceTest extends AgentEpochComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.MARIADB);
  }
}
