package io.tenure.jdbc;

import io.tenure.tck.QueueWakeupComplianceTest;
import io.tenure.tck.StoreFixture;

class SqliteQueueWakeupComplianceTest extends QueueWakeupComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.SQLITE);
  }
}
