package io.tenure.jdbc;

import io.tenure.tck.QueueResolveComplianceTest;
import io.tenure.tck.StoreFixture;

class SqliteQueueResolveComplianceTest extends QueueResolveComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.SQLITE);
  }
}
