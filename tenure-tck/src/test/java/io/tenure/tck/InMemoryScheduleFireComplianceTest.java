package io.tenure.tck;

class InMemoryScheduleFireComplianceTest extends ScheduleFireComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
