package io.tenure.jdbc;

import io.tenure.tck.AgentEpochComplianceTest;
import io.tenure.tck.StoreFixture;

class PostgresAgentEpochComplianceTest extends AgentEpochComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  }
}
