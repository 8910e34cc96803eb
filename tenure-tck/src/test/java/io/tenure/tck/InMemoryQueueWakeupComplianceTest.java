package io.tenure.tck;

class InMemoryQueueWakeupComplianceTest extends QueueWakeupComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
