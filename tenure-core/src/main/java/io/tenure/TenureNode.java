package io.tenure;

import io.tenure.spi.LeaderFence;
import io.tenure.spi.Store;
import java.util.List;
import java.util.Optional;

/**
 * One member of a Tenure cluster (SPEC §3, §4): it joins, heart-beats on its own thread, competes
 * for the leader lease, and, while leader, declares stale nodes dead and cleans up defunct rows,
 * each write fenced by its epoch.
 *
 * <p>Build with {@link #builder(Store)}, then {@link #start()}. {@link #close()} leaves gracefully:
 * {@code LEAVING}, step down, delete its row.
 */
public interface TenureNode extends AutoCloseable {
  /**
   * @return the current incarnation id; changes when the node rejoins after an ejection
   */
  String nodeId();

  /**
   * @return the settings the node runs with
   */
  NodeSettings settings();

  /**
   * Joins the cluster and starts heart-beating and the election. Returns once the node is {@code
   * ACTIVE}.
   *
   * @throws IllegalStateException if already started or closed
   * @throws StoreException if the store failed
   */
  void start();

  /**
   * @return true while this node holds the lease and trusts it: its last successful renewal started
   *     less than {@code fenceAfter} ago on its monotonic clock
   */
  boolean isLeader();

  /**
   * @return the fence to put on leader-only writes, while leader
   */
  Optional<LeaderFence> leaderFence();

  /**
   * @return true while no heartbeat has succeeded for {@code selfFenceAfter}
   */
  boolean isSelfFenced();

  /**
   * @return the agents running on this node now
   */
  java.util.Set<AgentUri> runningAgents();

  /**
   * Pauses an agent: it stops wherever it runs before this call returns, and runs nowhere until
   * {@link #resume}.
   *
   * @throws IllegalArgumentException if no assignment row exists for it (nothing written)
   * @throws TenureException if its owner did not stop it within the stop deadline plus two sweeps
   */
  void pause(AgentUri uri);

  /**
   * Resumes a paused agent; the leader places it again on its next pass.
   *
   * @throws IllegalArgumentException if no assignment row exists for it
   */
  void resume(AgentUri uri);

  /**
   * Pins an agent to the node of that name (it moves there), or unpins it with null.
   *
   * @throws IllegalArgumentException if no row exists, or no ACTIVE node of that name can run the
   *     agent's scheme (nothing written)
   */
  void pin(AgentUri uri, @org.jspecify.annotations.Nullable String nodeName);

  /**
   * Runs a leader pass now, if this node leads.
   *
   * @return true if it ran
   */
  boolean rebalance();

  /**
   * @return the numbers of this node's queue consumers, one per queue it consumes
   */
  List<ConsumerStats> consumerStats();

  /**
   * @return this node's wake-ups (docs/QUEUE.md, "Wake-ups"): sent, received, dropped, woken
   */
  WakeStats wakeStats();

  /**
   * @return what this node's schedule duty fired while it led (SPEC §10)
   */
  ScheduleStats scheduleStats();

  /**
   * Leaves gracefully: marks itself {@code LEAVING}, steps down (a successor can acquire at once),
   * stops its threads within a bounded time and deletes its row. Idempotent.
   */
  @Override
  void close();

  /**
   * @param store the store the cluster shares
   * @return a builder with the default settings
   * @throws IllegalArgumentException if {@code store} is null
   */
  static TenureNodeBuilder builder(Store store) {
    if (store == null) {
      throw new IllegalArgumentException("store must not be null");
    }
    return new TenureNodeBuilder(store);
  }
}
