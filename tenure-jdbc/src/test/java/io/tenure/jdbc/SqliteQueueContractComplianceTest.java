package io.tenure.jdbc;

import io.tenure.tck.QueueContractComplianceTest;
import io.tenure.tck.StoreFixture;

class SqliteQueueContractComplianceTest extends QueueContractComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.SQLITE);
  }
}
