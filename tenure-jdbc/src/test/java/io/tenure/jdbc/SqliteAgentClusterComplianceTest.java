package io.tenure.jdbc;

import io.tenure.tck.AgentClusterComplianceTest;
import io.tenure.tck.StoreFixture;

class SqliteAgentClusterComplianceTest extends AgentClusterComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.SQLITE);
  }
}
