package io.tenure.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tenure.Delivery;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.Tenure;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;

/** Tenure's meters read current values when asked, with no scrape or refresh in between. */
class TenureMeterBinderTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @Test
  void a_queue_gauge_reads_the_store_when_it_is_asked() {
    try (Tenure tenure = Tenure.open(Runners.freshMemoryUrl())) {
      TenureQueues queues = new TenureQueues(tenure, null, Map.of());
      MeterRegistry registry = new SimpleMeterRegistry();
      new TenureMeterBinder(tenure, queues, Optional::empty, System::nanoTime, Duration.ZERO)
          .bindTo(registry);
      Queue emails = queues.queue("emails");
      assertThat(depth(registry, "emails")).isZero();
      emails.enqueueAll(
          java.util.List.of(
              OutgoingMessage.text("a"), OutgoingMessage.text("b"), OutgoingMessage.text("c")));
      assertThat(depth(registry, "emails")).isEqualTo(3);
      emails.enqueue(OutgoingMessage.text("d"));
      assertThat(depth(registry, "emails")).isEqualTo(4);
      assertThat(registry.get("tenure.queue.depth").tag("scope", "store").gauges()).hasSize(1);
    }
  }

  @Test
  void gauges_share_one_store_read_for_at_most_its_max_age() {
    try (Tenure tenure = Tenure.open(Runners.freshMemoryUrl())) {
      TenureQueues queues = new TenureQueues(tenure, null, Map.of());
      Queue emails = queues.queue("emails");
      AtomicLong now = new AtomicLong();
      MeterRegistry registry = new SimpleMeterRegistry();
      new TenureMeterBinder(tenure, queues, Optional::empty, now::get, Duration.ofSeconds(1))
          .bindTo(registry);
      emails.enqueue(OutgoingMessage.text("a"));
      assertThat(depth(registry, "emails")).isEqualTo(1);
      emails.enqueue(OutgoingMessage.text("b"));
      now.addAndGet(Duration.ofMillis(999).toNanos());
      assertThat(depth(registry, "emails")).as("the read of 999 ms ago").isEqualTo(1);
      now.addAndGet(Duration.ofMillis(1).toNanos());
      assertThat(depth(registry, "emails")).isEqualTo(2);
    }
  }

  @Test
  void a_queue_opened_after_binding_gets_its_meters() {
    try (Tenure tenure = Tenure.open(Runners.freshMemoryUrl())) {
      TenureQueues queues = new TenureQueues(tenure, null, Map.of());
      MeterRegistry registry = new SimpleMeterRegistry();
      new TenureMeterBinder(tenure, queues, Optional::empty, System::nanoTime, Duration.ZERO)
          .bindTo(registry);
      queues.queue("late").enqueue(OutgoingMessage.text("x"));
      assertThat(depth(registry, "late")).isEqualTo(1);
      assertThat(
              registry.get("tenure.queue.handled").tag("queue", "late").functionCounter().count())
          .isZero();
    }
  }

  static class Handler {
    @TenureHandler(queue = "work")
    void handle(Delivery delivery) {
      if (delivery.text().equals("fail")) {
        throw new IllegalStateException("fails");
      }
    }
  }

  @Test
  void the_applications_registry_gets_node_and_queue_meters_that_follow_the_node() {
    Runners.inMemory()
        .withConfiguration(
            AutoConfigurations.of(
                MetricsAutoConfiguration.class,
                CompositeMeterRegistryAutoConfiguration.class,
                SimpleMetricsExportAutoConfiguration.class))
        .withBean(Handler.class)
        .withPropertyValues("tenure.queues.work.max-attempts=1")
        .run(
            context -> {
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              await()
                  .atMost(WAIT)
                  .until(() -> registry.get("tenure.node.leader").gauge().value() == 1);
              assertThat(
                      registry.get("tenure.cluster.nodes").tag("status", "ACTIVE").gauge().value())
                  .isEqualTo(1);
              TenureQueues queues = context.getBean(TenureQueues.class);
              queues.enqueue("work", OutgoingMessage.text("ok"));
              queues.enqueue("work", OutgoingMessage.text("fail"));
              await().atMost(WAIT).until(() -> count(registry, "tenure.queue.handled") == 1);
              await().atMost(WAIT).until(() -> count(registry, "tenure.queue.failed") == 1);
              assertThat(count(registry, "tenure.queue.dead.lettered")).isEqualTo(1);
              await()
                  .atMost(WAIT)
                  .until(
                      () ->
                          registry.get("tenure.queue.dead").tag("queue", "work").gauge().value()
                              == 1);
            });
  }

  private static double depth(MeterRegistry registry, String queue) {
    return registry.get("tenure.queue.depth").tag("queue", queue).gauge().value();
  }

  private static double count(MeterRegistry registry, String name) {
    return registry.get(name).tag("queue", "work").functionCounter().count();
  }
}
