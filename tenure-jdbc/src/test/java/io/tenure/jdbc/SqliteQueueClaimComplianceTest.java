package io.tenure.jdbc;

import io.tenure.tck.QueueClaimComplianceTest;
import io.tenure.tck.StoreFixture;

class SqliteQueueClaimComplianceTest extends QueueClaimComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.SQLITE);
  }
}
