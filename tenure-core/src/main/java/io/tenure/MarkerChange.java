package io.tenure;

import org.jspecify.annotations.Nullable;

/**
 * A requested marker: the state a resource should be put in, and why.
 *
 * @param key the tenant and resource
 * @param state the marker state, {@code [A-Z][A-Z0-9_]{0,63}}, e.g. {@code ARCHIVED}
 * @param reason free text for operators, at most 1000 characters, or null
 */
public record MarkerChange(MarkerKey key, String state, @Nullable String reason) {
  /** Longest reason accepted. */
  public static final int MAX_REASON_LENGTH = Checks.MAX_REASON_LENGTH;

  /**
   * @throws IllegalArgumentException if the key is null, the state is malformed or the reason too
   *     long
   */
  public MarkerChange {
    if (key == null) {
      throw new IllegalArgumentException("key must not be null");
    }
    Checks.state(state);
    Checks.reason(reason);
  }

  /**
   * Checks a state name without building a change, for SPI implementations and clear-by-state.
   *
   * @param state the state to check
   * @return {@code state}
   * @throws IllegalArgumentException if it does not match {@code [A-Z][A-Z0-9_]{0,63}}
   */
  public static String requireValidState(String state) {
    return Checks.state(state);
  }

  /**
   * @return a validated change
   * @throws IllegalArgumentException as {@link MarkerKey} and the constructor
   */
  public static MarkerChange of(
      String tenant, String resource, String state, @Nullable String reason) {
    return new MarkerChange(MarkerKey.of(tenant, resource), state, reason);
  }
}
