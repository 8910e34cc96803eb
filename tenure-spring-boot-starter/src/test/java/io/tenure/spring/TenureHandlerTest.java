package io.tenure.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tenure.Agent;
import io.tenure.AgentContext;
import io.tenure.AgentFamily;
import io.tenure.AgentUri;
import io.tenure.Delivery;
import io.tenure.MessageStatus;
import io.tenure.NodeListener;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueueMiddleware;
import io.tenure.QueuePolicy;
import io.tenure.Tenure;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Component;

/** {@link TenureHandler} methods, agent family beans and node customizers on a running node. */
class TenureHandlerTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @Component
  static class Handlers {
    final List<String> deliveries = new CopyOnWriteArrayList<>();
    final List<String> texts = new CopyOnWriteArrayList<>();
    final List<String> bytes = new CopyOnWriteArrayList<>();

    @TenureHandler(queue = "deliveries")
    void delivery(Delivery delivery) {
      deliveries.add(delivery.text() + "@" + delivery.attempt());
    }

    @TenureHandler("texts")
    public void text(String text) {
      texts.add(text);
    }

    @TenureHandler(queue = "${bytes.queue}")
    void bytes(byte[] payload) {
      bytes.add(new String(payload, StandardCharsets.UTF_8));
    }
  }

  @Test
  void a_handler_method_gets_the_delivery_the_text_or_the_bytes_of_each_message() {
    Runners.inMemory()
        .withBean(Handlers.class)
        .withPropertyValues("bytes.queue=raw")
        .run(
            context -> {
              TenureQueues queues = context.getBean(TenureQueues.class);
              queues.enqueue("deliveries", OutgoingMessage.text("one"));
              queues.enqueue("texts", OutgoingMessage.text("two"));
              queues.enqueue("raw", OutgoingMessage.text("three"));
              Handlers handlers = context.getBean(Handlers.class);
              await().atMost(WAIT).until(() -> handlers.bytes.size() == 1);
              await().atMost(WAIT).until(() -> handlers.texts.size() == 1);
              await().atMost(WAIT).until(() -> handlers.deliveries.size() == 1);
              assertThat(handlers.deliveries).containsExactly("one@1");
              assertThat(handlers.texts).containsExactly("two");
              assertThat(handlers.bytes).containsExactly("three");
            });
  }

  static class Failing {
    final AtomicInteger calls = new AtomicInteger();

    @TenureHandler(queue = "failing")
    void handle(Delivery delivery) {
      calls.incrementAndGet();
      throw new IllegalStateException("boom " + delivery.attempt());
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class OneAttempt {
    @Bean
    Queue failing(TenureQueues queues) {
      return queues.queue("failing", QueuePolicy.defaults().withMaxAttempts(1));
    }
  }

  @Test
  void a_queue_bean_gives_its_policy_to_the_handler_and_a_throw_fails_the_message() {
    Runners.inMemory()
        .withBean(Failing.class)
        .withUserConfiguration(OneAttempt.class)
        .run(
            context -> {
              Queue failing = context.getBean(Queue.class);
              long id = failing.enqueue(OutgoingMessage.text("x"));
              await()
                  .atMost(WAIT)
                  .until(() -> failing.message(id).orElseThrow().status() == MessageStatus.DEAD);
              assertThat(failing.message(id).orElseThrow().lastError()).contains("boom 1");
              assertThat(context.getBean(Failing.class).calls).hasValue(1);
            });
  }

  @Test
  void a_queue_configured_by_properties_gets_its_policy_and_a_bad_one_stops_the_context() {
    Runners.inMemory()
        .withBean(Failing.class)
        .withPropertyValues("tenure.queues.failing.max-attempts=1")
        .run(
            context -> {
              Queue failing = context.getBean(TenureQueues.class).queue("failing");
              assertThat(failing.policy().maxAttempts()).isEqualTo(1);
              long id = failing.enqueue(OutgoingMessage.text("x"));
              await()
                  .atMost(WAIT)
                  .until(() -> failing.message(id).orElseThrow().status() == MessageStatus.DEAD);
            });
    Runners.inMemory()
        .withPropertyValues("tenure.queues.emails.lease=10ms")
        .run(
            context ->
                assertThat(failure(context))
                    .contains("tenure.queues.emails: lease must be at least 100 ms"));
    Runners.inMemory()
        .withPropertyValues("tenure.queues.Emails.max-attempts=3")
        .run(context -> assertThat(failure(context)).contains("tenure.queues.Emails: queue name"));
  }

  static class Concurrent {
    final CyclicBarrier together = new CyclicBarrier(3);

    @TenureHandler(queue = "wide", concurrency = "${wide.concurrency}")
    void handle(Delivery delivery) throws Exception {
      together.await(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void the_concurrency_of_the_annotation_lets_that_many_handlers_run_at_once() {
    Runners.inMemory()
        .withBean(Concurrent.class)
        .withPropertyValues("wide.concurrency=3")
        .run(
            context -> {
              Queue wide = context.getBean(TenureQueues.class).queue("wide");
              for (int i = 0; i < 3; i++) {
                wide.enqueue(OutgoingMessage.text("m" + i));
              }
              // Three handlers meet at the barrier only if three run at once.
              await().atMost(WAIT).until(() -> handled(context, "wide") == 3);
              assertThat(wide.stats().dead()).isZero();
            });
  }

  static class Exclusive {
    final List<String> order = new CopyOnWriteArrayList<>();

    @TenureHandler(queue = "strict", exclusive = true)
    void handle(String text) {
      order.add(text);
    }
  }

  @Test
  void an_exclusive_handler_takes_its_queue_in_order() {
    Runners.inMemory()
        .withBean(Exclusive.class)
        .withPropertyValues("tenure.node.initial-placement-quiet=0s")
        .run(
            context -> {
              Queue strict = context.getBean(TenureQueues.class).queue("strict");
              for (int i = 0; i < 5; i++) {
                strict.enqueue(OutgoingMessage.text("m" + i));
              }
              Exclusive handler = context.getBean(Exclusive.class);
              await().atMost(WAIT).until(() -> handler.order.size() == 5);
              assertThat(handler.order).containsExactly("m0", "m1", "m2", "m3", "m4");
            });
  }

  static class WrongParameter {
    @TenureHandler(queue = "q")
    void handle(int count) {}
  }

  static class ReturnsSomething {
    @TenureHandler(queue = "q")
    String handle(Delivery delivery) {
      return "done";
    }
  }

  static class TwoForOneQueue {
    @TenureHandler(queue = "q")
    void first(Delivery delivery) {}

    @TenureHandler(queue = "q")
    void second(Delivery delivery) {}
  }

  static class BadQueueName {
    @TenureHandler(queue = "Emails")
    void handle(Delivery delivery) {}
  }

  static class ExclusiveWithConcurrency {
    @TenureHandler(queue = "q", exclusive = true, concurrency = "2")
    void handle(Delivery delivery) {}
  }

  @Test
  void a_handler_that_is_not_as_the_annotation_says_stops_the_context_naming_its_method() {
    assertRefused(WrongParameter.class, "WrongParameter.handle(int)", "takes one parameter");
    assertRefused(ReturnsSomething.class, "ReturnsSomething.handle(Delivery)", "returns void");
    assertRefused(TwoForOneQueue.class, "TwoForOneQueue.", "queue 'q' already has a handler");
    assertRefused(BadQueueName.class, "BadQueueName.handle(Delivery)", "queue name must be");
    assertRefused(
        ExclusiveWithConcurrency.class, "ExclusiveWithConcurrency", "remove the concurrency");
  }

  private static void assertRefused(Class<?> bean, String method, String why) {
    Runners.inMemory()
        .withBean(bean)
        .run(context -> assertThat(failure(context)).contains(method).contains(why));
  }

  static final class Projection implements Agent {
    static final List<String> STARTED = new CopyOnWriteArrayList<>();

    @Override
    public void start(AgentContext context) {
      STARTED.add(context.uri().toString());
    }

    @Override
    public void stop(AgentContext context) {}
  }

  @Test
  void an_agent_family_bean_runs_on_the_node_and_a_customizer_changes_its_builder() {
    AtomicLong promoted = new AtomicLong();
    Runners.inMemory()
        .withBean(
            AgentFamily.class,
            () ->
                AgentFamily.of(
                    "projection",
                    Set.of(AgentUri.parse("projection://orders")),
                    uri -> new Projection()))
        .withBean(
            TenureNodeCustomizer.class,
            () ->
                builder ->
                    builder.listener(
                        new NodeListener() {
                          @Override
                          public void onPromoted(long epoch) {
                            promoted.set(epoch);
                          }
                        }))
        .withPropertyValues("tenure.node.initial-placement-quiet=0s")
        .run(
            context -> {
              await().atMost(WAIT).until(() -> promoted.get() > 0);
              await()
                  .atMost(WAIT)
                  .until(
                      () ->
                          context
                              .getBean(TenureNodeLifecycle.class)
                              .node()
                              .orElseThrow()
                              .runningAgents()
                              .contains(AgentUri.parse("projection://orders")));
              assertThat(Projection.STARTED).contains("projection://orders");
            });
  }

  static class Traced {
    final List<String> headers = new CopyOnWriteArrayList<>();

    @TenureHandler(queue = "traced")
    void handle(Delivery delivery) {
      headers.add(delivery.message().headers().get("trace"));
    }
  }

  /** A middleware bean, as tenure-opentelemetry's {@code TenureTracing} would be one. */
  static final class Tracing implements QueueMiddleware {
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public OutgoingMessage onEnqueue(String queue, OutgoingMessage message) {
      return message.header("trace", "t-" + queue);
    }

    @Override
    public void aroundHandle(String queue, List<Delivery> deliveries, Call handler)
        throws Exception {
      calls.incrementAndGet();
      handler.proceed();
    }
  }

  @Test
  void a_queue_middleware_bean_runs_around_every_enqueue_and_handler_call() {
    Runners.inMemory()
        .withBean(Traced.class)
        .withBean(Tracing.class)
        .run(
            context -> {
              context.getBean(TenureQueues.class).enqueue("traced", OutgoingMessage.text("x"));
              Traced handler = context.getBean(Traced.class);
              await().atMost(WAIT).until(() -> handler.headers.size() == 1);
              assertThat(handler.headers).containsExactly("t-traced");
              assertThat(context.getBean(Tracing.class).calls).hasValue(1);
            });
  }

  @Test
  void with_the_node_disabled_handlers_are_not_run_and_enqueues_wait() {
    Runners.inMemory()
        .withBean(Handlers.class)
        .withPropertyValues("bytes.queue=raw", "tenure.node.enabled=false")
        .run(
            context -> {
              TenureQueues queues = context.getBean(TenureQueues.class);
              queues.enqueue("texts", OutgoingMessage.text("waits"));
              assertThat(queues.queue("texts").stats().pending()).isEqualTo(1);
              assertThat(context.getBean(Tenure.class).admin().nodes()).isEmpty();
            });
  }

  static long handled(AssertableApplicationContext context, String queue) {
    return context.getBean(TenureNodeLifecycle.class).node().orElseThrow().consumerStats().stream()
        .filter(s -> s.queue().equals(queue))
        .mapToLong(s -> s.handled())
        .sum();
  }

  /**
   * @return every message of the startup failure's chain, so a test finds the words it expects
   *     wherever Spring wrapped them
   */
  static String failure(AssertableApplicationContext context) {
    assertThat(context).hasFailed();
    StringBuilder messages = new StringBuilder();
    for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
      messages.append(t.getMessage()).append('\n');
    }
    return messages.toString();
  }
}
