package io.tenure.spi;

import io.tenure.LockInfo;
import java.time.Instant;
import java.util.Objects;

/**
 * One acquisition of a named lock (SPEC §11): the owner id that scopes its renewals and release,
 * and the fencing token its holder passes to its own writes.
 *
 * @param name the lock's name
 * @param owner this acquisition's id
 * @param holder who holds it, for operators
 * @param token the fencing token, greater than every earlier acquisition's of this name
 * @param acquiredAt when it was acquired, by the database clock
 * @param expiresAt when it expires unless renewed, by the database clock, as of the acquisition
 */
public record LockGrant(
    String name, String owner, String holder, long token, Instant acquiredAt, Instant expiresAt) {
  /** Longest owner id accepted (a UUID is 36). */
  public static final int MAX_OWNER_LENGTH = 64;

  /**
   * @throws IllegalArgumentException if a name, the owner or the token is out of range
   * @throws NullPointerException if a time is null
   */
  public LockGrant {
    LockInfo.checkName(name);
    checkOwner(owner);
    LockInfo.checkHolder(holder);
    if (token < 1) {
      throw new IllegalArgumentException("a lock token is at least 1, got " + token);
    }
    Objects.requireNonNull(acquiredAt, "acquiredAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }

  /**
   * @return {@code owner}
   * @throws IllegalArgumentException if it is null, blank or longer than {@value #MAX_OWNER_LENGTH}
   */
  public static String checkOwner(String owner) {
    if (owner == null || owner.isBlank() || owner.length() > MAX_OWNER_LENGTH) {
      throw new IllegalArgumentException(
          "a lock owner id is 1 to " + MAX_OWNER_LENGTH + " characters, got '" + owner + "'");
    }
    return owner;
  }
}
