package io.tenure.tck;

class InMemoryLeadershipComplianceTest extends LeadershipComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
