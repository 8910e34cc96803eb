package io.tenure.server;

import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.MetricType;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import io.tenure.ConsumerStats;
import io.tenure.DurationHistogram;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's consumer histograms (docs/ADMIN-API.md#metrics): handler duration and pickup latency
 * per queue. The consumers count them, so they are not Micrometer timers (which count what they are
 * given): a Prometheus registry gets them as histograms, buckets included, from a collector on its
 * Prometheus registry that reads the consumers at each scrape; any other registry gets a function
 * timer per queue, the count and the sum without buckets. A composite's members are bound as they
 * are when the metrics are created: a member added later gets neither.
 */
final class ConsumerHistograms {
  private static final Logger LOG = LoggerFactory.getLogger(ConsumerHistograms.class);

  /** One histogram: its Prometheus name, its Micrometer name, its help and which figure it is. */
  private record Series(
      String prometheusName,
      String meterName,
      String help,
      Function<ConsumerStats, DurationHistogram> figure) {}

  private static final List<Series> SERIES =
      List.of(
          new Series(
              "tenure_queue_handler_seconds",
              "tenure_queue_handler",
              "How long this node's handler calls ran, from start to return or throw",
              ConsumerStats::handlerDuration),
          new Series(
              "tenure_queue_pickup_seconds",
              "tenure_queue_pickup",
              "How long the messages this node claimed had been available, by the database clock",
              ConsumerStats::pickupLatency));

  /** What a queue reports while this node has no consumer of it (closed, or no node yet). */
  private static final DurationHistogram EMPTY =
      new DurationHistogram(List.of(), List.of(), 0, Duration.ZERO);

  private final Supplier<List<ConsumerStats>> consumers;
  private final List<MeterRegistry> withoutBuckets = new ArrayList<>();

  /**
   * @param consumers this node's consumers now; empty before the node is known
   */
  ConsumerHistograms(MeterRegistry registry, Supplier<List<ConsumerStats>> consumers) {
    this.consumers = consumers;
    bind(registry);
  }

  /** Adds the queue's timers on the registries that are not Prometheus ones. */
  void registerQueue(String queue) {
    for (MeterRegistry registry : withoutBuckets) {
      for (Series series : SERIES) {
        FunctionTimer.builder(
                series.meterName(),
                consumers,
                c -> merged(c.get(), series.figure()).getOrDefault(queue, EMPTY).count(),
                c -> seconds(merged(c.get(), series.figure()).getOrDefault(queue, EMPTY).sum()),
                TimeUnit.SECONDS)
            .tag("queue", queue)
            .description(series.help())
            .register(registry);
      }
    }
  }

  private void bind(MeterRegistry registry) {
    if (registry instanceof PrometheusMeterRegistry prometheus) {
      try {
        prometheus.getPrometheusRegistry().register(new Collector());
      } catch (IllegalArgumentException e) {
        // Meters are never removed: a second TenureMetrics on one registry keeps the first's.
        LOG.warn(
            "metrics: the consumer histograms are already on this registry, from an earlier"
                + " TenureMetrics; they keep reporting its node: {}",
            e.getMessage());
      }
    } else if (registry instanceof CompositeMeterRegistry composite) {
      composite.getRegistries().forEach(this::bind);
    } else {
      withoutBuckets.add(registry);
    }
  }

  /**
   * Each queue's figure, its consumers' added up (one per queue on a node, but a sum is what the
   * counters report too).
   *
   * @throws IllegalStateException if two consumers of one queue count in different buckets, which
   *     indicates a bug
   */
  static Map<String, DurationHistogram> merged(
      List<ConsumerStats> consumers, Function<ConsumerStats, DurationHistogram> figure) {
    Map<String, DurationHistogram> byQueue = new TreeMap<>();
    for (ConsumerStats stats : consumers) {
      byQueue.merge(stats.queue(), figure.apply(stats), ConsumerHistograms::add);
    }
    return byQueue;
  }

  private static DurationHistogram add(DurationHistogram a, DurationHistogram b) {
    if (!a.bounds().equals(b.bounds())) {
      throw new IllegalStateException(
          "two consumers of one queue count in different buckets, "
              + a.bounds()
              + " and "
              + b.bounds()
              + ": this indicates a bug");
    }
    List<Long> counts = new ArrayList<>();
    for (int i = 0; i < a.counts().size(); i++) {
      counts.add(a.counts().get(i) + b.counts().get(i));
    }
    return new DurationHistogram(a.bounds(), counts, a.count() + b.count(), a.sum().plus(b.sum()));
  }

  private static double seconds(Duration duration) {
    return duration.toNanos() / 1e9;
  }

  /** Prometheus's view: a classic histogram per queue, read from the consumers at each scrape. */
  private final class Collector implements MultiCollector {
    @Override
    public MetricSnapshots collect() {
      List<ConsumerStats> now = consumers.get();
      MetricSnapshots.Builder snapshots = MetricSnapshots.builder();
      for (Series series : SERIES) {
        HistogramSnapshot.Builder histogram =
            HistogramSnapshot.builder()
                .name(series.prometheusName())
                .help(series.help())
                .unit(Unit.SECONDS);
        merged(now, series.figure())
            .forEach((queue, figure) -> histogram.dataPoint(point(queue, figure)));
        snapshots.metricSnapshot(histogram.build());
      }
      return snapshots.build();
    }

    @Override
    public List<MetricFamilyDescriptor> getMetricFamilyDescriptors() {
      return SERIES.stream()
          .map(
              series ->
                  MetricFamilyDescriptor.of(
                      MetricType.HISTOGRAM,
                      new MetricMetadata(series.prometheusName(), series.help(), Unit.SECONDS),
                      Set.of("queue")))
          .toList();
    }

    private static HistogramDataPointSnapshot point(String queue, DurationHistogram figure) {
      int size = figure.bounds().size();
      double[] bounds = new double[size + 1];
      long[] counts = new long[size + 1]; // Prometheus's model wants each bucket's own count
      long below = 0;
      for (int i = 0; i < size; i++) {
        bounds[i] = seconds(figure.bounds().get(i));
        counts[i] = figure.counts().get(i) - below;
        below = figure.counts().get(i);
      }
      bounds[size] = Double.POSITIVE_INFINITY;
      counts[size] = figure.count() - below;
      return HistogramDataPointSnapshot.builder()
          .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts))
          .sum(seconds(figure.sum()))
          .labels(Labels.of("queue", queue))
          .build();
    }
  }
}
