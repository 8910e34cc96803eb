package io.tenure.internal.agents;

import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import io.tenure.Ticker;
import io.tenure.spi.MembershipView;
import java.time.Duration;

/**
 * When the leader may place agents that have no row yet, as at a cold start: once membership has
 * been quiet for {@code quiet} (no node {@code JOINING}, the newest node row at least that old by
 * the database clock), or once {@code max} has passed since a pass first held them back. Like
 * Kafka's {@code group.initial.rebalance.delay.ms}: a fleet that starts together gets its agents
 * placed evenly once, instead of claimed by the first nodes up and then moved at {@code
 * maxMovesPerPass} a pass. Agents that have a row (a dead owner's, a hand-off's) are never held
 * back; the planner places them whatever this says.
 */
final class PlacementQuiet {
  private static final long NONE = Long.MIN_VALUE;

  private final long quietNanos;
  private final long maxNanos;
  private final Ticker ticker;
  // Guarded by this.
  private long heldSince = NONE;

  /**
   * @param quiet how long membership must have been still; zero places at once
   * @param max the longest a placement is held back, from the first pass that held it
   */
  PlacementQuiet(Duration quiet, Duration max, Ticker ticker) {
    this.quietNanos = quiet.toNanos();
    this.maxNanos = max.toNanos();
    this.ticker = ticker;
  }

  /**
   * @param view the membership the pass plans with
   * @param newAgents whether some wanted agent has no row yet
   * @return 0 if agents without a row may be placed now, else how many nanoseconds until they may
   */
  synchronized long holdFor(MembershipView view, boolean newAgents) {
    if (!newAgents || quietNanos <= 0) {
      heldSince = NONE;
      return 0;
    }
    long now = ticker.read();
    if (heldSince == NONE) {
      heldSince = now;
    }
    long maxLeft = maxNanos - (now - heldSince);
    if (maxLeft <= 0) {
      return 0;
    }
    return Math.max(0, Math.min(quietLeft(view), maxLeft));
  }

  /** Nanoseconds until the newest join is {@code quiet} old; a node still joining counts as new. */
  private long quietLeft(MembershipView view) {
    long left = 0;
    for (NodeInfo node : view.nodes()) {
      if (node.status() == NodeStatus.JOINING) {
        left = Math.max(left, quietNanos);
      } else if (node.status() != NodeStatus.DEAD) {
        left =
            Math.max(
                left, quietNanos - Duration.between(node.startedAt(), view.readAt()).toNanos());
      }
    }
    return left;
  }
}
