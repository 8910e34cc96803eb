package io.tenure.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.tenure.MessageStatus;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.TenureNode;
import io.tenure.inmemory.InMemoryStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC §13.4: the enqueuing thread's trace context reaches the handler, whose span is its child
 * (one message) or links to it (a batch), with the queue, message id and attempt, and what the
 * handler threw. Spans are read from the SDK's in-memory exporter.
 */
class TenureTracingTest {
  private static final Duration BOUND = Duration.ofSeconds(20);
  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final SdkTracerProvider tracerProvider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build();
  private final OpenTelemetrySdk otel =
      OpenTelemetrySdk.builder()
          .setTracerProvider(tracerProvider)
          .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
          .build();
  private final InMemoryStore store = InMemoryStore.create();

  @AfterEach
  void close() {
    otel.close();
  }

  @Test
  void the_handler_span_is_the_child_of_the_span_that_enqueued() throws Exception {
    Queue emails = traced("emails", QueuePolicy.defaults());
    SpanContext request;
    long id;
    Span parent = otel.getTracer("app").spanBuilder("POST /signup").startSpan();
    try (Scope scope = parent.makeCurrent()) {
      request = parent.getSpanContext();
      id = emails.enqueue(OutgoingMessage.text("welcome"));
    } finally {
      parent.end();
    }
    assertThat(emails.message(id).orElseThrow().headers()).containsKey("traceparent");

    CompletableFuture<SpanContext> inHandler = new CompletableFuture<>();
    try (TenureNode node =
        node("n1")
            .consumer(emails, 1, d -> inHandler.complete(Span.current().getSpanContext()))
            .build()) {
      node.start();
      SpanContext current = inHandler.get(BOUND.toSeconds(), TimeUnit.SECONDS);
      SpanData handled = await(() -> ended("emails process"));

      assertThat(current.getSpanId()).isEqualTo(handled.getSpanId());
      assertThat(handled.getTraceId()).isEqualTo(request.getTraceId());
      assertThat(handled.getParentSpanId()).isEqualTo(request.getSpanId());
      assertThat(handled.getKind()).isEqualTo(SpanKind.CONSUMER);
      assertThat(handled.getAttributes().get(TenureTracing.DESTINATION)).isEqualTo("emails");
      assertThat(handled.getAttributes().get(TenureTracing.MESSAGE_ID))
          .isEqualTo(Long.toString(id));
      assertThat(handled.getAttributes().get(TenureTracing.ATTEMPT)).isEqualTo(1L);
      assertThat(handled.getAttributes().get(TenureTracing.SYSTEM)).isEqualTo("tenure");
      assertThat(handled.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    }
  }

  @Test
  void a_failing_handler_records_its_error_and_each_attempt_gets_a_span() throws Exception {
    Queue jobs =
        traced(
            "jobs",
            QueuePolicy.defaults()
                .withMaxAttempts(2)
                .withBackoff(Duration.ofMillis(1), 1.0, Duration.ofMillis(1), 0));
    long id = jobs.enqueue(OutgoingMessage.text("x"));
    try (TenureNode node =
        node("n2")
            .consumer(
                jobs,
                1,
                d -> {
                  throw new IllegalStateException("card declined");
                })
            .build()) {
      node.start();
      await(() -> jobs.message(id).filter(m -> m.status() == MessageStatus.DEAD).orElse(null));
      await(() -> spans.getFinishedSpanItems().size() >= 2 ? Boolean.TRUE : null);
    }
    List<SpanData> attempts =
        spans.getFinishedSpanItems().stream()
            .filter(s -> s.getName().equals("jobs process"))
            .toList();
    assertThat(attempts).hasSize(2);
    assertThat(attempts)
        .extracting(s -> s.getAttributes().get(TenureTracing.ATTEMPT))
        .containsExactlyInAnyOrder(1L, 2L);
    for (SpanData attempt : attempts) {
      assertThat(attempt.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
      assertThat(attempt.getStatus().getDescription()).isEqualTo("card declined");
      assertThat(attempt.getEvents()).anyMatch(e -> e.getName().equals("exception"));
    }
  }

  @Test
  void a_batch_span_links_to_every_enqueuing_span_and_untraced_messages_start_their_own_trace()
      throws Exception {
    Queue bulk = traced("bulk", QueuePolicy.defaults());
    Span first = otel.getTracer("app").spanBuilder("first").startSpan();
    long traced;
    try (Scope scope = first.makeCurrent()) {
      traced = bulk.enqueue(OutgoingMessage.text("a"));
    } finally {
      first.end();
    }
    long untraced = bulk.enqueue(OutgoingMessage.text("b"));
    assertThat(bulk.message(untraced).orElseThrow().headers()).doesNotContainKey("traceparent");

    // The batch path directly: which messages one claim takes together is the consumer's choice.
    List<io.tenure.Delivery> batch = List.of(delivery(bulk, traced), delivery(bulk, untraced));
    TenureTracing.of(otel).aroundHandle("bulk", batch, () -> {});
    SpanData span = ended("bulk process");
    assertThat(span.getAttributes().get(TenureTracing.BATCH_COUNT)).isEqualTo(2L);
    assertThat(span.getParentSpanContext().isValid()).isFalse();
    assertThat(span.getTraceId()).isNotEqualTo(first.getSpanContext().getTraceId());
    assertThat(span.getLinks())
        .extracting(l -> l.getSpanContext().getSpanId())
        .containsExactly(first.getSpanContext().getSpanId());

    spans.reset();
    TenureTracing.of(otel).aroundHandle("bulk", List.of(delivery(bulk, untraced)), () -> {});
    SpanData alone = ended("bulk process");
    assertThat(alone.getParentSpanContext().isValid())
        .as("no context: a trace of its own")
        .isFalse();
  }

  private static io.tenure.Delivery delivery(Queue queue, long id) {
    io.tenure.QueueMessage message = queue.message(id).orElseThrow();
    return new io.tenure.Delivery() {
      @Override
      public io.tenure.QueueMessage message() {
        return message;
      }

      @Override
      public boolean extendLease(Duration lease) {
        return false;
      }
    };
  }

  @Test
  void an_application_header_of_the_same_name_is_kept() {
    Queue emails = traced("headers", QueuePolicy.defaults());
    Span parent = otel.getTracer("app").spanBuilder("request").startSpan();
    long id;
    try (Scope scope = parent.makeCurrent()) {
      id = emails.enqueue(OutgoingMessage.text("x").header("traceparent", "mine"));
    } finally {
      parent.end();
    }
    assertThat(emails.message(id).orElseThrow().headers()).containsEntry("traceparent", "mine");
    assertThatThrownBy(() -> TenureTracing.of(null)).isInstanceOf(IllegalArgumentException.class);
  }

  private Queue traced(String name, QueuePolicy policy) {
    return Queue.on(store.queues(), name, policy).withMiddleware(TenureTracing.of(otel));
  }

  private io.tenure.TenureNodeBuilder node(String name) {
    return TenureNode.builder(store).name(name);
  }

  private SpanData ended(String name) {
    return spans.getFinishedSpanItems().stream()
        .filter(s -> s.getName().equals(name))
        .findFirst()
        .orElse(null);
  }

  private static <T> T await(Supplier<T> found) throws InterruptedException {
    long end = System.nanoTime() + BOUND.toNanos();
    T value;
    while ((value = found.get()) == null) {
      if (System.nanoTime() > end) {
        throw new AssertionError("not seen within " + BOUND);
      }
      Thread.sleep(10);
    }
    return value;
  }
}
