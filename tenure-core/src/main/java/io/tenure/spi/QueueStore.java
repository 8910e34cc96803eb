package io.tenure.spi;

import io.tenure.QueueMessage;
import io.tenure.QueueStats;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Durable queue messages (SPEC §6). Every claim, resolve and reclaim is conditional on the row's
 * state in the same statement or transaction; losing a race is a result, never an exception and
 * never an overwrite. Times are the database clock's.
 */
public interface QueueStore {
  /** Most messages in one enqueue, claim, resolve or admin batch. */
  int MAX_BATCH = 1000;

  /**
   * Inserts the messages in one transaction of their own, in list order (ids grow in that order). A
   * message the database refuses for its size (MariaDB's {@code max_allowed_packet}) MUST be
   * reported as an {@link IllegalArgumentException} naming the database's limit, never as an
   * unavailable store, and MUST leave none of the batch written.
   *
   * @return one result per message, in order
   * @throws IllegalArgumentException if empty or larger than {@link #MAX_BATCH}, or a message is
   *     larger than the database accepts in one statement (nothing written)
   */
  List<EnqueueResult> enqueue(List<NewMessage> messages);

  /**
   * Inserts the messages inside the caller's open transaction (transactional outbox): they exist
   * only if the caller commits. The connection must be on this store's database; Tenure neither
   * commits, rolls back nor closes it.
   *
   * @throws UnsupportedOperationException if the store has no JDBC transactions (in-memory)
   * @throws IllegalArgumentException as {@link #enqueue(List)}; a database that ends the session on
   *     such a statement (MariaDB) has then rolled back the caller's whole transaction
   */
  List<EnqueueResult> enqueue(java.sql.Connection transaction, List<NewMessage> messages);

  /**
   * Claims up to {@code max} available {@code PENDING} messages, highest priority first, then
   * oldest; a message whose key has an older unfinished message ({@code PENDING} or {@code
   * INFLIGHT}), or any {@code INFLIGHT} message whatever its id, is not available (a replayed dead
   * letter keeps its id, so it can be older than its key's message in flight; it waits for it).
   * Each claimed message gets {@code INFLIGHT}, the owner, a fresh claim token, {@code lease_until
   * = now() + lease} and {@code attempts + 1}. Concurrent claims never take one message twice.
   *
   * @return the claimed messages as stored after the claim, in claim order; empty if none (or the
   *     guard did not hold)
   */
  List<QueueMessage> claim(ClaimRequest request);

  /**
   * Resolves claimed messages, all or nothing, each conditional on its claim (id, token and {@code
   * INFLIGHT}). With a guard (an exclusive queue, SPEC §6.9), a batch with a terminal outcome reads
   * the guard, fail-closed. If it does not hold, every message whose claim still holds MUST leave
   * the batch {@code PENDING} and unclaimed, never in flight: a re-pend (release, reschedule, or a
   * failure with attempts left) MUST land exactly as without a guard, its error and backoff
   * included; a finish (done, dead letter, a failure on its last attempt) MUST NOT land, and its
   * message goes back with its attempt given back and {@code available_at} and {@code last_error}
   * unchanged. See {@link ResolveResult}.
   *
   * @throws IllegalArgumentException if empty, larger than {@link #MAX_BATCH}, or a message appears
   *     twice
   */
  ResolveResult resolve(
      List<Resolution> resolutions, @org.jspecify.annotations.Nullable AgentGuard guard);

  /**
   * Extends a claim: {@code lease_until = now() + lease}, if the claim still holds. MUST refuse a
   * lease that is not positive or is longer than {@link io.tenure.Limits#MAX_DURATION} before it
   * changes anything; every lease up to the bound MUST work.
   *
   * @return false if the claim was lost
   * @throws IllegalArgumentException if the lease is out of range
   */
  boolean extend(MessageClaim claim, Duration lease);

  /**
   * The reclaim sweep (SPEC §6.4): up to {@code limit} {@code INFLIGHT} messages whose lease
   * expired by the database clock go back to {@code PENDING} (owner and token cleared, available
   * now); those already at {@code max_attempts} become {@code DEAD} instead.
   *
   * @return how many messages this call changed
   */
  int reclaimExpired(int limit);

  /**
   * @return the message, whatever its status
   */
  Optional<QueueMessage> find(long id);

  /**
   * @return matching messages, ordered by id
   */
  List<QueueMessage> list(MessageQuery query);

  /**
   * Returns up to {@code limit} matching dead letters, oldest first (the query's status and {@code
   * afterId} are ignored: only {@code DEAD} rows), to {@code PENDING}, available now, with attempts
   * reset to 0 and the last error kept.
   *
   * @return how many were replayed
   */
  int replay(MessageQuery deadLetters);

  /**
   * Replays one dead letter.
   *
   * @return false if no such message exists or it is not {@code DEAD} (nothing changed)
   */
  boolean replay(long id);

  /**
   * Deletes up to {@code limit} matching dead letters, oldest first (only {@code DEAD} rows; {@code
   * afterId} is ignored).
   *
   * @return how many were deleted
   */
  int purge(MessageQuery deadLetters);

  /**
   * Retention: deletes up to {@code limit} {@code DONE} messages done at least {@code doneFor} ago,
   * and up to {@code limit} {@code DEAD} ones that died at least {@code deadFor} ago.
   *
   * @return how many were deleted
   */
  int deleteExpired(String queue, Duration doneFor, Duration deadFor, int limit);

  /**
   * @return numbers for every queue with at least one message, ordered by name
   */
  List<QueueStats> stats();

  /**
   * Subscribes to enqueue notifications, where the store has them: PostgreSQL {@code LISTEN/NOTIFY}
   * (the enqueuer notifies in its transaction, so a rolled-back outbox notifies nobody), and the
   * in-memory store. Consumers that get none poll. Notifications are hints: one may be lost (a
   * reconnect) or arrive for a message another node already took.
   *
   * @param onEnqueue called with a queue's name after messages were committed to it; must return
   *     quickly (it runs on the listener's thread)
   * @return a handle that stops the subscription, or empty if the store cannot notify
   */
  Optional<AutoCloseable> listen(java.util.function.Consumer<String> onEnqueue);
}
