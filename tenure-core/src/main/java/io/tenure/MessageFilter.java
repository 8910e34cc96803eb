package io.tenure;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Which dead letters an {@link Admin} call concerns: every field that is set must match.
 *
 * <pre>{@code
 * MessageFilter filter = MessageFilter.ALL.key("customer-7").errorContains("timeout");
 * }</pre>
 *
 * @param key the ordering key, exactly; null for any
 * @param errorContains a substring of the last error; null for any
 * @param olderThan created at least this long ago by the database clock; null for any
 */
public record MessageFilter(
    @Nullable String key, @Nullable String errorContains, @Nullable Duration olderThan) {
  /** Every message. */
  public static final MessageFilter ALL = new MessageFilter(null, null, null);

  /**
   * @throws IllegalArgumentException if a text is not well-formed UTF-16 ({@link
   *     Limits#checkWellFormed}), or {@code olderThan} is negative or longer than {@link
   *     Limits#MAX_RETENTION}
   */
  public MessageFilter {
    if (key != null) {
      Limits.checkWellFormed("ordering key", key);
    }
    if (errorContains != null) {
      Limits.checkWellFormed("error text", errorContains);
    }
    if (olderThan != null) {
      Limits.checkNotNegative("older than", olderThan, Limits.MAX_RETENTION);
    }
  }

  /**
   * @return this filter, also matching only messages with this ordering key
   * @throws IllegalArgumentException if null or not well-formed
   */
  public MessageFilter key(String key) {
    if (key == null) {
      throw new IllegalArgumentException("ordering key must not be null; use ALL for any");
    }
    return new MessageFilter(key, errorContains, olderThan);
  }

  /**
   * @return this filter, also matching only messages whose last error contains {@code text}
   * @throws IllegalArgumentException if null or not well-formed
   */
  public MessageFilter errorContains(String text) {
    if (text == null) {
      throw new IllegalArgumentException("error text must not be null; use ALL for any");
    }
    return new MessageFilter(key, text, olderThan);
  }

  /**
   * @return this filter, also matching only messages created at least {@code age} ago
   * @throws IllegalArgumentException if null, negative or longer than {@link Limits#MAX_RETENTION}
   */
  public MessageFilter olderThan(Duration age) {
    if (age == null) {
      throw new IllegalArgumentException("older than must not be null; use ALL for any");
    }
    return new MessageFilter(key, errorContains, age);
  }
}
