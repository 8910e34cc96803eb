package io.tenure.jdbc;

import io.tenure.tck.QueueMessageAdminComplianceTest;
import io.tenure.tck.StoreFixture;

class PostgresQueueMessageAdminComplianceTest extends QueueMessageAdminComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  }
}
