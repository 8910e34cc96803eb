package io.tenure.jdbc;

import io.tenure.tck.QueueValuesComplianceTest;
import io.tenure.tck.StoreFixture;

class SqliteQueueValuesComplianceTest extends QueueValuesComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.SQLITE);
  }
}
