package io.tenure.jdbc;

import io.tenure.tck.QueueComplianceTest;
import io.tenure.tck.StoreFixture;

class PostgresQueueComplianceTest extends QueueComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  }
}
