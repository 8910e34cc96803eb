package io.tenure.tck;

class InMemoryQueueComplianceTest extends QueueComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
