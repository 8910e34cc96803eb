package io.tenure.jdbc;

import io.tenure.tck.QueueUniqueComplianceTest;
import io.tenure.tck.StoreFixture;

class SqliteQueueUniqueComplianceTest extends QueueUniqueComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.SQLITE);
  }
}
