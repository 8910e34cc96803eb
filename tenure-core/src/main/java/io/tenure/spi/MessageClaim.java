package io.tenure.spi;

/** A message as one claim holds it: resolves are conditional on both (SPEC §6.3). */
public record MessageClaim(long id, String token) {
  /**
   * @throws IllegalArgumentException if the token is null or blank
   */
  public MessageClaim {
    if (token == null || token.isBlank()) {
      throw new IllegalArgumentException("claim token must not be null or blank");
    }
  }
}
