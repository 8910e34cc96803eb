package io.tenure.jdbc;

import io.tenure.tck.QueueValuesComplianceTest;
import io.tenure.tck.StoreFixture;

class MariaDbQueueValuesComplianceTest extends QueueValuesComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.MARIADB);
  }
}
