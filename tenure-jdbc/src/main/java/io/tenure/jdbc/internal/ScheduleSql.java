package io.tenure.jdbc.internal;

import io.tenure.spi.TablePrefix;
import java.util.Map;

/**
 * The schedules' statements (SPEC §10), complete texts with named parameters: {@link
 * StandardScheduleSql} holds what every database runs as written; each database says how it inserts
 * a new name (the one statement that differs). Returned by {@link Dialect#scheduleSql()}.
 */
interface ScheduleSql {
  /** The definition's columns, in the order an insert and an update write them. */
  String DEFINITION =
      "kind, expression, interval_us, anchor_at, zone, queue, msg_key, payload, content_type,"
          + " headers, priority, max_attempts, missed, missed_after_us, while_paused, jitter_us,"
          + " fingerprint";

  /** The constants every schedule statement may name: the table and the clock. */
  static Map<String, String> constants(Dialect dialect, TablePrefix prefix) {
    return Map.of(
        "schedules", prefix.table("schedules"),
        "now", dialect.now(),
        "now_plus", dialect.nowPlusMicros(),
        "now_minus", dialect.nowMinusMicros(),
        "for_update", dialect.forUpdate(),
        "leader_fence",
            new Fences(dialect, prefix)
                .leaderQuery()
                .replaceFirst("\\?", ":leader")
                .replaceFirst("\\?", ":epoch"));
  }

  /**
   * A new schedule, running at version 1; nothing when the name has a row, or (where {@link
   * #insertReportsDuplicates()}) the primary key's duplicate error.
   */
  String insert();

  /** Whether {@link #insert()} reports a present row as a duplicate-key error. */
  boolean insertReportsDuplicates();

  /** The fingerprint of {@code :name}'s row, locked for the rest of the transaction. */
  String fingerprint();

  /** A new definition and next slot for {@code :name}; version + 1. */
  String redefine();

  /** One schedule's row, with the database's now as {@code read_at}. */
  String read();

  /** Every schedule by name, {@code :limit}, with {@code read_at}. */
  String list();

  /** The running schedules whose next slot has come, oldest first, {@code :limit}. */
  String due();

  /** The earliest next slot of the running schedules. */
  String nextDue();

  /**
   * Moves {@code :name} at {@code :version} past a fire, only while the leader fence ({@code
   * :leader}, {@code :epoch}) holds: the fence in the statement, as every leader-only write.
   */
  String fired();

  /** Whether the leader fence holds: one row when it does. */
  String fence();

  /** Sets the last message of {@code :name} after its enqueue. */
  String lastMessage();

  /** Pauses {@code :name} (if running): version + 1. */
  String pause();

  /** Resumes {@code :name} (if paused), its next slot moved to {@code :next} if bound. */
  String resume();

  /** Records a trigger's message on {@code :name}: last fire now, version + 1. */
  String triggered();

  /** Deletes {@code :name}. */
  String delete();
}
