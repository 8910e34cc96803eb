package io.tenure.jdbc;

import io.tenure.tck.ScheduleFireComplianceTest;
import io.tenure.tck.StoreFixture;

class MariaDbScheduleFireComplianceTest extends ScheduleFireComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.MARIADB);
  }
}
