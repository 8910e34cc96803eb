package io.tenure.tck;

class InMemoryQueueReclaimComplianceTest extends QueueReclaimComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
