package io.tenure.tck;

class InMemoryQueueControlComplianceTest extends QueueControlComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
