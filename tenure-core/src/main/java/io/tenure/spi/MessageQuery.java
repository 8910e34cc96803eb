package io.tenure.spi;

import io.tenure.Limits;
import io.tenure.MessageStatus;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Which messages an admin call concerns: every set field must match.
 *
 * @param queue required
 * @param status null for any
 * @param key null for any
 * @param group null for any; else the message group ({@link io.tenure.QueueMessage#group()})
 * @param errorContains null for any; else a substring of {@code last_error}
 * @param olderThan null for any; else {@code created_at} at least this long ago by the database
 *     clock
 * @param afterId list only: ids greater than this (paging); 0 to start
 * @param limit 1 to 10,000
 */
public record MessageQuery(
    String queue,
    @Nullable MessageStatus status,
    @Nullable String key,
    @Nullable String group,
    @Nullable String errorContains,
    @Nullable Duration olderThan,
    long afterId,
    int limit) {
  /**
   * @throws IllegalArgumentException if the queue is blank, the group is empty, a text is not
   *     well-formed UTF-16 ({@link Limits#checkWellFormed}), {@code olderThan} is negative or
   *     longer than {@link Limits#MAX_RETENTION}, or the limit is out of range
   */
  public MessageQuery {
    if (queue == null || queue.isBlank()) {
      throw new IllegalArgumentException("query must name a queue");
    }
    Limits.checkWellFormed("queue name", queue);
    if (key != null) {
      Limits.checkWellFormed("ordering key", key);
    }
    if (group != null) {
      Limits.checkWellFormed("group", group);
      if (group.isEmpty()) {
        throw new IllegalArgumentException("group filter must not be empty; null for any");
      }
    }
    if (errorContains != null) {
      Limits.checkWellFormed("error text", errorContains);
    }
    if (olderThan != null) {
      Limits.checkNotNegative("older than", olderThan, Limits.MAX_RETENTION);
    }
    if (limit < 1 || limit > 10_000) {
      throw new IllegalArgumentException("limit must be 1 to 10000, got " + limit);
    }
  }

  /**
   * A query without a group filter, as before there was one.
   *
   * @throws IllegalArgumentException as the canonical constructor
   */
  public MessageQuery(
      String queue,
      @Nullable MessageStatus status,
      @Nullable String key,
      @Nullable String errorContains,
      @Nullable Duration olderThan,
      long afterId,
      int limit) {
    this(queue, status, key, null, errorContains, olderThan, afterId, limit);
  }

  /**
   * @return this query, but only for messages of {@code group} (null for any)
   * @throws IllegalArgumentException if the group is empty or not well-formed UTF-16
   */
  public MessageQuery withGroup(@Nullable String group) {
    return new MessageQuery(queue, status, key, group, errorContains, olderThan, afterId, limit);
  }

  /** The dead letters of a queue, oldest first, up to {@code limit}. */
  public static MessageQuery dead(String queue, int limit) {
    return new MessageQuery(queue, MessageStatus.DEAD, null, null, null, 0, limit);
  }
}
