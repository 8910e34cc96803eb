package io.tenure.jdbc;

import io.tenure.tck.MarkersComplianceTest;
import io.tenure.tck.StoreFixture;

class MariaDbMarkersComplianceTest extends MarkersComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.MARIADB);
  }
}
