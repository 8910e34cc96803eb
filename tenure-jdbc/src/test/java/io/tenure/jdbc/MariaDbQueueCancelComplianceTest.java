package io.tenure.jdbc;

import io.tenure.tck.QueueCancelComplianceTest;
import io.tenure.tck.StoreFixture;

class MariaDbQueueCancelComplianceTest extends QueueCancelComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.MARIADB);
  }
}
