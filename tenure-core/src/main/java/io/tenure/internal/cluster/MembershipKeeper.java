package io.tenure.internal.cluster;

import io.tenure.ClusterEvent;
import io.tenure.NodeSettings;
import io.tenure.NodeStatus;
import io.tenure.StoreException;
import io.tenure.Ticker;
import io.tenure.spi.MembershipStore;
import io.tenure.spi.MembershipWrite;
import io.tenure.spi.NewNode;
import java.time.Duration;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's membership row (SPEC §3): join, activation, heartbeats, self-fencing, ejection and
 * rejoin, graceful removal. Status changes read the version under a lock in their own transaction
 * ({@code MembershipStore.joinQueued} and friends): nodes joining together queue on that lock
 * instead of failing their compare-and-swap and retrying, and every outcome is final.
 */
final class MembershipKeeper {
  private static final Logger LOG = LoggerFactory.getLogger(MembershipKeeper.class);
  private static final long NEVER = Long.MIN_VALUE;

  private final MembershipStore membership;
  private final NodeSettings settings;
  private final Ticker ticker;
  private final Listeners listeners;
  private final History history;
  private final long selfFenceAfterNanos;

  private volatile String nodeId = UUID.randomUUID().toString();
  // Guarded by this.
  private long heartbeatStartedAt = NEVER;

  /**
   * The start of the first heartbeat of the current unbroken run of them; NEVER after a failure.
   */
  private long steadySince = NEVER;

  private boolean selfFenced;

  MembershipKeeper(
      MembershipStore membership,
      NodeSettings settings,
      Ticker ticker,
      Listeners listeners,
      History history) {
    this.membership = membership;
    this.settings = settings;
    this.ticker = ticker;
    this.listeners = listeners;
    this.history = history;
    this.selfFenceAfterNanos = settings.selfFenceAfter().toNanos();
  }

  String nodeId() {
    return nodeId;
  }

  /**
   * The margin for this node's clock running slow, in percent of what it measures: Linux slews a
   * monotonic clock by at most 500 ppm and a crystal drifts by about 100 ppm, so 1 % is twenty
   * times the worst a healthy host does, and costs 60 ms on the default 6 s window.
   */
  static final int CLOCK_RATE_MARGIN_PERCENT = 1;

  /**
   * How often the watchdog checks the leader trust window and the self-fence deadline: a twentieth
   * of a renew interval, at least every 5 ms.
   */
  static Duration watchdogInterval(NodeSettings settings) {
    Duration watch = settings.renewInterval().dividedBy(20);
    return watch.compareTo(Duration.ofMillis(5)) < 0 ? Duration.ofMillis(5) : watch;
  }

  /**
   * How long after its last heartbeat this node may still run agents: it self-fences after {@code
   * selfFenceAfter}, which its watchdog notices within one period, its sweep within one interval,
   * and its agents' stops return within their deadline; all measured on its own clock, which may
   * run slow by {@link #CLOCK_RATE_MARGIN_PERCENT}. The leader frees its rows only after that, by
   * the database clock (SPEC §5.3); without the watchdog period and the rate margin it could free
   * them while a stop is still running (finding F3, docs/MODEL.md), as {@code fenceAfter <
   * leaseTtl} leaves a margin for the lease.
   */
  static Duration mayRunFor(NodeSettings settings) {
    Duration measured =
        settings
            .selfFenceAfter()
            .plus(watchdogInterval(settings))
            .plus(settings.agentSweepInterval())
            .plus(settings.agentStopTimeout());
    return measured.plus(measured.multipliedBy(CLOCK_RATE_MARGIN_PERCENT).dividedBy(100));
  }

  /** Inserts this incarnation as JOINING, then makes it ACTIVE. */
  void join() {
    long start = ticker.read();
    NewNode node =
        new NewNode(
            nodeId,
            settings.name(),
            settings.address(),
            settings.capabilities(),
            mayRunFor(settings));
    MembershipWrite joined = membership.joinQueued(node);
    if (joined != MembershipWrite.APPLIED) {
      throw new IllegalStateException("node " + nodeId + " could not join: " + joined);
    }
    synchronized (this) {
      heartbeatStartedAt = start;
      steadySince = start;
    }
    history.record(ClusterEvent.Kind.JOINED, nodeId, null, "name " + settings.name());
    MembershipWrite activated = membership.changeStatusQueued(nodeId, NodeStatus.ACTIVE);
    if (activated != MembershipWrite.APPLIED) {
      throw new IllegalStateException("node " + nodeId + " could not become ACTIVE: " + activated);
    }
    history.record(ClusterEvent.Kind.ACTIVATED, nodeId, null, "name " + settings.name());
    LOG.info("node {} ({}) joined the cluster", nodeId, settings.name());
  }

