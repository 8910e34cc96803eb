package io.tenure.jdbc;

import io.tenure.tck.AgentWakeupComplianceTest;
import io.tenure.tck.StoreFixture;

class SqliteAgentWakeupComplianceTest extends AgentWakeupComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.SQLITE);
  }
}
