package io.tenure.spi;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The leader lease row.
 *
 * @param holder the incarnation id that holds or last held it; null if never acquired
 * @param epoch the fencing epoch: 0 before the first acquire, then +1 on every change of holder
 * @param expiresAt when it expires, by the database clock
 * @param acquiredAt when the current holder took it (renewals keep it), by the database clock; null
 *     if never acquired
 * @param readAt the database clock when the row was read
 * @param sessionLocked true if the holder recorded, at this epoch, that it holds the session lock
 *     ({@link LeaseStore#recordSessionLock}): only then may a candidate that finds the lock free
 *     take the lease over ({@link LeaseStore#takeOver})
 */
public record Lease(
    @Nullable String holder,
    long epoch,
    Instant expiresAt,
    @Nullable Instant acquiredAt,
    Instant readAt,
    boolean sessionLocked) {
  /**
   * @return true if the lease had not expired when read
   */
  public boolean live() {
    return expiresAt.isAfter(readAt);
  }

  /**
   * @return true if {@code nodeId} held a live lease when read
   */
  public boolean heldBy(String nodeId) {
    return live() && nodeId.equals(holder);
  }
}
