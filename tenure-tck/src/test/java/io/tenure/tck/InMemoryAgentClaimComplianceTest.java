package io.tenure.tck;

class InMemoryAgentClaimComplianceTest extends AgentClaimComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
