package io.tenure.tck;

class InMemoryClusterComplianceTest extends ClusterComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
