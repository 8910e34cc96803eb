package io.tenure.jdbc;

import io.tenure.tck.AgentClaimComplianceTest;
import io.tenure.tck.StoreFixture;

class MariaDbAgentClaimComplianceTest extends AgentClaimComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.MARIADB);
  }
}