  /**
   * One heartbeat.
   *
   * @return false if the row was gone or dead: the caller stops its work and calls {@link
   *     #rejoin()}
   */
  boolean heartbeat() {
    long start = ticker.read();
    boolean alive;
    try {
      alive = membership.heartbeat(nodeId);
    } catch (StoreException e) {
      LOG.warn("heartbeat of node {} failed: {}", nodeId, e.toString());
      synchronized (this) {
        steadySince = NEVER;
      }
      return true;
    }
    if (alive) {
      boolean unfenced;
      synchronized (this) {
        if (steadySince == NEVER
            || heartbeatStartedAt == NEVER
            || start - heartbeatStartedAt > gapNanos()) {
          steadySince =
              start; // a failure, or a gap (this process was frozen, or its heartbeats stalled)
        }
        heartbeatStartedAt = start;
        unfenced = selfFenced;
        selfFenced = false;
      }
      if (unfenced) {
        LOG.info("node {} heart-beats again; lifting its self-fence", nodeId);
        listeners.fire("unfence", l -> l.onUnfenced());
      }
    }
    return alive;
  }

  /** Self-fences once no heartbeat has succeeded for {@code selfFenceAfter}. */
  void checkSelfFence() {
    boolean fenceNow;
    synchronized (this) {
      fenceNow =
          !selfFenced
              && heartbeatStartedAt != NEVER
              && ticker.read() - heartbeatStartedAt > selfFenceAfterNanos;
      if (fenceNow) {
        selfFenced = true;
      }
    }
    if (fenceNow) {
      LOG.warn(
          "node {} has not heart-beaten for {}; it stops its work (self-fence)",
          nodeId,
          settings.selfFenceAfter());
      listeners.fire("self-fence", l -> l.onSelfFenced());
    }
  }

  /**
   * Whether this node may judge others' heartbeats (SPEC §3.4): its own heartbeats have gone
   * through, without a failure or a gap, for two intervals, and the latest is recent. After a
   * freeze of this process, or a stall that held every node's heartbeats back (on SQLite a frozen
   * process can hold the one write lock), the others' heartbeats are as old as its own; they get
   * two intervals to heartbeat again before this node declares any of them dead.
   */
  synchronized boolean steady() {
    long now = ticker.read();
    long two = 2 * settings.heartbeatInterval().toNanos();
    return steadySince != NEVER
        && now - heartbeatStartedAt <= gapNanos()
        && now - steadySince >= two;
  }

  /** More than this between two heartbeats' starts is a gap: two intervals and a slow statement. */
  private long gapNanos() {
    return 2 * settings.heartbeatInterval().toNanos() + settings.statementTimeout().toNanos();
  }

  synchronized boolean isSelfFenced() {
    return selfFenced;
  }

  /** Joins again under a new incarnation id, after an ejection. */
  void rejoin() {
    String previous = nodeId;
    nodeId = UUID.randomUUID().toString();
    history.record(ClusterEvent.Kind.EJECTED, previous, null, "rejoins as " + nodeId);
    LOG.warn("node {} found its row gone or dead; rejoining as {}", previous, nodeId);
    join();
    String current = nodeId;
    listeners.fire("rejoin", l -> l.onRejoined(previous, current));
  }

  /** Marks this node LEAVING. */
  void markLeaving() {
    MembershipWrite result = membership.changeStatusQueued(nodeId, NodeStatus.LEAVING);
    if (result != MembershipWrite.APPLIED) {
      LOG.warn("node {} could not mark itself LEAVING: {}", nodeId, result);
    }
  }

  /** Deletes this node's row, the last step of a graceful leave. */
  void remove() {
    MembershipWrite result = membership.removeQueued(nodeId);
    if (result == MembershipWrite.APPLIED) {
      history.record(ClusterEvent.Kind.LEFT, nodeId, null, "name " + settings.name());
    } else {
      LOG.warn("node {} could not remove its row: {}", nodeId, result);
    }
  }
}
