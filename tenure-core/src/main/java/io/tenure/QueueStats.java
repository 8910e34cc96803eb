package io.tenure;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * One queue's numbers, read in one statement.
 *
 * @param pending messages waiting, whether available now or later
 * @param inflight messages claimed now
 * @param dead dead letters
 * @param done done messages still kept by retention
 * @param cancelled cancelled messages still kept by retention
 * @param oldestPendingAge how long the oldest available pending message has waited, by the database
 *     clock; null if none is available
 */
public record QueueStats(
    String queue,
    long pending,
    long inflight,
    long dead,
    long done,
    long cancelled,
    @Nullable Duration oldestPendingAge) {
  /** A queue's numbers without cancelled messages. */
  public QueueStats(
      String queue,
      long pending,
      long inflight,
      long dead,
      long done,
      @Nullable Duration oldestPendingAge) {
    this(queue, pending, inflight, dead, done, 0, oldestPendingAge);
  }
}
