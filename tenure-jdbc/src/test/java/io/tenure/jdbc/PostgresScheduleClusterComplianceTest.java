package io.tenure.jdbc;

import io.tenure.tck.ScheduleClusterComplianceTest;
import io.tenure.tck.StoreFixture;

class PostgresScheduleClusterComplianceTest extends ScheduleClusterComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  }
}
