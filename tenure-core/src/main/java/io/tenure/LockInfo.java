package io.tenure;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One named lock as the store saw it in one read (SPEC §11): what {@code tenure locks list} and the
 * console show.
 *
 * @param name the lock's name
 * @param holder who holds or last held it (a node or process name, for operators); null if never
 *     acquired
 * @param owner the id of the acquisition that holds it; null once released
 * @param token the fencing token of the latest acquisition; it grows with every acquisition
 * @param acquiredAt when the latest acquisition took it, by the database clock
 * @param expiresAt when it is free again unless renewed, by the database clock
 * @param readAt the database's now when this was read
 */
public record LockInfo(
    String name,
    @Nullable String holder,
    @Nullable String owner,
    long token,
    @Nullable Instant acquiredAt,
    Instant expiresAt,
    Instant readAt) {
  /** Longest lock name accepted. */
  public static final int MAX_NAME_LENGTH = 128;

  /** Longest holder name accepted. */
  public static final int MAX_HOLDER_LENGTH = 255;

  /**
   * @throws IllegalArgumentException if the name is not a valid lock name
   * @throws NullPointerException if expiresAt or readAt is null
   */
  public LockInfo {
    checkName(name);
    Objects.requireNonNull(expiresAt, "expiresAt");
    Objects.requireNonNull(readAt, "readAt");
  }

  /**
   * @return whether an acquisition holds the lock at {@link #readAt}
   */
  public boolean held() {
    return owner != null && expiresAt.isAfter(readAt);
  }

  /**
   * @return whether an acquire at {@link #readAt} would take it: never acquired, expired, or
   *     released and past its keep-for time
   */
  public boolean available() {
    return !expiresAt.isAfter(readAt);
  }

  /**
   * Checks a lock name: 1 to {@value #MAX_NAME_LENGTH} characters, no control characters, no
   * surrounding whitespace.
   *
   * @return {@code name}
   * @throws IllegalArgumentException naming the value, if it is not a valid lock name
   */
  public static String checkName(@Nullable String name) {
    return Checks.id("lock name", name, MAX_NAME_LENGTH);
  }

  /**
   * Checks a holder name: 1 to {@value #MAX_HOLDER_LENGTH} characters, the lock name's rules.
   *
   * @return {@code holder}
   * @throws IllegalArgumentException naming the value, if it is not a valid holder name
   */
  public static String checkHolder(@Nullable String holder) {
    return Checks.id("lock holder", holder, MAX_HOLDER_LENGTH);
  }
}
