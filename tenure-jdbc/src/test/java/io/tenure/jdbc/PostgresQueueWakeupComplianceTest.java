package io.tenure.jdbc;

import io.tenure.tck.QueueWakeupComplianceTest;
import io.tenure.tck.StoreFixture;

class PostgresQueueWakeupComplianceTest extends QueueWakeupComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  }
}
