package io.tenure.tck;

class InMemoryQueueCancelComplianceTest extends QueueCancelComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
