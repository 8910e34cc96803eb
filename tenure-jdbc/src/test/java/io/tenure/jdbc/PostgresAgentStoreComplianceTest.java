package io.tenure.jdbc;

import io.tenure.tck.AgentStoreComplianceTest;
import io.tenure.tck.StoreFixture;

class PostgresAgentStoreComplianceTest extends AgentStoreComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  }
}
