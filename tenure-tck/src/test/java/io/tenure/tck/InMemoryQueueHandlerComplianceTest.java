package io.tenure.tck;

class InMemoryQueueHandlerComplianceTest extends QueueHandlerComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
