package io.tenure.jdbc;

import io.tenure.tck.EventStoreComplianceTest;
import io.tenure.tck.StoreFixture;

class SqliteEventStoreComplianceTest extends EventStoreComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.SQLITE);
  }
}
