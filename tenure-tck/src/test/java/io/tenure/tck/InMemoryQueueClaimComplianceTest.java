package io.tenure.tck;

class InMemoryQueueClaimComplianceTest extends QueueClaimComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
