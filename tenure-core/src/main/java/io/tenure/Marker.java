package io.tenure;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A stored marker: at most one per {@link MarkerKey}.
 *
 * @param key the tenant and resource
 * @param state the marker state
 * @param reason why it was set, or null
 * @param markedAt when it was set, by the database clock for transitions; truncated to microseconds,
 *     the precision every provider stores
 */
public record Marker(MarkerKey key, String state, @Nullable String reason, Instant markedAt) {
  /**
   * @throws IllegalArgumentException if any part is null or malformed
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
