package io.tenure.jdbc;

import io.tenure.tck.AgentStoreComplianceTest;
import io.tenure.tck.StoreFixture;

class MariaDbAgentStoreComplianceTest extends AgentStoreComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.MARIADB);
  }
}
