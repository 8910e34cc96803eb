package io.tenure.tck;

class InMemoryQueueEnqueueComplianceTest extends QueueEnqueueComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
