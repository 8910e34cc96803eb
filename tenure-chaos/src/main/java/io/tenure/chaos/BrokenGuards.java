package io.tenure.chaos;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import io.tenure.MessageStatus;
import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import io.tenure.QueueMessage;
import io.tenure.ScheduleInfo;
import io.tenure.spi.AgentStore;
import io.tenure.spi.AssignmentWrite;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.Lease;
import io.tenure.spi.LockStore;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.NewMessage;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Resolution;
import io.tenure.spi.ScheduleFiring;
import io.tenure.spi.ScheduleStore;
import io.tenure.spi.Store;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The decorators of {@link UnsafeGuard}: each breaks one rule from outside the store, the way a
 * store without that guard would behave, so the harness can show its checker catches the result.
 * Never used outside a chaos run's own node processes.
 */
final class BrokenGuards {
  private BrokenGuards() {}

  /**
   * Resolves carry the message's current claim token instead of their own: a superseded owner's
   * late outcome lands on the message's new claim, as long as the message is in flight.
   */
  static Store skipClaimToken(Store store) {
    return Decorators.withQueues(
        store,
        queues ->
            Decorators.proxy(
                QueueStore.class,
                (proxy, method, args) -> {
                  if (method.getName().equals("resolve") && args != null && args.length == 2) {
                    args[0] = currentClaims(queues, resolutions(args[0]));
                  }
                  return Decorators.call(queues, method, args);
                }));
  }

  @SuppressWarnings("unchecked")
  private static List<Resolution> resolutions(Object argument) {
    return (List<Resolution>) argument;
  }

  private static List<Resolution> currentClaims(QueueStore queues, List<Resolution> resolutions) {
    return resolutions.stream()
        .map(
            resolution -> {
              long id = resolution.claim().id();
              Optional<QueueMessage> row = queues.find(id);
              return row.filter(m -> m.status() == MessageStatus.INFLIGHT && m.claimToken() != null)
                  .map(
                      m ->
                          new Resolution(
                              new MessageClaim(id, m.claimToken()), resolution.outcome()))
                  .orElse(resolution);
            })
        .toList();
  }

  /** How often a broken fire is tried again after it found the schedule moved on. */
  private static final int REFIRES = 3;

  /**
   * A schedule's fire (SPEC §10.2) without its three guards: each slot's message gets a dedupe key
   * of its own (the slot's key, then {@code #unsafe-} and a random id, so it still names its slot),
   * the fire carries the fence of whoever holds the leader lease now instead of the firer's own,
   * and a fire refused because the schedule moved on since it was read ({@code Lost}) is made again
   * on the schedule's current version. A deposed leader's stale plan then enqueues its slots a
   * second time, and moves the schedule back to where that plan would have left it.
   */
  static Store skipScheduleDedupe(Store store) {
    return Decorators.withSchedules(
        store,
        schedules ->
            Decorators.proxy(
                ScheduleStore.class,
                (proxy, method, args) -> {
                  if (!method.getName().equals("fire") || args == null) {
                    return Decorators.call(schedules, method, args);
                  }
                  LeaderFence own = (LeaderFence) args[0];
                  ScheduleFiring firing = uniqueKeys((ScheduleFiring) args[1]);
                  ScheduleFiring.Result result = schedules.fire(currentLeader(store, own), firing);
                  for (int i = 0; i < REFIRES && result instanceof ScheduleFiring.Lost; i++) {
                    Optional<ScheduleInfo> now = schedules.read(firing.name());
                    if (now.isEmpty()) {
                      break;
                    }
                    firing =
                        new ScheduleFiring(
                            firing.name(),
                            now.get().version(),
                            firing.slots(),
                            firing.skipped(),
                            firing.nextFireAt());
                    result = schedules.fire(currentLeader(store, own), firing);
                  }
                  return result;
                }));
  }

  private static ScheduleFiring uniqueKeys(ScheduleFiring firing) {
    return new ScheduleFiring(
        firing.name(),
        firing.version(),
        firing.slots().stream()
            .map(slot -> new ScheduleFiring.Slot(slot.at(), uniqueKey(slot.message())))
            .toList(),
        firing.skipped(),
        firing.nextFireAt());
  }

