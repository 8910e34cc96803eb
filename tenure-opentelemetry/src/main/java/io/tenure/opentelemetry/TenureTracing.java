package io.tenure.opentelemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.tenure.Delivery;
import io.tenure.OutgoingMessage;
import io.tenure.QueueMiddleware;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Traces a queue's messages from enqueue to handler (SPEC §13.4) as a {@link QueueMiddleware}: an
 * enqueue writes the enqueuing thread's trace context into the message's headers ({@code
 * traceparent}, {@code tracestate}, with the W3C propagator unless the {@link OpenTelemetry} given
 * has propagators of its own), and each handler call runs in a {@link SpanKind#CONSUMER} span named
 * {@code "QUEUE process"}: the child of the enqueuing span for one message, linked to each
 * message's for a batch. The span carries the queue, the message id and the attempt, and records
 * what the handler threw.
 *
 * <pre>{@code
 * Tenure tenure = Tenure.builder(url).middleware(TenureTracing.of(openTelemetry)).open();
 * }</pre>
 */
public final class TenureTracing implements QueueMiddleware {
  /** The instrumentation scope's name. */
  public static final String SCOPE = "io.tenure";

  static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("messaging.system");
  static final AttributeKey<String> DESTINATION =
      AttributeKey.stringKey("messaging.destination.name");
  static final AttributeKey<String> OPERATION = AttributeKey.stringKey("messaging.operation.type");
  static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
  static final AttributeKey<Long> BATCH_COUNT =
      AttributeKey.longKey("messaging.batch.message_count");
  static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("tenure.attempt");

  private static final TextMapGetter<Map<String, String>> HEADERS =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
          return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
          return carrier == null ? null : carrier.get(key);
        }
      };

  private final Tracer tracer;
  private final TextMapPropagator propagator;

  private TenureTracing(Tracer tracer, TextMapPropagator propagator) {
    this.tracer = tracer;
    this.propagator = propagator;
  }

  /**
   * @param openTelemetry its tracer provider makes the spans; its propagators carry the context, or
   *     the W3C trace-context propagator if it has none
   * @throws IllegalArgumentException if null
   */
  public static TenureTracing of(OpenTelemetry openTelemetry) {
    if (openTelemetry == null) {
      throw new IllegalArgumentException("openTelemetry must not be null");
    }
    TextMapPropagator configured = openTelemetry.getPropagators().getTextMapPropagator();
    return new TenureTracing(
        openTelemetry.getTracer(SCOPE),
        configured.fields().isEmpty() ? W3CTraceContextPropagator.getInstance() : configured);
  }

  @Override
  public OutgoingMessage onEnqueue(String queue, OutgoingMessage message) {
    Map<String, String> carrier = new LinkedHashMap<>();
    propagator.inject(Context.current(), carrier, (map, key, value) -> map.put(key, value));
    OutgoingMessage traced = message;
    for (Map.Entry<String, String> header : carrier.entrySet()) {
      // A header the application set itself is its own: never overwritten.
      if (!message.headers().containsKey(header.getKey())) {
        traced = traced.header(header.getKey(), header.getValue());
      }
    }
    return traced;
  }

  @Override
  public void aroundHandle(String queue, List<Delivery> deliveries, Call handler) throws Exception {
    SpanBuilder builder =
        tracer
            .spanBuilder(queue + " process")
            .setSpanKind(SpanKind.CONSUMER)
            .setAttribute(SYSTEM, "tenure")
            .setAttribute(DESTINATION, queue)
            .setAttribute(OPERATION, "process");
    if (deliveries.size() == 1) {
      Delivery delivery = deliveries.getFirst();
      builder
          .setParent(enqueuedIn(delivery))
          .setAttribute(MESSAGE_ID, Long.toString(delivery.message().id()))
          .setAttribute(ATTEMPT, (long) delivery.attempt());
    } else {
      builder.setNoParent().setAttribute(BATCH_COUNT, (long) deliveries.size());
      for (Delivery delivery : deliveries) {
        SpanContext enqueued = Span.fromContext(enqueuedIn(delivery)).getSpanContext();
        if (enqueued.isValid()) {
          builder.addLink(enqueued);
        }
      }
    }
    Span span = builder.startSpan();
    try (Scope scope = span.makeCurrent()) {
      handler.proceed();
    } catch (Exception | Error e) {
      span.recordException(e);
      span.setStatus(StatusCode.ERROR, String.valueOf(e.getMessage()));
      throw e;
    } finally {
      span.end();
    }
  }

  private Context enqueuedIn(Delivery delivery) {
    return propagator.extract(Context.root(), delivery.message().headers(), HEADERS);
  }
}
