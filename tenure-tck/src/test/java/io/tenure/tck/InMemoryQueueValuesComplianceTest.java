package io.tenure.tck;

class InMemoryQueueValuesComplianceTest extends QueueValuesComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
