package io.tenure.jdbc;

import io.tenure.tck.AgentClusterComplianceTest;
import io.tenure.tck.StoreFixture;

class PostgresAgentClusterComplianceTest extends AgentClusterComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  }
}
