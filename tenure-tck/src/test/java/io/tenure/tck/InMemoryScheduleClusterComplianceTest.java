package io.tenure.tck;

class InMemoryScheduleClusterComplianceTest extends ScheduleClusterComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
