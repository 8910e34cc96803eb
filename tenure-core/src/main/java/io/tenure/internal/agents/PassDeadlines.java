package io.tenure.internal.agents;

import io.tenure.NodeInfo;
import io.tenure.spi.MembershipView;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * When the leader's next pass has work that its last one could not do yet, as a pure function of
 * the membership it read: a crashed node's agents should move at the moment the rules allow, not up
 * to a {@code renewInterval} later, when the next regular tick happens to run. Two deadlines
 * matter, both on the database clock:
 *
 * <ul>
 *   <li>a live node's heartbeat becomes {@code staleAfter} old: it may be declared dead;
 *   <li>a node that is no longer {@code ACTIVE} and still owns agents reaches its may-run deadline
 *       (last heartbeat plus its published {@code selfFenceAfter}, SPEC §5.3): its rows may be
 *       freed.
 * </ul>
 *
 * A pass run at such a moment changes nothing about what is safe: the store still checks each
 * deadline against the database clock in the write itself, so a pass that runs early frees nothing,
 * and the next deadline it computes is the same one, a moment away.
 */
public final class PassDeadlines {
  /** A pass this soon after the deadline lands past it despite rounding to microseconds. */
  static final Duration MARGIN = Duration.ofMillis(2);

  private PassDeadlines() {}

  /**
   * @param view the membership the pass planned with
   * @param self the leader's own node id (never declared dead by itself)
   * @param staleAfter when a silent node may be declared dead
   * @param owners the node ids that own agent rows
   * @return nanoseconds after {@code view.readAt()} at which the next deadline has passed (with
   *     {@link #MARGIN}), or 0 if none lies ahead of the read
   */
  public static long next(
      MembershipView view, String self, Duration staleAfter, Set<String> owners) {
    Instant readAt = view.readAt();
    @Nullable Instant earliest = null;
    for (NodeInfo node : view.nodes()) {
      Instant deadline = deadline(node, self, staleAfter, owners);
      if (deadline != null
          && deadline.isAfter(readAt)
          && (earliest == null || deadline.isBefore(earliest))) {
        earliest = deadline;
      }
    }
    return earliest == null ? 0 : Duration.between(readAt, earliest).plus(MARGIN).toNanos();
  }

  private static @Nullable Instant deadline(
      NodeInfo node, String self, Duration staleAfter, Set<String> owners) {
    if (node.nodeId().equals(self)) {
      return null;
    }
    return switch (node.status()) {
      case JOINING, ACTIVE -> node.heartbeatAt().plus(staleAfter);
      case LEAVING, DEAD ->
          owners.contains(node.nodeId()) ? node.heartbeatAt().plus(node.selfFenceAfter()) : null;
    };
  }
}
