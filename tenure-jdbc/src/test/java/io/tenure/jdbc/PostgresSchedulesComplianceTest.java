package io.tenure.jdbc;

import io.tenure.tck.SchedulesComplianceTest;
import io.tenure.tck.StoreFixture;

class PostgresSchedulesComplianceTest extends SchedulesComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  }
}
