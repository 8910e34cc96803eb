package io.tenure.jdbc;

import io.tenure.tck.QueueClusterComplianceTest;
import io.tenure.tck.StoreFixture;

class MariaDbQueueClusterComplianceTest extends QueueClusterComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.MARIADB);
  }
}
