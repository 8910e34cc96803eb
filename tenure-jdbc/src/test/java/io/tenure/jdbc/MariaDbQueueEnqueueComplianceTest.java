package io.tenure.jdbc;

import io.tenure.tck.QueueEnqueueComplianceTest;
import io.tenure.tck.StoreFixture;

class MariaDbQueueEnqueueComplianceTest extends QueueEnqueueComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.MARIADB);
  }
}
