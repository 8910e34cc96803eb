package io.tenure.tck;

class InMemoryQueueMessageAdminComplianceTest extends QueueMessageAdminComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
