package io.tenure.spi;

import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Node rows and the membership version (SPEC §3).
 *
 * <p>Status changes (join, activate, leave, removal, death) write the node row and bump the
 * membership version in one transaction, conditional on the version the writer read: a stale writer
 * changes nothing and gets {@link MembershipWrite#STALE_VERSION}. Heartbeats never bump the
 * version. Every comparison of ages uses the database clock.
 */
public interface MembershipStore {
  /**
   * @return every node row and the version, read in one consistent snapshot; version 0 for a new
   *     cluster
   */
  MembershipView read();

  /**
   * @return the membership version alone: what a writer retrying a compare-and-swap needs, without
   *     reading every node row
   */
  long version();

  /**
   * Inserts the node as {@code JOINING} with {@code started_at = heartbeat_at = now()} and bumps
   * the version, if the version is still {@code expectedVersion}.
   *
   * @return {@code APPLIED}, {@code STALE_VERSION} or {@code DUPLICATE_NODE}; MUST change nothing
   *     unless {@code APPLIED}
   */
  MembershipWrite join(NewNode node, long expectedVersion);

  /**
   * A node's own status change: {@code JOINING -> ACTIVE}, or {@code JOINING|ACTIVE -> LEAVING}.
   * Bumps the version, conditional on {@code expectedVersion}.
   *
   * @param to {@code ACTIVE} or {@code LEAVING}
   * @return {@code APPLIED}, {@code STALE_VERSION}, or {@code NOT_ELIGIBLE} if the row is missing
   *     or not in a state this change follows (a {@code DEAD} row is never revived)
   * @throws IllegalArgumentException if {@code to} is {@code JOINING} or {@code DEAD}
   */
  MembershipWrite changeStatus(String nodeId, NodeStatus to, long expectedVersion);

  /**
   * A node's own removal at the end of a graceful leave: deletes its row (owner-scoped: only this
   * node id) and bumps the version, conditional on {@code expectedVersion}.
   *
   * @return {@code APPLIED}, {@code STALE_VERSION} or {@code NOT_ELIGIBLE} (no such row)
   */
  MembershipWrite remove(String nodeId, long expectedVersion);

  /**
   * {@link #join(NewNode, long)} at the version this transaction reads under a lock it holds until
   * it ends ({@code SELECT ... FOR UPDATE} on servers; SQLite's write transaction already runs
   * alone). The version bump MUST still be conditional on that read; what changes is that
   * concurrent status changes queue on the lock instead of failing the compare-and-swap and
   * retrying. MUST NOT read the version before the transaction that bumps it.
   *
   * @return {@code APPLIED} or {@code DUPLICATE_NODE}; {@code STALE_VERSION} only if the version
   *     changed under the lock (a provider bug); MUST change nothing unless {@code APPLIED}
   */
  MembershipWrite joinQueued(NewNode node);

  /**
   * {@link #changeStatus(String, NodeStatus, long)} at the version read under a lock in the same
   * transaction, as {@link #joinQueued}.
   *
   * @return {@code APPLIED} or {@code NOT_ELIGIBLE}
   * @throws IllegalArgumentException if {@code to} is {@code JOINING} or {@code DEAD}
   */
  MembershipWrite changeStatusQueued(String nodeId, NodeStatus to);

  /**
   * {@link #remove(String, long)} at the version read under a lock in the same transaction, as
   * {@link #joinQueued}.
   *
   * @return {@code APPLIED} or {@code NOT_ELIGIBLE}
   */
  MembershipWrite removeQueued(String nodeId);

  /**
   * One unconditional write of {@code heartbeat_at = now()} to the node's own row, with no read
   * first. MUST NOT insert a missing row and MUST NOT touch a {@code DEAD} row. MUST NOT wait
   * behind other work for a connection: heartbeats use their own connection and statement timeout.
   *
   * @return true if the row exists and is not {@code DEAD}; false means the node was ejected
   */
  boolean heartbeat(String nodeId);

  /**
   * @return {@code JOINING} and {@code ACTIVE} rows whose heartbeat is older than {@code
   *     staleAfter} by the database clock, oldest first
   */
  List<NodeInfo> findStale(Duration staleAfter);

  /**
   * Leader-only: marks a stale node {@code DEAD} and bumps the version, in one transaction. MUST
   * re-check inside the write that the node is {@code JOINING} or {@code ACTIVE}, that its
   * heartbeat is older than {@code staleAfter} by the database clock, and that it is not the
   * fence's own node.
   *
   * @return {@code APPLIED}; {@code FENCED} if the fence is not current (checked in the same SQL,
   *     fail-closed); {@code STALE_VERSION}; or {@code NOT_ELIGIBLE} (fresh heartbeat, wrong state,
   *     no such row, or the leader itself)
   */
  MembershipWrite declareDead(
      String nodeId, Duration staleAfter, long expectedVersion, LeaderFence fence);

  /**
   * @return up to {@code limit} rows not {@code ACTIVE} whose heartbeat is older than {@code
   *     olderThan} by the database clock, oldest first
   */
  List<NodeInfo> findDefunct(Duration olderThan, int limit);

  /**
   * Leader-only cleanup of one batch, in one transaction: deletes each row only if its {@code
   * rowVersion} is still the one read, it is still not {@code ACTIVE}, its heartbeat is still older
   * than {@code olderThan}, and the fence is current. A concurrent heartbeat or status change wins:
   * that row is left alone. Does not bump the membership version (the rows are already gone from
   * the cluster).
   *
   * @param rows rows returned by {@link #findDefunct}
   * @return how many rows this call deleted (0 if fenced)
   */
  int deleteDefunct(List<NodeInfo> rows, Duration olderThan, LeaderFence fence);

  /**
   * The status changes a node may make itself, shared by providers (death is the leader's).
   *
   * @return the states from which a node may move itself to {@code to}
   * @throws IllegalArgumentException if a node may not move itself to {@code to}
   */
  static Set<NodeStatus> selfChangeSources(NodeStatus to) {
    return switch (to) {
      case ACTIVE -> Set.of(NodeStatus.JOINING);
      case LEAVING -> Set.of(NodeStatus.JOINING, NodeStatus.ACTIVE);
      case JOINING, DEAD ->
          throw new IllegalArgumentException(
              "a node cannot change its own status to "
                  + to
                  + "; join() inserts JOINING and only"
                  + " the leader declares DEAD");
    };
  }
}
