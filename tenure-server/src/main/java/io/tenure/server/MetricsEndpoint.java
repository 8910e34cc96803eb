package io.tenure.server;

import com.sun.net.httpserver.HttpExchange;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/** {@code /metrics}: Tenure's meters in Prometheus text, when the registry is a Prometheus one. */
final class MetricsEndpoint {
  private final MeterRegistry registry;
  private final @Nullable PrometheusMeterRegistry prometheus;
  private final TenureMetrics metrics;

  MetricsEndpoint(MeterRegistry registry, TenureMetrics metrics) {
    this.registry = registry;
    this.prometheus = TenureMetrics.prometheusOf(registry);
    this.metrics = metrics;
  }

  /**
   * Re-reads the store-wide gauges and answers with the registry's text.
   *
   * @throws AdminException 404 when the meters are on a registry that is not a Prometheus one
   */
  void scrape(HttpExchange exchange) throws IOException {
    if (prometheus == null) {
      throw AdminException.notFound(
          "no Prometheus registry: Tenure's meters are on the "
              + registry.getClass().getSimpleName()
              + " given to AdminServer.Builder.meterRegistry; /metrics serves"
              + " only a Prometheus one (see docs/ADMIN-API.md#metrics)");
    }
    metrics.refresh();
    Exchanges.send(
        exchange,
        200,
        "text/plain; version=0.0.4; charset=utf-8",
        prometheus.scrape().getBytes(StandardCharsets.UTF_8));
  }
}
