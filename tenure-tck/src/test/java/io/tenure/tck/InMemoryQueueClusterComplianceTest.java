package io.tenure.tck;

class InMemoryQueueClusterComplianceTest extends QueueClusterComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
