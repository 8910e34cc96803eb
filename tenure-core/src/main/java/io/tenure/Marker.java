package io.tenure;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A stored marker: at most one per {@link MarkerKey}.
 *
 * @param key the tenant and resource
 * @param state the marker state
 * @param reason why it was set, or null
 * @param markedAt when it was set, by the database clock for transitions; truncated to
 *     microseconds, the precision every provider stores; from {@link #EARLIEST_MARKED_AT} to {@link
 *     #LATEST_MARKED_AT}
 */
public record Marker(MarkerKey key, String state, @Nullable String reason, Instant markedAt) {
  /** The earliest {@code markedAt} every provider stores: 0001-01-01T00:00:00Z. */
  public static final Instant EARLIEST_MARKED_AT = Checks.EARLIEST_INSTANT;

  /** The latest {@code markedAt} every provider stores: 9999-12-31T23:59:59.999999Z. */
  public static final Instant LATEST_MARKED_AT = Checks.LATEST_INSTANT;

  /**
   * @throws IllegalArgumentException if any part is null or malformed, or {@code markedAt} (after
   *     truncation to microseconds) is outside {@link #EARLIEST_MARKED_AT} to {@link
   *     #LATEST_MARKED_AT}
   */
  public Marker {
    if (key == null) {
      throw new IllegalArgumentException("key must not be null");
    }
    Checks.state(state);
    Checks.reason(reason);
    markedAt = Checks.instant("markedAt", markedAt);
  }

  /**
   * @return the tenant id
   */
  public String tenant() {
    return key.tenant();
  }

  /**
   * @return the resource id
   */
  public String resource() {
    return key.resource();
  }
}
