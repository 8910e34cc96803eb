package io.tenure.tck;

class InMemoryAgentClusterComplianceTest extends AgentClusterComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
