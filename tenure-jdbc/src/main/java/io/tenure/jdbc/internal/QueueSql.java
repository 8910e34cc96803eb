package io.tenure.jdbc.internal;

import io.tenure.spi.TablePrefix;
import java.util.Map;
import java.util.Optional;

/**
 * A database's queue statements, complete, as text with named parameters (see {@link
 * NamedStatement} for {@code :name}, {@code ${constant}} and sections). {@link StandardQueueSql}
 * holds the statements every database runs as written; each database's class holds how it inserts,
 * claims, finds expired leases and locks keys, so "how MariaDB claims" is one file. Where the
 * databases' algorithms differ, the capability and its statements are one value ({@link Claiming},
 * {@link Inserting}, {@link Overtaking}).
 */
interface QueueSql {

  /**
   * The constants every statement may name: the tables, the database's clock ({@code ${now}},
   * {@code ${now + :param}}, {@code ${now - :param}}, microseconds), its row locks ({@code
   * ${for_update}}, {@code ${skip_locked}}, empty where writers take turns) and {@code
   * ${error_at}}, the position of {@code :error_contains} in {@code last_error}.
   */
  static Map<String, String> constants(Dialect dialect, TablePrefix prefix) {
    return Map.ofEntries(
        Map.entry("messages", prefix.table("messages")),
        Map.entry("messages_key", prefix.table("messages_key")),
        Map.entry("messages_status", prefix.table("messages_status")),
        Map.entry("agents", prefix.table("agents")),
        Map.entry("queue_controls", prefix.table("queue_controls")),
        Map.entry("queue_claims", prefix.table("queue_claims")),
        Map.entry("now", dialect.now()),
        Map.entry("now_plus", dialect.nowPlusMicros()),
        Map.entry("now_minus", dialect.nowMinusMicros()),
        Map.entry("for_update", dialect.forUpdate()),
        Map.entry("skip_locked", dialect.skipLocked()),
        Map.entry("error_at", dialect.position("last_error").replace("?", ":error_contains")),
        Map.entry("pass_full_groups_w", StandardQueueSql.groupFilter("w")),
        Map.entry("pass_full_groups_c", StandardQueueSql.groupFilter("c")),
        Map.entry("unique_until", dialect.plusMicros("finished_at", "unique_for_us")));
  }

  // ---- enqueue ----

  /** How messages are inserted and their ids learned. */
  Inserting inserting();

  /**
   * Capability: the ids of inserted rows come back from the insert itself, or as generated keys.
   */
  sealed interface Inserting {}

  /**
   * PostgreSQL, SQLite: {@code rows} inserts an {@code each} section of rows {@code RETURNING id}
   * (ids drawn in VALUES order); {@code ifAbsent} inserts one deduplicated row, returning its id or
   * nothing.
   */
  record Returning(String rows, String ifAbsent) implements Inserting {}

  /** MariaDB: {@code one} inserts one row; its id is the generated key, a duplicate a violation. */
  record GeneratedKey(String one) implements Inserting {}

  /** The id of {@code :queue}'s message with {@code :dedupe_key}. */
  String deduplicated();

  /**
   * Takes {@code :dedupe_key} of {@code :queue} from the message holding it if that message's
   * dedupe window has passed (SPEC §12.6): finished, and {@code ${unique_until}} has come.
   */
  String releaseDedupeKey();

  /** PostgreSQL: notifies {@code :channel} of an enqueue to {@code :queue} at commit. */
  Optional<String> notifyEnqueued();

  // ---- claim ----

  /** Where writers take turns (SQLite), the reads that let an idle poll skip its write lock. */
  Optional<IdleProbes> idleProbes();

  /**
   * @param anyPending one row if {@code :queue} has a pending row
   * @param anyExpired one row if a lease has expired
   */
  record IdleProbes(String anyPending, String anyExpired) {}

  /**
   * A strict (FIFO) queue's next rows: {@code id} and {@code ready} (1 if available), the oldest
   * pending rows of {@code :queue} while none is in flight, at most {@code :max}, locked.
   */
  String strictCandidates();

  /**
   * Claims the rows {@code :ids} still pending for {@code :node} under {@code :token} for {@code
   * :lease}.
   */
  String claimIds();

  /** Every column of the rows {@code :ids} claimed under {@code :token}. */
  String selectClaimed();

  /** How an unordered or keyed-FIFO claim chooses and takes its rows. */
  Claiming claiming();

  /**
   * Capability: the walk of the queue's front and the key heads behind it (SPEC §6.2), claimed in
   * one statement, in two, or chosen first and locked after.
   */
  sealed interface Claiming {}

  /**
   * PostgreSQL: the walk, then the key heads only if the walk fell short, claimed in one statement
   * returning every column. Parameters: {@code :queue}, {@code :window}, {@code :max}, {@code
   * :node}, {@code :token}, {@code :lease}.
   *
   * @param unkeyed the claim of a queue with no keyed row pending: the first {@code :max} available
   *     unkeyed rows in claim order, claimed returning every column, and nothing at all while any
   *     keyed row of {@code :queue} is pending (then {@code claim} decides). Parameters as {@code
   *     claim}'s, without {@code :window}.
   */
  record OneStatement(String claim, String unkeyed) implements Claiming {}

  /**
   * SQLite: the walk claimed returning every column ({@code :queue}, {@code :window}, {@code :max},
   * {@code :node}, {@code :token}, {@code :lease}); then, if it fell short, the key heads the same
   * way ({@code :queue}, {@code :max}, ...).
   */
  record TwoStatements(String walk, String heads) implements Claiming {}

