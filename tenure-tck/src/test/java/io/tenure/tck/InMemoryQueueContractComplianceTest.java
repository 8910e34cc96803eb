package io.tenure.tck;

class InMemoryQueueContractComplianceTest extends QueueContractComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
