package io.tenure.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tenure.ConsumerStats;
import io.tenure.DurationHistogram;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The consumer histograms on each kind of registry, from consumer stats the test writes: a
 * Prometheus registry serves them as histograms (each bucket cumulative, {@code +Inf} the count),
 * any other gets the count and the sum as a function timer, and a composite gives each member its
 * own kind.
 */
class ConsumerHistogramsTest {
  private static final List<Duration> BOUNDS =
      List.of(Duration.ofMillis(100), Duration.ofSeconds(1));

  /** Two consumers of "jobs" (their figures add up) and one of "mail". */
  private final List<ConsumerStats> consumers =
      List.of(
          stats("jobs", histogram(1, 3, 4, 2_500), histogram(0, 1, 1, 400)),
          stats("jobs", histogram(2, 2, 2, 100), histogram(1, 1, 1, 50)),
          stats("mail", histogram(0, 0, 1, 7_000), histogram(0, 0, 0, 0)));

  @Test
  void a_prometheus_registry_serves_each_queues_histograms_with_cumulative_buckets() {
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new ConsumerHistograms(prometheus, () -> consumers);

    String text = prometheus.scrape();

    assertThat(text)
        .contains("# TYPE tenure_queue_handler_seconds histogram")
        .contains("tenure_queue_handler_seconds_bucket{queue=\"jobs\",le=\"0.1\"} 3\n")
        .contains("tenure_queue_handler_seconds_bucket{queue=\"jobs\",le=\"1.0\"} 5\n")
        .contains("tenure_queue_handler_seconds_bucket{queue=\"jobs\",le=\"+Inf\"} 6\n")
        .contains("tenure_queue_handler_seconds_count{queue=\"jobs\"} 6\n")
        .contains("tenure_queue_handler_seconds_sum{queue=\"jobs\"} 2.6\n")
        .contains("tenure_queue_handler_seconds_bucket{queue=\"mail\",le=\"0.1\"} 0\n")
        .contains("tenure_queue_handler_seconds_bucket{queue=\"mail\",le=\"+Inf\"} 1\n")
        .contains("tenure_queue_handler_seconds_sum{queue=\"mail\"} 7.0\n")
        .contains("# TYPE tenure_queue_pickup_seconds histogram")
        .contains("tenure_queue_pickup_seconds_bucket{queue=\"jobs\",le=\"0.1\"} 1\n")
        .contains("tenure_queue_pickup_seconds_bucket{queue=\"jobs\",le=\"1.0\"} 2\n")
        .contains("tenure_queue_pickup_seconds_count{queue=\"jobs\"} 2\n")
        .contains("tenure_queue_pickup_seconds_sum{queue=\"jobs\"} 0.45\n")
        .contains("tenure_queue_pickup_seconds_count{queue=\"mail\"} 0\n");
  }

  @Test
  void a_registry_of_another_kind_gets_the_count_and_the_sum_per_queue() {
    SimpleMeterRegistry simple = new SimpleMeterRegistry();
    ConsumerHistograms histograms = new ConsumerHistograms(simple, () -> consumers);

    histograms.registerQueue("jobs");

    FunctionTimer handler = simple.get("tenure_queue_handler").tag("queue", "jobs").functionTimer();
    assertThat(handler.count()).isEqualTo(6);
    assertThat(handler.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(2_600);
    FunctionTimer pickup = simple.get("tenure_queue_pickup").tag("queue", "jobs").functionTimer();
    assertThat(pickup.count()).isEqualTo(2);
    assertThat(simple.find("tenure_queue_handler").tag("queue", "mail").functionTimer())
        .as("registered when a refresh sees the queue")
        .isNull();
  }

  @Test
  void a_composite_gives_its_prometheus_member_histograms_and_the_others_timers() {
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    SimpleMeterRegistry simple = new SimpleMeterRegistry();
    CompositeMeterRegistry composite = new CompositeMeterRegistry();
    composite.add(prometheus);
    composite.add(simple);

    new ConsumerHistograms(composite, () -> consumers).registerQueue("mail");

    assertThat(prometheus.scrape())
        .contains("tenure_queue_handler_seconds_count{queue=\"mail\"} 1\n")
        .doesNotContain("tenure_queue_handler_seconds_total");
    assertThat(simple.get("tenure_queue_handler").tag("queue", "mail").functionTimer().count())
        .isEqualTo(1);
  }

  @Test
  void a_second_binding_on_one_prometheus_registry_is_refused_without_failing_and_reports_once() {
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new ConsumerHistograms(prometheus, () -> consumers);

    new ConsumerHistograms(prometheus, List::of);

    String text = prometheus.scrape();
    assertThat(text.split("# TYPE tenure_queue_handler_seconds histogram", -1)).hasSize(2);
    assertThat(text).contains("tenure_queue_handler_seconds_count{queue=\"jobs\"} 6\n");
  }

  @Test
  void two_consumers_of_one_queue_counting_in_different_buckets_is_a_bug() {
    List<ConsumerStats> mismatched =
        List.of(
            consumers.get(0),
            stats(
                "jobs",
                new DurationHistogram(
                    List.of(Duration.ofSeconds(5)), List.of(0L), 0, Duration.ZERO),
                histogram(0, 0, 0, 0)));

    assertThatThrownBy(() -> ConsumerHistograms.merged(mismatched, ConsumerStats::handlerDuration))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("indicates a bug");
  }

  /** Bucket counts at 100 ms and 1 s (cumulative), the count, and the sum in milliseconds. */
  private static DurationHistogram histogram(long at100ms, long at1s, long count, long sumMillis) {
    return new DurationHistogram(
        BOUNDS, List.of(at100ms, at1s), count, Duration.ofMillis(sumMillis));
  }

  private static ConsumerStats stats(
      String queue, DurationHistogram handler, DurationHistogram pickup) {
    return new ConsumerStats(queue, 0, 0, 0, 0, 0, 0, 0, handler, pickup);
  }
}
