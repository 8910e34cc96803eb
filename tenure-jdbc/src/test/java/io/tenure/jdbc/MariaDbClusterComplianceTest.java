package io.tenure.jdbc;

import io.tenure.tck.ClusterComplianceTest;
import io.tenure.tck.StoreFixture;

class MariaDbClusterComplianceTest extends ClusterComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.MARIADB);
  }
}
