package io.tenure;

import io.tenure.spi.EnqueueResult;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.NewMessage;
import io.tenure.spi.QueueStore;
import java.sql.Connection;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One named durable queue (SPEC §6): enqueue, alone or inside the caller's JDBC transaction, and
 * the operator's view of it (stats, dead letters, replay, purge, and cancel, delete, run now or
 * retry one message). Handlers are registered on the node. Thread-safe.
 *
 * <pre>{@code
 * Queue emails = tenure.queue("emails", QueuePolicy.defaults().withMaxAttempts(5));
 * long id = emails.enqueue(OutgoingMessage.text("welcome user 7").key("user-7"));
 * }</pre>
 */
public final class Queue {
  /**
   * Queue names: lower case letters, digits, '.', '_' and '-', starting with a letter or digit, 1
   * to 128.
   */
  public static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,127}");

  private final QueueStore store;
  private final String name;
  private final QueuePolicy policy;
  private final List<QueueMiddleware> middleware;

  private Queue(
      QueueStore store, String name, QueuePolicy policy, List<QueueMiddleware> middleware) {
    this.store = store;
    this.name = name;
    this.policy = policy;
    this.middleware = middleware;
  }

  /**
   * @throws IllegalArgumentException if the name does not match {@link #NAME} or an argument is
   *     null
   */
  public static Queue on(QueueStore store, String name, QueuePolicy policy) {
    if (store == null || policy == null) {
      throw new IllegalArgumentException("queue store and policy must not be null");
    }
    return new Queue(store, checkName(name), policy, List.of());
  }

  /**
   * This queue with {@code more} run around its enqueues and, for a consumer registered with the
   * returned queue, its handler calls; the outermost first (the queue's own, then {@code more}).
   *
   * @throws IllegalArgumentException if {@code more} is null
   */
  public Queue withMiddleware(QueueMiddleware more) {
    if (more == null) {
      throw new IllegalArgumentException("middleware must not be null");
    }
    List<QueueMiddleware> all = new java.util.ArrayList<>(middleware);
    all.add(more);
    return new Queue(store, name, policy, List.copyOf(all));
  }

  /**
   * @return the middleware run around this queue's enqueues and handler calls, outermost first
   */
  public List<QueueMiddleware> middleware() {
    return middleware;
  }

  /**
   * @return the name, checked
   * @throws IllegalArgumentException naming the rule if it does not match {@link #NAME}
   */
  public static String checkName(String name) {
    if (name != null) {
      Limits.checkWellFormed("queue name", name);
    }
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "queue name must be 1 to 128 of a-z, 0-9, '.', '_', '-' starting with a"
              + " letter or digit, got "
              + (name == null ? "null" : "'" + name + "'"));
    }
    return name;
  }

  public String name() {
    return name;
  }

  public QueuePolicy policy() {
    return policy;
  }

  /**
   * Enqueues one message in its own transaction.
   *
   * @return its id; for a repeated dedupe key, the first message's id
   * @throws IllegalArgumentException if the payload exceeds the policy's limit, or the database's
   *     own limit on one statement (MariaDB's {@code max_allowed_packet}, named in the message);
   *     nothing written
   */
  public long enqueue(OutgoingMessage message) {
    return enqueueAll(List.of(message)).get(0);
  }

  /**
   * Enqueues messages in one transaction of their own: all or none.
   *
   * @return their ids, in order
   * @throws IllegalArgumentException if empty, more than {@link QueueStore#MAX_BATCH}, or a payload
   *     exceeds the policy's limit or the database's (nothing written)
   */
  public List<Long> enqueueAll(List<OutgoingMessage> messages) {
    return ids(store.enqueue(toNew(messages)));
  }

  /**
   * Enqueues inside the caller's open JDBC transaction (transactional outbox): the messages exist
   * only if the caller commits. Tenure neither commits, rolls back nor closes the connection.
   *
   * @throws UnsupportedOperationException on a store without JDBC transactions
   */
  public List<Long> enqueueAll(Connection transaction, List<OutgoingMessage> messages) {
    if (transaction == null) {
      throw new IllegalArgumentException("transaction connection must not be null");
    }
    return ids(store.enqueue(transaction, toNew(messages)));
  }

  /** {@link #enqueueAll(Connection, List)} for one message. */
  public long enqueue(Connection transaction, OutgoingMessage message) {
    return enqueueAll(transaction, List.of(message)).get(0);
  }

  private List<NewMessage> toNew(List<OutgoingMessage> messages) {
    if (messages == null || messages.isEmpty() || messages.size() > QueueStore.MAX_BATCH) {
      throw new IllegalArgumentException(
          "enqueue takes 1 to "
              + QueueStore.MAX_BATCH
              + " messages, got "
              + (messages == null ? "null" : messages.size()));
    }
    return messages.stream().map(this::toNew).toList();
  }

  private NewMessage toNew(OutgoingMessage message) {
    if (message == null) {
      throw new IllegalArgumentException("message must not be null");
    }
    for (QueueMiddleware m : middleware) {
      message = m.onEnqueue(name, message);
      if (message == null) {
        throw new IllegalStateException(
            "middleware " + m.getClass().getName() + " returned no message for queue " + name);
      }
    }
    byte[] payload = message.payload();
    if (payload.length > policy.payloadLimit()) {
      throw new IllegalArgumentException(
          "payload of "
              + payload.length
              + " bytes exceeds queue '"
              + name
              + "''s limit of "
              + policy.payloadLimit()
              + " bytes; nothing enqueued");
    }
    return new NewMessage(
        name,
        message.key(),
        payload,
        message.contentType(),
        message.headers(),
        message.priority(),
        policy.maxAttempts(),
        message.delay(),
        message.dedupeKey(),
        message.group(),
        message.timeout(),
        message.dedupeWindow());
  }

  private static List<Long> ids(List<EnqueueResult> results) {
    return results.stream().map(EnqueueResult::id).toList();
  }

  /**
   * @return this queue's numbers now
   */
  public QueueStats stats() {
    return store.stats().stream()
        .filter(s -> s.queue().equals(name))
        .findFirst()
        .orElse(new QueueStats(name, 0, 0, 0, 0, null));
  }

  /**
   * Pauses the queue on every node (SPEC §12.2): no claim takes its messages until {@link
   * #resume()}; messages in flight finish. Durable: it outlives every node.
   *
   * @return true if this call paused it (false: it was paused)
   */
  public boolean pause() {
    return store.controls().pause(name, true);
  }

  /**
   * Resumes a paused queue; on PostgreSQL its consumers hear of it and claim at once.
   *
   * @return true if this call resumed it (false: it was not paused)
   */
  public boolean resume() {
    return store.controls().pause(name, false);
  }

  /**
   * Sets the queue's cluster-wide limits (SPEC §12.1), replacing the ones before; {@link
   * QueueLimits#none()} lifts them. Durable, and applied by the next claim on every node.
   *
   * @throws IllegalArgumentException if limits is null
   */
  public void limit(QueueLimits limits) {
    if (limits == null) {
      throw new IllegalArgumentException("limits must not be null; QueueLimits.none() lifts them");
    }
    store.controls().limit(name, limits);
  }

  /**
   * @return the queue's pause and limits with their current use
   */
  public QueueControl control() {
    return store.controls().read(name);
  }

  /**
   * Cancels a message of this queue (SPEC §12.3): a pending one is never claimed; a running one's
   * claim is taken from its owner, whose handler is told ({@link Delivery#cancelled()}) and whose
   * outcome then changes nothing. Cancelled messages are kept as long as dead letters.
   *
   * @return what the cancel did; {@link CancelOutcome#NOT_FOUND} also for another queue's message
   */
  public CancelOutcome cancel(long id) {
    if (message(id).isEmpty()) {
      return CancelOutcome.NOT_FOUND;
    }
    return store.cancel(id);
  }

  /**
   * Deletes a message of this queue that is not in flight (SPEC §12.7): pending, done, dead or
   * cancelled. Its dedupe key is free again. One in flight is left to its owner: cancel it first.
   *
   * @return what the delete did; {@link DeleteOutcome#NOT_FOUND} also for another queue's message
   */
  public DeleteOutcome delete(long id) {
    if (message(id).isEmpty()) {
      return DeleteOutcome.NOT_FOUND;
    }
    return store.admin().delete(id);
  }

  /**
   * Makes a pending message of this queue that waits (delayed, or for a retry's backoff) available
   * now (SPEC §12.7), with nothing else changed; a claim takes it as soon as its key's order and
   * the queue's pause and limits allow.
   *
   * @return what it did; {@link RunNowOutcome#NOT_FOUND} also for another queue's message
   */
  public RunNowOutcome runNow(long id) {
    if (message(id).isEmpty()) {
      return RunNowOutcome.NOT_FOUND;
    }
    return store.admin().runNow(id);
  }

  /**
   * Retries a dead or cancelled message of this queue (SPEC §12.7): pending again, available now,
   * attempts reset, last error kept, in its old place in its key's order.
   *
   * @return what it did; {@link RetryOutcome#NOT_FOUND} also for another queue's message
   */
  public RetryOutcome retry(long id) {
    if (message(id).isEmpty()) {
      return RetryOutcome.NOT_FOUND;
    }
    return store.admin().retry(id);
  }

  /**
   * @return a message of this queue, whatever its status
   */
  public Optional<QueueMessage> message(long id) {
    return store.find(id).filter(m -> m.queue().equals(name));
  }

  /**
   * @param limit 1 to 10,000
   * @return the oldest dead letters first
   */
  public List<QueueMessage> deadLetters(int limit) {
    return store.list(MessageQuery.dead(name, limit));
  }

  /**
   * Returns a dead letter to the queue with its attempts reset.
   *
   * @throws IllegalArgumentException if there is no such message in this queue or it is not dead
   *     (nothing changed)
   */
  public void replay(long id) {
    QueueMessage message =
        message(id)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "queue '" + name + "' has no message " + id + "; nothing replayed"));
    if (message.status() != MessageStatus.DEAD || !store.replay(id)) {
      throw new IllegalArgumentException(
          "message "
              + id
              + " of queue '"
              + name
              + "' is "
              + message.status()
              + ", not a dead letter; nothing replayed");
    }
  }

  /**
   * @return how many dead letters of this queue went back to the queue, at most 10,000 per call,
   *     oldest first
   */
  public int replayAllDeadLetters() {
    return store.replay(MessageQuery.dead(name, 10_000));
  }

  /**
   * @return how many dead letters of this queue were deleted, at most 10,000 per call, oldest first
   */
  public int purgeDeadLetters() {
    return store.purge(MessageQuery.dead(name, 10_000));
  }
}
