package io.tenure.spi;

import io.tenure.ClusterEvent;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The bounded cluster history (SPEC §3.8), newest first. Any node appends; only the leader trims.
 * History must never fail the action it records, so what a caller may get wrong (a long detail) is
 * cut, not refused.
 *
 * <p>Rules, each checked by the compliance kit on every provider ({@code EventStoreComplianceTest};
 * the test named in a rule checks it):
 *
 * <ol>
 *   <li><b>E1</b> A missing table MUST be a {@link io.tenure.SchemaMissingException}, and a closed
 *       store or an unreachable database a {@link io.tenure.StoreUnavailableException} ({@code
 *       a_closed_store_refuses_the_history_as_unavailable_and_a_dropped_table_as_missing}).
 * </ol>
 */
public interface EventStore {
  /** Longest detail stored; longer details are cut. */
  int MAX_DETAIL = 1000;

  /**
   * Appends one event. <b>E2</b> MUST stamp it with the database clock and store its kind, node,
   * epoch (or none) and detail as given, except that a detail longer than {@link #MAX_DETAIL} MUST
   * be cut to that length, never refused ({@code
   * the_history_lists_events_newest_first_and_trims_by_count}).
   */
  void append(ClusterEvent.Kind kind, String nodeId, @Nullable Long epoch, String detail);

  /** One event to {@link #appendAll}. */
  record NewEvent(ClusterEvent.Kind kind, String nodeId, @Nullable Long epoch, String detail) {}

  /**
   * Appends events. <b>E3</b> MUST append them in list order, each as {@link #append} would (E2),
   * and an empty list MUST write nothing ({@code
   * a_batch_of_events_is_appended_in_its_order_and_cut_like_one}). The JDBC store writes a batch in
   * one transaction, so a sweep that starts 50 agents pays one round trip for their 50 events.
   */
  void appendAll(List<NewEvent> events);

  /**
   * <b>E4</b> MUST return at most {@code limit} events, newest first in the order they were
   * appended (also within one tick of the clock), and MUST refuse a limit outside 1 to 10,000
   * ({@code the_history_lists_events_newest_first_and_trims_by_count}, {@code
   * a_batch_of_events_is_appended_in_its_order_and_cut_like_one}, {@code
   * a_history_read_or_trim_out_of_range_is_refused_and_deletes_nothing}).
   *
   * @param limit at most this many, 1 to 10,000
   * @return the newest events, newest first
   * @throws IllegalArgumentException if {@code limit} is out of range
   */
  List<ClusterEvent> recent(int limit);

  /**
   * <b>E6</b> Rows that {@link #recent} left out because this version cannot read them (see {@link
   * SkippedRows}): an event whose kind it does not know, written by a newer node during a rolling
   * upgrade, MUST NOT fail a read of the others, and MUST be counted and named here; a read that
   * skips rows returns fewer than its limit ({@code
   * an_event_of_a_kind_this_version_does_not_know_is_skipped_and_reported_and_fails_no_read}).
   *
   * @return what this store's reads skipped since it was opened, keyed by the unknown kind; {@link
   *     SkippedRows#NONE} if nothing was skipped
   */
  SkippedRows skippedRows();

  /**
   * <b>E5</b> MUST delete the events beyond the newest {@code keep} and those older than {@code
   * maxAge} by the database clock, and no other; MUST refuse a negative {@code keep} and a {@code
   * maxAge} that is not positive or is longer than {@link io.tenure.Limits#MAX_RETENTION} before it
   * deletes anything ({@code the_history_lists_events_newest_first_and_trims_by_count}, {@code
   * the_history_trims_by_age}, {@code
   * a_history_read_or_trim_out_of_range_is_refused_and_deletes_nothing}).
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
