package io.tenure;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The operator's view of one Tenure store: what {@code tenure nodes}, {@code events}, {@code
 * agents}, {@code queue stats} and {@code dlq} and the admin HTTP API read, and the operator
 * actions they take. Read-mostly: the only writes are the operator's actions on messages (cancel,
 * delete, run now, retry; replay or purge dead letters) and on queues (pause, limits). Agent
 * actions (pause, resume, pin, rebalance) need a running node and live on {@link TenureNode}. Get
 * one from {@link Tenure#admin()}; thread-safe.
 *
 * <pre>{@code
 * Admin admin = tenure.admin();
 * admin.leader().ifPresent(l -> System.out.println("leader " + l.name() + " epoch " + l.epoch()));
 * for (QueueStats q : admin.queues()) {
 *   System.out.println(q.queue() + ": " + q.pending() + " pending, " + q.dead() + " dead");
 * }
 * }</pre>
 */
public interface Admin {
  /**
   * @return the database clock now
   * @throws StoreException if the store failed
   */
  Instant now();

  /**
   * @return every node row, oldest join first
   * @throws StoreException if the store failed
   */
  List<NodeInfo> nodes();

  /**
   * @return the node holding a live leader lease, if any, read in one statement
   * @throws StoreException if the store failed
   */
  Optional<Leader> leader();

  /**
   * @return every agent assignment row, ordered by URI
   * @throws StoreException if the store failed
   */
  List<AgentAssignment> agents();

  /**
   * @param limit 1 to 10,000
   * @return the newest {@code limit} history entries, newest first
   * @throws IllegalArgumentException if the limit is out of range
   * @throws StoreException if the store failed
   */
  List<ClusterEvent> events(int limit);

  /**
   * @return the numbers of every queue that has messages, one statement's view
   * @throws StoreException if the store failed
   */
  List<QueueStats> queues();

  /**
   * @return the message with this id, of any queue and status
   * @throws StoreException if the store failed
   */
  Optional<QueueMessage> message(long id);

  /**
   * @param queue the queue's name
   * @param filter which dead letters; {@link MessageFilter#ALL} for every one
   * @param afterId only ids greater than this, to page on from the last one returned; 0 to start
   * @param limit 1 to 10,000
   * @return matching dead letters, oldest (lowest id) first
   * @throws IllegalArgumentException if the name is not a queue name ({@link Queue#NAME}), the
   *     filter is null, {@code afterId} is negative or the limit is out of range
   * @throws StoreException if the store failed
   */
  List<QueueMessage> deadLetters(String queue, MessageFilter filter, long afterId, int limit);

  /**
   * Returns one dead letter to its queue with its attempts reset.
   *
   * @throws IllegalArgumentException if the queue has no message with this id, or it is not dead
   *     (nothing changed)
   * @throws StoreException if the store failed
   */
  void replay(String queue, long id);

  /**
   * Returns up to {@code limit} matching dead letters, oldest first, to their queue.
   *
   * @param limit 1 to 10,000
   * @return how many went back
   * @throws IllegalArgumentException if an argument is null or out of range (nothing changed)
   * @throws StoreException if the store failed
   */
  int replayDeadLetters(String queue, MessageFilter filter, int limit);

  /**
   * Deletes up to {@code limit} matching dead letters, oldest first, for good.
   *
   * @param limit 1 to 10,000
   * @return how many were deleted
   * @throws IllegalArgumentException if an argument is null or out of range (nothing changed)
   * @throws StoreException if the store failed
   */
  int purgeDeadLetters(String queue, MessageFilter filter, int limit);

  /**
   * @return every queue with a stored pause or limits, ordered by name, with their current use
   * @throws StoreException if the store failed
   */
  List<QueueControl> queueControls();

  /**
   * @return the queue's pause and limits with their current use; not paused and no limits if never
   *     set
   * @throws IllegalArgumentException if the name is not a queue name
   * @throws StoreException if the store failed
   */
  QueueControl queueControl(String queue);

  /**
   * Pauses or resumes a queue on every node (SPEC §12.2).
   *
   * @return true if this call changed it
   * @throws IllegalArgumentException if the name is not a queue name (nothing changed)
   * @throws StoreException if the store failed
   */
  boolean pauseQueue(String queue, boolean paused);

  /**
   * Sets a queue's cluster-wide limits (SPEC §12.1); {@link QueueLimits#none()} lifts them.
   *
   * @throws IllegalArgumentException if the name is not a queue name or limits is null (nothing
   *     changed)
   * @throws StoreException if the store failed
   */
  void limitQueue(String queue, QueueLimits limits);

  /**
   * Cancels one message of any queue (SPEC §12.3).
   *
   * @return what the cancel did
   * @throws StoreException if the store failed
   */
  CancelOutcome cancel(long id);

  /**
   * Deletes one message of any queue that is not in flight (SPEC §12.7); one in flight is refused
   * ({@link DeleteOutcome#IN_FLIGHT}): cancel it first.
   *
   * @return what the delete did
   * @throws StoreException if the store failed
   */
  DeleteOutcome delete(long id);

  /**
   * Makes one pending message of any queue that waits (delayed, or for a retry) available now (SPEC
   * §12.7), with nothing else changed.
   *
   * @return what it did
   * @throws StoreException if the store failed
   */
  RunNowOutcome runNow(long id);

  /**
   * Retries one dead or cancelled message of any queue (SPEC §12.7): pending again, available now,
   * attempts reset, last error kept.
   *
   * @return what it did
   * @throws StoreException if the store failed
   */
  RetryOutcome retry(long id);
}
