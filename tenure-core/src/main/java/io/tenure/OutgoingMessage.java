package io.tenure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A message to enqueue: {@code OutgoingMessage.of(bytes).key("order-7").delay(...)}. Immutable;
 * each setter returns a copy. The queue checks it against its policy when it is enqueued.
 */
public record OutgoingMessage(
    byte[] payload,
    String contentType,
    Map<String, String> headers,
    @Nullable String key,
    int priority,
    Duration delay,
    @Nullable String dedupeKey,
    @Nullable String group,
    @Nullable Duration timeout,
    DedupeWindow dedupeWindow) {
  /** Longest key and dedupe key. */
  public static final int MAX_KEY_LENGTH = 255;

  /** Longest content type. */
  public static final int MAX_CONTENT_TYPE_LENGTH = 255;

  /**
   * Checks every field. Keys, the content type and header names are 1 to 255 characters without
   * control characters or surrounding whitespace; they and header values must be well-formed UTF-16
   * ({@link Limits#checkWellFormed}).
   *
   * @throws IllegalArgumentException naming the field if one is malformed, or the delay is negative
   *     or longer than {@link Limits#MAX_DURATION}
   */
  public OutgoingMessage {
    if (payload == null) {
      throw new IllegalArgumentException("payload must not be null");
    }
    payload = payload.clone();
    Checks.id("content type", contentType, MAX_CONTENT_TYPE_LENGTH);
    if (headers == null) {
      throw new IllegalArgumentException("headers must not be null");
    }
    headers.forEach(
        (name, value) -> {
          Checks.id("header name", name, MAX_KEY_LENGTH);
          if (value == null) {
            throw new IllegalArgumentException("header '" + name + "' must not have a null value");
          }
          Limits.checkWellFormed("header '" + name + "' value", value);
        });
    headers = Map.copyOf(headers);
    if (key != null) {
      Checks.id("ordering key", key, MAX_KEY_LENGTH);
    }
    Limits.checkNotNegative("delay", delay, Limits.MAX_DURATION);
    if (dedupeKey != null) {
      Checks.id("dedupe key", dedupeKey, MAX_KEY_LENGTH);
    }
    if (group != null) {
      Checks.id("group", group, MAX_KEY_LENGTH);
    }
    if (timeout != null) {
      Limits.checkPositive("timeout", timeout, Limits.MAX_DURATION);
    }
    if (dedupeWindow == null) {
      throw new IllegalArgumentException("dedupe window must not be null");
    }
  }

  /** A message without a group, a timeout of its own or a dedupe window. */
  public OutgoingMessage(
      byte[] payload,
      String contentType,
      Map<String, String> headers,
      @Nullable String key,
      int priority,
      Duration delay,
      @Nullable String dedupeKey) {
    this(
        payload,
        contentType,
        headers,
        key,
        priority,
        delay,
        dedupeKey,
        null,
        null,
        DedupeWindow.untilDeleted());
  }

  /**
   * @return a message with this payload, {@code application/octet-stream}, nothing else set
   */
  public static OutgoingMessage of(byte[] payload) {
    return new OutgoingMessage(
        payload, "application/octet-stream", Map.of(), null, 0, Duration.ZERO, null);
  }

  /**
   * @return a message with this text as UTF-8, {@code text/plain; charset=utf-8}
   * @throws IllegalArgumentException if the text is null or not well-formed UTF-16 (a lone
   *     surrogate would be encoded as {@code ?})
   */
  public static OutgoingMessage text(String text) {
    Limits.checkWellFormed("text", text);
    return of(text.getBytes(java.nio.charset.StandardCharsets.UTF_8))
        .contentType("text/plain; charset=utf-8");
  }

  @Override
  public byte[] payload() {
    return payload.clone();
  }

  public OutgoingMessage contentType(String type) {
    return new OutgoingMessage(
        payload, type, headers, key, priority, delay, dedupeKey, group, timeout, dedupeWindow);
  }

  public OutgoingMessage header(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(name, value);
    return new OutgoingMessage(
        payload, contentType, more, key, priority, delay, dedupeKey, group, timeout, dedupeWindow);
  }

  /** Messages with one key are handled one at a time, oldest first (FIFO per key). */
  public OutgoingMessage key(@Nullable String orderingKey) {
    return new OutgoingMessage(
        payload,
        contentType,
        headers,
        orderingKey,
        priority,
        delay,
        dedupeKey,
        group,
        timeout,
        dedupeWindow);
  }

  /** Higher is claimed first; default 0. */
  public OutgoingMessage priority(int value) {
    return new OutgoingMessage(
        payload, contentType, headers, key, value, delay, dedupeKey, group, timeout, dedupeWindow);
  }

  /**
   * Not claimable until this long after it is enqueued (by the database clock); at most {@link
   * Limits#MAX_DURATION}.
   */
  public OutgoingMessage delay(Duration value) {
    return new OutgoingMessage(
        payload,
        contentType,
        headers,
        key,
        priority,
        value,
        dedupeKey,
        group,
        timeout,
        dedupeWindow);
  }

  /**
   * A second message with the same dedupe key in the queue is not enqueued while this one is
   * stored; the first id is returned. The window stays as set ({@link DedupeWindow#untilDeleted()}
   * unless {@link #dedupeKey(String, DedupeWindow)} set another).
   */
  public OutgoingMessage dedupeKey(@Nullable String value) {
    return new OutgoingMessage(
        payload, contentType, headers, key, priority, delay, value, group, timeout, dedupeWindow);
  }

  /**
   * A second message with the same dedupe key in the queue is not enqueued (the first id is
   * returned) while {@code window} says the first holds it (SPEC §12.6): e.g. {@link
   * DedupeWindow#whileActive()}, or {@link DedupeWindow#afterFinish(Duration)} for "at most one per
   * hour".
   */
  public OutgoingMessage dedupeKey(String value, DedupeWindow window) {
    if (value == null) {
      throw new IllegalArgumentException("dedupe key must not be null with a window");
    }
    return new OutgoingMessage(
        payload, contentType, headers, key, priority, delay, value, group, timeout, window);
  }

  /**
   * How long a handler may run on this message before the consumer stops waiting (SPEC §12.4);
   * replaces the queue's timeout. The queue's policy says what then becomes of it.
   *
   * @param value positive, at most {@link Limits#MAX_DURATION}; null for the queue's
   */
  public OutgoingMessage timeout(@Nullable Duration value) {
    return new OutgoingMessage(
        payload, contentType, headers, key, priority, delay, dedupeKey, group, value, dedupeWindow);
  }

  /**
   * The message's group (a tenant, an account): a queue's per-group limits count the messages in
   * flight, and the claims, of each group value apart (SPEC §12.1). Messages without a group are
   * held only by the queue's own limits.
   */
  public OutgoingMessage group(@Nullable String value) {
    return new OutgoingMessage(
        payload,
        contentType,
        headers,
        key,
        priority,
        delay,
        dedupeKey,
        value,
        timeout,
        dedupeWindow);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof OutgoingMessage m
        && java.util.Arrays.equals(m.payload, payload)
        && m.contentType.equals(contentType)
        && m.headers.equals(headers)
        && java.util.Objects.equals(m.key, key)
        && m.priority == priority
        && m.delay.equals(delay)
        && java.util.Objects.equals(m.dedupeKey, dedupeKey)
        && java.util.Objects.equals(m.group, group)
        && java.util.Objects.equals(m.timeout, timeout)
        && m.dedupeWindow.equals(dedupeWindow);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(
        java.util.Arrays.hashCode(payload),
        contentType,
        headers,
        key,
        priority,
        delay,
        dedupeKey,
        group,
        timeout,
        dedupeWindow);
  }

  @Override
  public String toString() {
    return "OutgoingMessage["
        + payload.length
        + " bytes, "
        + contentType
        + ", key="
        + key
        + ", priority="
        + priority
        + ", delay="
        + delay
        + ", dedupeKey="
        + dedupeKey
        + ", group="
        + group
        + (timeout == null ? "" : ", timeout=" + timeout)
        + (dedupeKey == null ? "" : ", dedupeWindow=" + dedupeWindow)
        + "]";
  }
}
