package io.tenure.tck;

class InMemoryQueueExclusiveComplianceTest extends QueueExclusiveComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
