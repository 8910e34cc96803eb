package io.tenure.spi;

import io.tenure.DedupeWindow;
import io.tenure.Limits;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A message to enqueue. The runtime validates names, sizes and policy before it reaches a store; a
 * store checks only what its schema needs.
 *
 * @param delay how long after the database's now the message becomes available; zero for now
 * @param dedupeKey if set, a second message with the same key in the same queue is not inserted
 *     (the first one's id is returned), whatever the first one's status, until it is deleted
 * @param group the message's group for per-group limits (SPEC §12.1), or null
 * @param timeout how long its handler may run (SPEC §12.4), or null for its queue's; the store
 *     keeps it, the consumer applies it
 * @param dedupeWindow how long its dedupe key keeps others out (SPEC §12.6); {@link
 *     DedupeWindow#untilDeleted()} without a dedupe key
 */
public record NewMessage(
    String queue,
    @Nullable String key,
    byte[] payload,
    String contentType,
    Map<String, String> headers,
    int priority,
    int maxAttempts,
    Duration delay,
    @Nullable String dedupeKey,
    @Nullable String group,
    @Nullable Duration timeout,
    DedupeWindow dedupeWindow) {
  /**
   * Copies the headers; checks what every store relies on: text a database can store as given
   * (well-formed UTF-16: a lone surrogate would be rewritten, merging distinct keys) and a delay it
   * can add to its clock.
   *
   * @throws IllegalArgumentException naming the field if a text is not well-formed, {@code
   *     maxAttempts} is below 1, or the delay is negative or longer than {@link
   *     Limits#MAX_DURATION}
   */
  public NewMessage {
    Limits.checkWellFormed("queue name", queue);
    if (key != null) {
      Limits.checkWellFormed("ordering key", key);
    }
    Limits.checkWellFormed("content type", contentType);
    headers = Map.copyOf(headers);
    headers.forEach(
        (name, value) -> {
          Limits.checkWellFormed("header name", name);
          Limits.checkWellFormed("header '" + name + "' value", value);
        });
    if (dedupeKey != null) {
      Limits.checkWellFormed("dedupe key", dedupeKey);
    }
    if (group != null) {
      Limits.checkWellFormed("group", group);
      if (group.isEmpty()) {
        throw new IllegalArgumentException("group must not be empty; null for none");
      }
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("max attempts must be at least 1, got " + maxAttempts);
    }
    Limits.checkNotNegative("delay", delay, Limits.MAX_DURATION);
    if (timeout != null) {
      Limits.checkPositive("timeout", timeout, Limits.MAX_DURATION);
    }
    if (dedupeWindow == null) {
      throw new IllegalArgumentException("dedupe window must not be null");
    }
  }

  /**
   * @return this message in {@code value}'s group (null for none)
   */
  public NewMessage withGroup(@Nullable String value) {
    return new NewMessage(
        queue,
        key,
        payload,
        contentType,
        headers,
        priority,
        maxAttempts,
        delay,
        dedupeKey,
        value,
        timeout,
        dedupeWindow);
  }

  /**
   * @return this message with its own timeout (null for its queue's)
   */
  public NewMessage withTimeout(@Nullable Duration value) {
    return new NewMessage(
        queue,
        key,
        payload,
        contentType,
        headers,
        priority,
        maxAttempts,
        delay,
        dedupeKey,
        group,
        value,
        dedupeWindow);
  }

  /**
   * @return this message with its dedupe key held for {@code window}
   */
  public NewMessage withDedupeWindow(DedupeWindow window) {
    return new NewMessage(
        queue,
        key,
        payload,
        contentType,
        headers,
        priority,
        maxAttempts,
        delay,
        dedupeKey,
        group,
        timeout,
        window);
  }

  /** A message without a timeout of its own, its dedupe key held until it is deleted. */
  public NewMessage(
      String queue,
      @Nullable String key,
      byte[] payload,
      String contentType,
      Map<String, String> headers,
      int priority,
      int maxAttempts,
      Duration delay,
      @Nullable String dedupeKey,
      @Nullable String group) {
    this(
        queue,
        key,
        payload,
        contentType,
        headers,
        priority,
        maxAttempts,
        delay,
        dedupeKey,
        group,
        null,
        DedupeWindow.untilDeleted());
  }

  /** A message without a group. */
  public NewMessage(
      String queue,
      @Nullable String key,
      byte[] payload,
      String contentType,
      Map<String, String> headers,
      int priority,
      int maxAttempts,
      Duration delay,
      @Nullable String dedupeKey) {
    this(queue, key, payload, contentType, headers, priority, maxAttempts, delay, dedupeKey, null);
  }
}
