package io.tenure.jdbc;

import io.tenure.tck.QueueResolveComplianceTest;
import io.tenure.tck.StoreFixture;

class PostgresQueueResolveComplianceTest extends QueueResolveComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  }
}
