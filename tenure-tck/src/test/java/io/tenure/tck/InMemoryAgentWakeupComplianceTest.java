package io.tenure.tck;

class InMemoryAgentWakeupComplianceTest extends AgentWakeupComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
