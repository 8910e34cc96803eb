package io.tenure.jdbc;

import io.tenure.tck.SchemaComplianceTest;
import io.tenure.tck.StoreFixture;

class MariaDbSchemaComplianceTest extends SchemaComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.MARIADB);
  }
}
