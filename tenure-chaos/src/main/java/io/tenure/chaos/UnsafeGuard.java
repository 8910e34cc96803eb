package io.tenure.chaos;

import io.tenure.spi.Store;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A guard a negative control breaks on every node of a chaos run ({@code tenure chaos --unsafe
 * LABEL}), to show the checker catches what the guard prevents. Each is broken from outside Tenure,
 * by a decorator around the node's store ({@link BrokenGuards}): no shipped class can switch a
 * guard off, so only the harness's own throw-away node processes ({@link ChaosNode}) run one.
 */
public enum UnsafeGuard {
  /** The two-phase hand-off (SPEC §5.3): a move frees the row at once, before its owner stopped. */
  HANDOFF("handoff"),
  /** The claim token on resolves (SPEC §6.3): a late outcome is written over the current claim. */
  TOKEN("token"),
  /** The leader epoch guard on assignment writes (SPEC §4.5): a deposed leader's pass lands. */
  LEADER_FENCE("leader-fence"),
  /**
   * One message per schedule slot (SPEC §10.2): each slot's message gets a dedupe key of its own,
   * and a fire ignores the leader fence and the version it read.
   */
  SCHEDULE_DEDUPE("schedule-dedupe"),
  /** A named lock's fence (SPEC §11): a superseded holder's fenced write commits. */
  LOCK_TOKEN("lock-token"),
  /**
   * The limited queue's limits (SPEC §12.1): the harness never stores them, while the checker still
   * holds the run to them. The nodes are untouched.
   */
  LIMIT("limit"),
  /**
   * A cancel's hold on the claim (SPEC §12.3): the harness records its cancels as made without
   * making them, as a cancel that left the owner's claim in place would. The nodes are untouched.
   */
  CANCEL("cancel");

  private final String label;

  UnsafeGuard(String label) {
    this.label = label;
  }

  /** The name on the command line. */
  public String label() {
    return label;
  }

  /**
   * @return the guard of that label, if any
   */
  public static Optional<UnsafeGuard> of(String label) {
    return Arrays.stream(values()).filter(guard -> guard.label.equals(label)).findFirst();
  }

  /**
   * Every label, for a refusal's message: {@code handoff, token, leader-fence, schedule-dedupe,
   * lock-token, limit or cancel}.
   */
  public static String labels() {
    String all = Arrays.stream(values()).map(UnsafeGuard::label).collect(Collectors.joining(", "));
    int last = all.lastIndexOf(", ");
    return all.substring(0, last) + " or " + all.substring(last + 2);
  }

  /** {@code store} with this guard broken. */
  Store breakIn(Store store) {
    return switch (this) {
      case HANDOFF -> BrokenGuards.skipHandoff(store);
      case TOKEN -> BrokenGuards.skipClaimToken(store);
      case LEADER_FENCE -> BrokenGuards.skipLeaderFence(store);
      case SCHEDULE_DEDUPE -> BrokenGuards.skipScheduleDedupe(store);
      case LOCK_TOKEN -> BrokenGuards.skipLockToken(store);
      case LIMIT, CANCEL -> store; // broken by the harness itself (ChaosRun), not in the nodes
    };
  }

  @Override
  public String toString() {
    return label;
  }
}
