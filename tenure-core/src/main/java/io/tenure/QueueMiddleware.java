package io.tenure;

import java.util.List;

/**
 * Code that runs around a queue's enqueues and handler calls: what tracing (the {@code
 * tenure-opentelemetry} module), metrics or a tenant context need from both ends of a message. A
 * queue carries its middleware ({@link Queue#withMiddleware}, or {@code
 * Tenure.builder(...).middleware(...)} for every queue of a {@code Tenure}); a consumer registered
 * with that queue runs its handler calls through it.
 *
 * <p>Each method has a default that changes nothing, so a middleware implements only the end it
 * needs. A middleware must be thread-safe: enqueues and handler calls run on many threads at once.
 */
public interface QueueMiddleware {
  /**
   * The message as it will be enqueued onto {@code queue}, in the enqueuing thread: add headers
   * here ({@link OutgoingMessage#header}). Runs before the queue checks the message, so what it
   * returns is checked like the caller's own.
   *
   * @return the message to enqueue; never null
   */
  default OutgoingMessage onEnqueue(String queue, OutgoingMessage message) {
    return message;
  }

  /**
   * Runs one handler call: a message, or a batch handler's messages, on the handler's thread. It
   * must call {@code handler.proceed()} exactly once and let what it throws through (the queue's
   * policy decides retry or dead letter from it); it may add a context around it.
   */
  default void aroundHandle(String queue, List<Delivery> deliveries, Call handler)
      throws Exception {
    handler.proceed();
  }

  /** The rest of a handler call: the next middleware, then the handler. */
  @FunctionalInterface
  interface Call {
    void proceed() throws Exception;
  }
}
