package io.tenure.tck;

class InMemoryQueueDeadLetterComplianceTest extends QueueDeadLetterComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
