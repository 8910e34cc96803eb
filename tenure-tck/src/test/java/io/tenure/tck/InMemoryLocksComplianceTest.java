package io.tenure.tck;

class InMemoryLocksComplianceTest extends LocksComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
