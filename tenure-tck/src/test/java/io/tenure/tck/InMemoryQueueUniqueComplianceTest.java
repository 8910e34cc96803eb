package io.tenure.tck;

class InMemoryQueueUniqueComplianceTest extends QueueUniqueComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
