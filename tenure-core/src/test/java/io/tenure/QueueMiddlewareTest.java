package io.tenure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.inmemory.InMemoryStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A queue's middleware runs at both ends of its messages, in order, and changes no outcome. */
class QueueMiddlewareTest {
  private final InMemoryStore store = InMemoryStore.create();
  private final List<String> calls = new CopyOnWriteArrayList<>();

  private QueueMiddleware named(String name) {
    return new QueueMiddleware() {
      @Override
      public OutgoingMessage onEnqueue(String queue, OutgoingMessage message) {
        calls.add(name + " enqueue " + queue);
        return message.header("seen-by", message.headers().getOrDefault("seen-by", "") + name);
      }

      @Override
      public void aroundHandle(String queue, List<Delivery> deliveries, Call handler)
          throws Exception {
        calls.add(name + " before " + queue + " " + deliveries.size());
        try {
          handler.proceed();
        } finally {
          calls.add(name + " after");
        }
      }
    };
  }

  @Test
  void enqueues_and_handler_calls_run_through_the_middleware_outermost_first() throws Exception {
    Queue jobs =
        Queue.on(store.queues(), "jobs", QueuePolicy.defaults())
            .withMiddleware(named("a"))
            .withMiddleware(named("b"));
    long id = jobs.enqueue(OutgoingMessage.text("x"));
    assertThat(jobs.message(id).orElseThrow().headers()).containsEntry("seen-by", "ab");

    CompletableFuture<String> handled = new CompletableFuture<>();
    try (TenureNode node =
        TenureNode.builder(store)
            .name("mw")
            .consumer(
                jobs,
                1,
                d -> {
                  calls.add("handler");
                  handled.complete(d.message().headers().get("seen-by"));
                })
            .build()) {
      node.start();
      assertThat(handled.get(20, TimeUnit.SECONDS)).isEqualTo("ab");
      Await.until(() -> calls.contains("a after"));
    }
    assertThat(calls)
        .containsExactly(
            "a enqueue jobs",
            "b enqueue jobs",
            "a before jobs 1",
            "b before jobs 1",
            "handler",
            "b after",
            "a after");
  }

  @Test
  void what_the_handler_throws_reaches_the_policy_through_the_middleware() throws Exception {
    Queue jobs =
        Queue.on(store.queues(), "failing", QueuePolicy.defaults().withMaxAttempts(1))
            .withMiddleware(named("a"));
    long id = jobs.enqueue(OutgoingMessage.text("x"));
    try (TenureNode node =
        TenureNode.builder(store)
            .name("mw-fail")
            .consumer(
                jobs,
                1,
                d -> {
                  throw new IllegalStateException("boom");
                })
            .build()) {
      node.start();
      Await.until(() -> jobs.message(id).map(m -> m.status() == MessageStatus.DEAD).orElse(false));
    }
    assertThat(jobs.message(id).orElseThrow().lastError()).contains("boom");
    assertThat(calls).contains("a before failing 1", "a after");
  }

  @Test
  void a_middleware_that_returns_no_message_enqueues_nothing() {
    Queue jobs =
        Queue.on(store.queues(), "nulls", QueuePolicy.defaults())
            .withMiddleware(
                new QueueMiddleware() {
                  @Override
                  public OutgoingMessage onEnqueue(String queue, OutgoingMessage message) {
                    return null;
                  }
                });
    assertThatThrownBy(() -> jobs.enqueue(OutgoingMessage.text("x")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("returned no message for queue nulls");
    assertThat(jobs.stats().pending()).isZero();
    assertThatThrownBy(() -> jobs.withMiddleware(null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Polls a condition every 10 ms for up to 20 s. */
  static final class Await {
    static void until(java.util.function.BooleanSupplier condition) throws InterruptedException {
      long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (!condition.getAsBoolean()) {
        if (System.nanoTime() > end) {
          throw new AssertionError("condition not met within 20 s");
        }
        Thread.sleep(10);
      }
    }
  }
}