  private static NewMessage uniqueKey(NewMessage m) {
    return new NewMessage(
        m.queue(),
        m.key(),
        m.payload(),
        m.contentType(),
        m.headers(),
        m.priority(),
        m.maxAttempts(),
        m.delay(),
        m.dedupeKey() + "#unsafe-" + UUID.randomUUID());
  }

  /** The fence of whoever holds the leader lease now, or {@code otherwise} if nobody does. */
  private static LeaderFence currentLeader(Store store, LeaderFence otherwise) {
    Lease lease = store.leases().read();
    return lease.holder() == null ? otherwise : new LeaderFence(lease.holder(), lease.epoch());
  }

  /**
   * A named lock's fence (SPEC §11, LockStore K10) without its check: {@code holds(connection,
   * grant)} answers true for any grant, a superseded one too, and locks nothing, so a holder that
   * lost its lock while it was frozen commits its write after the next holder's.
   */
  static Store skipLockToken(Store store) {
    return Decorators.withLocks(
        store,
        locks ->
            Decorators.proxy(
                LockStore.class,
                (proxy, method, args) ->
                    method.getName().equals("holds") && args != null && args.length == 2
                        ? Boolean.TRUE
                        : Decorators.call(locks, method, args)));
  }

  /**
   * Every leader-only assignment write carries the fence of whoever holds the leader lease now
   * instead of the writer's own: a deposed leader's pass is applied while any leader holds the
   * lease.
   */
  static Store skipLeaderFence(Store store) {
    return Decorators.withAgents(
        store,
        agents ->
            Decorators.proxy(
                AgentStore.class,
                (proxy, method, args) -> {
                  if (args != null) {
                    for (int i = 0; i < args.length; i++) {
                      if (args[i] instanceof LeaderFence) {
                        Lease lease = store.leases().read();
                        if (lease.holder() != null) {
                          args[i] = new LeaderFence(lease.holder(), lease.epoch());
                        }
                      }
                    }
                  }
                  return Decorators.call(agents, method, args);
                }));
  }

  /**
   * A move frees the row from its owner as soon as the leader placed it elsewhere, instead of the
   * owner releasing it once its agent stopped: the target starts the agent while the owner still
   * runs it. A move is what the planner counts as one: a row re-targeted away from an active owner
   * (a dead owner's rows are freed by their own fenced release, which this leaves alone).
   */
  static Store skipHandoff(Store store) {
    return Decorators.withAgents(
        store,
        agents ->
            Decorators.proxy(
                AgentStore.class,
                (proxy, method, args) -> {
                  if (!method.getName().equals("placeAll") || args == null) {
                    return Decorators.call(agents, method, args);
                  }
                  Map<AgentUri, String> moves = moves(store, agents, targets(args[0]));
                  Object result = Decorators.call(agents, method, args);
                  if (result == AssignmentWrite.APPLIED) {
                    moves.forEach((uri, owner) -> freeAtOnce(agents, uri, owner));
                  }
                  return result;
                }));
  }

  @SuppressWarnings("unchecked")
  private static Map<AgentUri, @Nullable String> targets(Object argument) {
    return (Map<AgentUri, @Nullable String>) argument;
  }

  /** The placements that move a row away from an active owner: uri to that owner. */
  private static Map<AgentUri, String> moves(
      Store store, AgentStore agents, Map<AgentUri, @Nullable String> targets) {
    Map<AgentUri, String> moves = new HashMap<>();
    if (targets.isEmpty()) {
      return moves;
    }
    Set<String> active =
        store.membership().read().nodes().stream()
            .filter(node -> node.status() == NodeStatus.ACTIVE)
            .map(NodeInfo::nodeId)
            .collect(Collectors.toSet());
    for (AgentAssignment row : agents.readAll()) {
      String target = targets.get(row.uri());
      String owner = row.owner();
      if (target != null && owner != null && !owner.equals(target) && active.contains(owner)) {
        moves.put(row.uri(), owner);
      }
    }
    return moves;
  }

  private static void freeAtOnce(AgentStore agents, AgentUri uri, String owner) {
    agents
        .read(uri)
        .filter(
            row -> owner.equals(row.owner()) && row.target() != null && !owner.equals(row.target()))
        .ifPresent(
            row ->
                agents.upsert(
                    new AgentAssignment(
                        row.uri(), null, row.target(), row.epoch(), row.paused(), row.pinnedTo())));
  }
}
