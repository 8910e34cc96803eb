package io.tenure.jdbc;

import io.tenure.tck.ScheduleClusterComplianceTest;
import io.tenure.tck.StoreFixture;

class MariaDbScheduleClusterComplianceTest extends ScheduleClusterComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.MARIADB);
  }
}
