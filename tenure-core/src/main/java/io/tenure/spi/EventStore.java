package io.tenure.spi;

import io.tenure.ClusterEvent;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The bounded cluster history (SPEC §3.8), newest first. */
public interface EventStore {
  /** Longest detail stored; longer details are cut. */
  int MAX_DETAIL = 1000;

  /**
   * Appends an event stamped with the database clock. Detail longer than {@link #MAX_DETAIL} is
   * cut, never refused: history must not fail the action it records.
   */
  void append(ClusterEvent.Kind kind, String nodeId, @Nullable Long epoch, String detail);

  /** One event to {@link #appendAll}. */
  record NewEvent(ClusterEvent.Kind kind, String nodeId, @Nullable Long epoch, String detail) {}

  /**
   * Appends events in their order, as {@link #append} would each; a provider SHOULD write them in
   * one transaction (a sweep that starts 50 agents records 50 events).
   */
  void appendAll(List<NewEvent> events);

  /**
   * @param limit at most this many, 1 to 10,000
   * @return the newest events, newest first
   * @throws IllegalArgumentException if {@code limit} is out of range
   */
  List<ClusterEvent> recent(int limit);

  /**
   * Deletes events beyond the newest {@code keep} and events older than {@code maxAge} by the
   * database clock.
   *
   * @return how many were deleted
   */
  int trim(int keep, Duration maxAge);

  /**
   * The argument check of {@link #recent}, shared by providers.
   *
   * @throws IllegalArgumentException if {@code limit} is not 1 to 10,000
   */
  static void checkRecentLimit(int limit) {
    if (limit < 1 || limit > 10_000) {
      throw new IllegalArgumentException("event limit must be 1 to 10000, got " + limit);
    }
  }

  /**
   * The argument check of {@link #trim}, shared by providers.
   *
   * @throws IllegalArgumentException if {@code keep} is negative or {@code maxAge} not positive or
   *     longer than {@link io.tenure.Limits#MAX_RETENTION}
   */
  static void checkTrim(int keep, Duration maxAge) {
    if (keep < 0) {
      throw new IllegalArgumentException("events to keep must be 0 or more, got " + keep);
    }
    io.tenure.Limits.checkPositive("event max age", maxAge, io.tenure.Limits.MAX_RETENTION);
  }
}
