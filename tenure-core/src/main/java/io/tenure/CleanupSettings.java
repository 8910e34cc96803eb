package io.tenure;

import java.time.Duration;

/**
 * What the leader deletes and how much at a time (SPEC §3.4, §8): rows of departed nodes and old
 * history entries. Each is set through {@link TenureNodeBuilder} and named there.
 *
 * @param defunctAfter how long a non-active row stays before the leader deletes it
 * @param batchSize rows deleted per cleanup transaction, 1 to 1000
 * @param maxPerTick rows examined for cleanup per leader tick, from {@code batchSize} to 10,000
 * @param eventsToKeep newest history entries kept, 1 to 1,000,000
 * @param eventMaxAge oldest history entry kept, at most {@link Limits#MAX_RETENTION}
 */
public record CleanupSettings(
    Duration defunctAfter, int batchSize, int maxPerTick, int eventsToKeep, Duration eventMaxAge) {
  /** Default age after which non-active rows are deleted. */
  public static final Duration DEFAULT_DEFUNCT_AFTER = Duration.ofMinutes(10);

  /** Default rows per cleanup transaction. */
  public static final int DEFAULT_BATCH_SIZE = 50;

  /** Default rows examined for cleanup per leader tick. */
  public static final int DEFAULT_MAX_PER_TICK = 200;

  /** Default history entries kept. */
  public static final int DEFAULT_EVENTS_TO_KEEP = 10_000;

  /** Default oldest history entry kept. */
  public static final Duration DEFAULT_EVENT_MAX_AGE = Duration.ofDays(7);

  /** The defaults. */
  public static final CleanupSettings DEFAULTS =
      new CleanupSettings(
          DEFAULT_DEFUNCT_AFTER,
          DEFAULT_BATCH_SIZE,
          DEFAULT_MAX_PER_TICK,
          DEFAULT_EVENTS_TO_KEEP,
          DEFAULT_EVENT_MAX_AGE);

  /**
   * Checks each value.
   *
   * @throws IllegalArgumentException naming the setting if one is out of range
   */
  public CleanupSettings {
    SettingChecks.positive("defunctAfter", defunctAfter);
    checkBatches(batchSize, maxPerTick);
    checkEvents(eventsToKeep, eventMaxAge);
  }

  static void checkBatches(int batchSize, int maxPerTick) {
    if (batchSize < 1 || batchSize > 1000 || maxPerTick < batchSize || maxPerTick > 10_000) {
      throw new IllegalArgumentException(
          "cleanup batch size must be 1 to 1000 and per-tick cap from the batch size to 10000, got "
              + batchSize
              + " and "
              + maxPerTick);
    }
  }

  static Duration checkEvents(int keep, Duration maxAge) {
    if (keep < 1 || keep > 1_000_000) {
      throw new IllegalArgumentException("events to keep must be 1 to 1000000, got " + keep);
    }
    return Limits.checkPositive("event max age", maxAge, Limits.MAX_RETENTION);
  }

  CleanupSettings withDefunctAfter(Duration after) {
    return new CleanupSettings(after, batchSize, maxPerTick, eventsToKeep, eventMaxAge);
  }

  CleanupSettings withBatches(int batches, int perTick) {
    checkBatches(batches, perTick);
    return new CleanupSettings(defunctAfter, batches, perTick, eventsToKeep, eventMaxAge);
  }

  CleanupSettings withEvents(int keep, Duration maxAge) {
    checkEvents(keep, maxAge);
    return new CleanupSettings(defunctAfter, batchSize, maxPerTick, keep, maxAge);
  }
}
