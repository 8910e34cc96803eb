package io.tenure.jdbc;

import io.tenure.tck.QueueMessageAdminComplianceTest;
import io.tenure.tck.StoreFixture;

class SqliteQueueMessageAdminComplianceTest extends QueueMessageAdminComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.SQLITE);
  }
}
