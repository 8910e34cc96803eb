package io.tenure;

import java.sql.Connection;
import java.util.function.Consumer;

/**
 * One acquisition of a named lock (SPEC §11), renewed in the background until it is closed or lost.
 * Closing it releases the lock; closing it again does nothing.
 */
public interface HeldLock extends AutoCloseable {
  /**
   * @return the lock's name
   */
  String name();

  /**
   * @return the fencing token: greater than every earlier acquisition's of this name. Pass it to
   *     your own writes, so storage that remembers the highest token it saw can refuse a stale one
   */
  long token();

  /**
   * @return who holds it, as operators see it ({@code tenure locks list})
   */
  String holder();

  /**
   * A local answer, without a round trip: false once the lock was released, once a renewal was
   * refused (the lock expired or was taken over), or once no renewal has succeeded for nine tenths
   * of the TTL (the database may be unreachable; the lock may be about to lapse). Check it between
   * steps of long work; to fence a write, use {@link #fence}.
   *
   * @return whether this holder may still act as the lock's holder
   */
  boolean stillHeld();

  /**
   * Calls {@code listener} once when the lock is lost (not when it is closed): at once if it was
   * lost already. Listeners run on the lock keeper's thread and must not block.
   *
   * @return this lock
   */
  HeldLock onLost(Consumer<HeldLock> listener);

  /**
   * The fence for a write in your own transaction on the store's database: call it inside the
   * transaction, before or after the write, and commit only if it returns true. While the
   * transaction is open no other holder can take the lock, so the write commits under this holder
   * or not at all.
   *
   * @param transaction an open transaction (auto-commit off) on the store's database; not
   *     committed, rolled back or closed here
   * @return whether this acquisition still holds the lock
   * @throws UnsupportedOperationException on a store without JDBC transactions (in-memory)
   */
  boolean fence(Connection transaction);

  /** Releases the lock (renewals stop); does nothing if it was lost or closed already. */
  @Override
  void close();
}
