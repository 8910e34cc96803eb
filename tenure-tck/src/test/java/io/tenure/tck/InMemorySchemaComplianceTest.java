package io.tenure.tck;

class InMemorySchemaComplianceTest extends SchemaComplianceTest {
  @Override
  protected StoreFixture createFixture() {
    return new InMemoryFixture();
  }
}
