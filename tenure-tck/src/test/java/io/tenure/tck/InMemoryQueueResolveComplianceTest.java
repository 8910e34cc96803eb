package io.tenure.tck;

class InMemoryQueueResolveComplianceTest extends QueueResolveComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
