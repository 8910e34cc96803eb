package io.tenure.jdbc;

import io.tenure.tck.QueueResolveComplianceTest;
import io.tenure.tck.StoreFixture;

class MariaDbQueueResolveComplianceTest extends QueueResolveComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.MARIADB);
  }
}
