package io.tenure.tck;

class InMemoryAgentEpochComplianceTest extends AgentEpochComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
