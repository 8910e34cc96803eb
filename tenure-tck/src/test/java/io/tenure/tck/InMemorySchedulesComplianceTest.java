package io.tenure.tck;

class InMemorySchedulesComplianceTest extends SchedulesComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
