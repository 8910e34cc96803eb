package io.tenure.jdbc;

import io.tenure.tck.ClusterComplianceTest;
import io.tenure.tck.StoreFixture;

class SqliteClusterComplianceTest extends ClusterComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.SQLITE);
  }
}
