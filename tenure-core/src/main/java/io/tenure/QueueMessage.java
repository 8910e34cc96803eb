package io.tenure;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A stored queue message (SPEC §6), as read. Times come from the database clock.
 *
 * @param id unique across queues, assigned at enqueue; ids of one queue grow with enqueue order
 * @param key ordering key: messages with one key are handled one at a time, oldest first
 * @param priority higher is claimed first
 * @param attempts claims so far (a release or reschedule gives its attempt back)
 * @param claimToken the token of the current claim, null unless {@code INFLIGHT}
 * @param leaseUntil when the current claim lapses, null unless {@code INFLIGHT}
 * @param finishedAt when it became {@code DONE} or {@code DEAD}; null otherwise
 * @param group the group its queue's per-group limits count it in, or null
 * @param timeout its own handler timeout (SPEC §12.4), or null for its queue's
 * @param dedupeWindow how long its dedupe key keeps others out (SPEC §12.6)
 * @param progress what its handler last reported (SPEC §12.5), kept across retries; or null
 * @param checkpoint what its handler last saved to resume from (SPEC §12.5), kept across retries;
 *     or null
 */
public record QueueMessage(
    long id,
    String queue,
    @Nullable String key,
    byte[] payload,
    String contentType,
    Map<String, String> headers,
    int priority,
    int attempts,
    int maxAttempts,
    Instant availableAt,
    MessageStatus status,
    @Nullable String ownerNode,
    @Nullable String claimToken,
    @Nullable Instant leaseUntil,
    @Nullable String lastError,
    Instant createdAt,
    @Nullable Instant finishedAt,
    @Nullable String dedupeKey,
    @Nullable String group,
    @Nullable Duration timeout,
    DedupeWindow dedupeWindow,
    @Nullable MessageProgress progress,
    byte @Nullable [] checkpoint) {
  /** Copies the headers. */
  public QueueMessage {
    headers = Map.copyOf(headers);
  }

  /** A message without a timeout, progress or checkpoint, its dedupe key held until deleted. */
  public QueueMessage(
      long id,
      String queue,
      @Nullable String key,
      byte[] payload,
      String contentType,
      Map<String, String> headers,
      int priority,
      int attempts,
      int maxAttempts,
      Instant availableAt,
      MessageStatus status,
      @Nullable String ownerNode,
      @Nullable String claimToken,
      @Nullable Instant leaseUntil,
      @Nullable String lastError,
      Instant createdAt,
      @Nullable Instant finishedAt,
      @Nullable String dedupeKey,
      @Nullable String group) {
    this(
        id,
        queue,
        key,
        payload,
        contentType,
        headers,
        priority,
        attempts,
        maxAttempts,
        availableAt,
        status,
        ownerNode,
        claimToken,
        leaseUntil,
        lastError,
        createdAt,
        finishedAt,
        dedupeKey,
        group,
        null,
        DedupeWindow.untilDeleted(),
        null,
        null);
  }

  /**
   * @return the claim to resolve this message with
   * @throws IllegalStateException if the message is not claimed
   */
  public io.tenure.spi.MessageClaim claim() {
    if (claimToken == null) {
      throw new IllegalStateException("message " + id + " is " + status + ", not claimed");
    }
    return new io.tenure.spi.MessageClaim(id, claimToken);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof QueueMessage m
        && m.id == id
        && m.queue.equals(queue)
        && java.util.Objects.equals(m.key, key)
        && java.util.Arrays.equals(m.payload, payload)
        && m.contentType.equals(contentType)
        && m.headers.equals(headers)
        && m.priority == priority
        && m.attempts == attempts
        && m.maxAttempts == maxAttempts
        && m.availableAt.equals(availableAt)
        && m.status == status
        && java.util.Objects.equals(m.ownerNode, ownerNode)
        && java.util.Objects.equals(m.claimToken, claimToken)
        && java.util.Objects.equals(m.leaseUntil, leaseUntil)
        && java.util.Objects.equals(m.lastError, lastError)
        && m.createdAt.equals(createdAt)
        && java.util.Objects.equals(m.finishedAt, finishedAt)
        && java.util.Objects.equals(m.dedupeKey, dedupeKey)
        && java.util.Objects.equals(m.group, group)
        && java.util.Objects.equals(m.timeout, timeout)
        && m.dedupeWindow.equals(dedupeWindow)
        && java.util.Objects.equals(m.progress, progress)
        && java.util.Arrays.equals(m.checkpoint, checkpoint);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(id);
  }

  @Override
  public String toString() {
    return "QueueMessage[id="
        + id
        + ", queue="
        + queue
        + ", key="
        + key
        + ", status="
        + status
        + ", attempts="
        + attempts
        + "/"
        + maxAttempts
        + ", priority="
        + priority
        + ", availableAt="
        + availableAt
        + ", owner="
        + ownerNode
        + ", payload="
        + payload.length
        + " bytes]";
  }
}
