package io.tenure.jdbc;

import io.tenure.tck.AgentStoreComplianceTest;
import io.tenure.tck.StoreFixture;

class SqliteAgentStoreComplianceTest extends AgentStoreComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.SQLITE);
  }
}
