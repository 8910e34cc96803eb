package io.tenure.tck;

class InMemoryEventStoreComplianceTest extends EventStoreComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
