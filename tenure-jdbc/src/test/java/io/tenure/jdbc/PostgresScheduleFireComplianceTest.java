package io.tenure.jdbc;

import io.tenure.tck.ScheduleFireComplianceTest;
import io.tenure.tck.StoreFixture;

class PostgresScheduleFireComplianceTest extends ScheduleFireComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  }
}
