package io.tenure.jdbc;

import io.tenure.tck.QueueDeadLetterComplianceTest;
import io.tenure.tck.StoreFixture;

class PostgresQueueDeadLetterComplianceTest extends QueueDeadLetterComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  }
}
