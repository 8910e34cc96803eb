package io.tenure.jdbc;

import io.tenure.tck.MembershipComplianceTest;
import io.tenure.tck.StoreFixture;

class SqliteMembershipComplianceTest extends MembershipComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return JdbcFixture.of(JdbcFixture.Kind.SQLITE);
  }
}