  /**
   * MariaDB: the walk's and the heads' candidate ids by plain reads (limit {@code :max}), then
   * {@code lock} locks those of {@code :ids} still pending, skipping peers' rows, and {@link
   * #claimIds} claims them.
   */
  record ChooseThenLock(String walk, String heads, String lock) implements Claiming {}

  /** How a claim gives back keyed rows a replay overtook (SPEC §6.2). */
  Overtaking overtaking();

  /** Capability: whether and how a claim's keyed rows are re-checked after it took them. */
  sealed interface Overtaking {}

  /** SQLite: no peer commits between a claim's read and its write. */
  record NoPeers() implements Overtaking {}

  /**
   * PostgreSQL: gives back the rows of {@code :ids} under {@code :token} that now have an older
   * pending row or another row in flight of their key, returning their ids.
   */
  record GiveBackReturning(String giveBack) implements Overtaking {}

  /** MariaDB: {@code find} reads those ids; {@code giveBack} releases the rows {@code :ids}. */
  record FindThenGiveBack(String find, String giveBack) implements Overtaking {}

  // ---- resolve ----

  /** Finishes, keeping them, the rows {@code :ids} still in flight under {@code :token}. */
  String doneKeptIfHeld();

  /** Deletes the rows {@code :ids} still in flight under {@code :token}. */
  String deleteIfHeld();

  /** Releases the rows {@code :ids} still in flight under {@code :token}. */
  String releaseIfHeld();

  /** Locks and returns the ids of an {@code each} section of rows {@code (:id, :token)} held. */
  String heldClaims();

  /** Finishes, keeping them, the rows {@code :ids}. */
  String doneKept();

  /** Deletes the rows {@code :ids}. */
  String delete();

  /** Releases the rows {@code :ids}, attempt given back. */
  String release();

  /**
   * Row {@code :id} is pending again after {@code :in} with {@code :error}, the attempt kept: the
   * consumer decided the retry, whatever the attempts.
   */
  String retry();

  /** Row {@code :id} is dead with {@code :error}. */
  String deadLetter();

  /** Row {@code :id} is pending again after {@code :in}, attempt given back. */
  String reschedule();

  /** Extends row {@code :id}'s lease under {@code :token} by {@code :lease} from now. */
  String extend();

  // ---- progress and checkpoints ----

  /**
   * Sets row {@code :id}'s {@code :progress} and {@code :note} if in flight under {@code :token}.
   */
  String progress();

  /** Sets row {@code :id}'s {@code :checkpoint} if in flight under {@code :token}. */
  String checkpoint();

  // ---- cancel ----

  /** Row {@code :id}'s status, locked. */
  String lockStatus();

  /** Cancels row {@code :id} if it is pending or in flight. */
  String cancel();

  /** The {@code id}, {@code status} and {@code claim_token} of the rows {@code :ids}. */
  String claimStates();

  // ---- reclaim and retention ----

  /** The ids of in-flight rows whose lease expired, oldest lease first, at most {@code :limit}. */
  String expired();

  /** The rows {@code :ids} as they are, for the reclaim rule to decide on. */
  String expiredRows();

  /** Re-pends the rows {@code :ids}, still in flight and expired; attempts and error unchanged. */
  String repend();

  /** Makes the rows {@code :ids}, still in flight and expired, dead letters with {@code :error}. */
  String deadExpired();

  /**
   * The ids of {@code :queue}'s rows of {@code :status} finished {@code :age} ago whose dedupe
   * window has passed, {@code :limit}.
   */
  String finished();

  /** Deletes the rows {@code :ids} of {@code :status}. */
  String deleteFinished();

  // ---- stats ----

  /**
   * Every queue's counts per status and its oldest available message's {@code available_at} ({@code
   * oldest}), with the database's {@code read_at}, in one statement (one snapshot); see {@link
   * QueueStatsQuery}. No parameters.
   */
  String stats();

  /** A statement to run first in the stats read's own transaction, where the planner needs one. */
  Optional<String> statsSetting();

  // ---- dead letters and admin ----

  /** Every column of row {@code :id}. */
  String find();

  /**
   * Every column of {@code :queue}'s rows after {@code :after_id}, in id order, at most {@code
   * :limit}, filtered by the optional {@code :status}, {@code :key}, {@code :group}, {@code
   * :error_contains} and {@code :older_than}.
   */
  String list();

  /** Locks the dead rows the filter of {@link #list} matches, reading id, queue and key. */
  String lockDeadMatching();

  /** Locks the dead row {@code :id}, reading id, queue and key. */
  String lockDead();

  /**
   * Locks {@code :queue}'s pending and in-flight rows of {@code :key}, in id order; empty where
   * writers take turns.
   */
  Optional<String> lockKeyRows();

  /** Re-pends the dead rows {@code :ids}. */
  String replayMatching();

  /** Re-pends the dead row {@code :id}. */
  String replayOne();

  /** Locks the ids of the dead rows the filter of {@link #list} matches. */
  String deadMatching();

  /** Deletes the dead rows {@code :ids}. */
  String purge();

  // ---- one message (SPEC §12.7) ----

  /** Deletes row {@code :id} unless it is in flight. */
  String deleteUnlessInFlight();

  /** Makes row {@code :id} available now if it is pending and not yet available. */
  String runNow();

  /** Locks the dead or cancelled row {@code :id}, reading id, queue and key. */
  String lockRetryable();

  /** Re-pends the dead or cancelled row {@code :id}: available now, attempts 0, error kept. */
  String retryOne();
}
