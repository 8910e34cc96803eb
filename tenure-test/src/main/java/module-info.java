/**
 * Tenure's test kit for applications: {@code io.tenure.test.TenureExtension} gives each JUnit 5
 * test a fresh store, a {@code TestClock} and a {@code TenureTestKit} (synchronous drain, schedule
 * firing, assertions).
 */
module io.tenure.test {
  requires transitive io.tenure.core;
  requires transitive org.junit.jupiter.api;
  requires static org.jspecify;

  exports io.tenure.test;
}
