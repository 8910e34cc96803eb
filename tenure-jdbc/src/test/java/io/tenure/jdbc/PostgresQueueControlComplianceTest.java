package io.tenure.jdbc;

import io.tenure.tck.QueueControlComplianceTest;
import io.tenure.tck.StoreFixture;

class PostgresQueueControlComplianceTest extends QueueControlComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  }
}
