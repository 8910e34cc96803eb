package io.tenure.jdbc;

import io.tenure.tck.QueueEnqueueComplianceTest;
import io.tenure.tck.StoreFixture;

class PostgresQueueEnqueueComplianceTest extends QueueEnqueueComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  }
}
