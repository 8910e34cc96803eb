package io.tenure.tck;

class InMemoryMarkersComplianceTest extends MarkersComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
