package io.tenure.tck;

class InMemoryAgentStoreComplianceTest extends AgentStoreComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
