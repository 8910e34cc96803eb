package io.tenure.jdbc;

import io.tenure.tck.QueueReclaimComplianceTest;
import io.tenure.tck.StoreFixture;

class SqliteQueueReclaimComplianceTest extends QueueReclaimComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.SQLITE);
  }
}
