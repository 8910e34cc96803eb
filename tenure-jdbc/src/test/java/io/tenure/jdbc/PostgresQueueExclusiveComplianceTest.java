package io.tenure.jdbc;

import io.tenure.tck.QueueExclusiveComplianceTest;
import io.tenure.tck.StoreFixture;

class PostgresQueueExclusiveComplianceTest extends QueueExclusiveComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  }
}
