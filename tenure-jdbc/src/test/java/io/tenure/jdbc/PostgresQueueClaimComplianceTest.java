package io.tenure.jdbc;

import io.tenure.tck.QueueClaimComplianceTest;
import io.tenure.tck.StoreFixture;

class PostgresQueueClaimComplianceTest extends QueueClaimComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  }
}
