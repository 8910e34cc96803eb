/**
 * Tracing for Tenure's queues with OpenTelemetry: {@link io.tenure.opentelemetry.TenureTracing}.
 */
module io.tenure.opentelemetry {
  requires transitive io.tenure.core;
  requires transitive io.opentelemetry.api;
  requires io.opentelemetry.context;

  exports io.tenure.opentelemetry;
}
