package io.tenure.jdbc;

import io.tenure.tck.LocksComplianceTest;
import io.tenure.tck.StoreFixture;

class SqliteLocksComplianceTest extends LocksComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.SQLITE);
  }
}
