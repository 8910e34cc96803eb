package io.tenure.jdbc;

import io.tenure.tck.QueueHandlerComplianceTest;
import io.tenure.tck.StoreFixture;

class PostgresQueueHandlerComplianceTest extends QueueHandlerComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  }
}
