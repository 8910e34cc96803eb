package io.tenure.tck;

class InMemoryMembershipComplianceTest extends MembershipComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
