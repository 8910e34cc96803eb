package io.tenure.internal.cluster;

import io.tenure.ClusterEvent;
import io.tenure.ContentionException;
import io.tenure.NodeInfo;
import io.tenure.NodeSettings;
import io.tenure.StoreException;
import io.tenure.spi.EventStore;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.MembershipStore;
import io.tenure.spi.MembershipWrite;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the leader does each tick, every write fenced by its epoch: declare stale nodes dead, delete
 * defunct rows in capped batches, trim the history.
 */
final class LeaderDuties {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderDuties.class);
  private static final int CONTENTION_RETRIES = 3;

  private final MembershipStore membership;
  private final EventStore events;
  private final NodeSettings settings;
  private final History history;
  private final java.util.function.BooleanSupplier steady;

  /**
   * @param steady whether this node's own heartbeats have gone through steadily of late (see {@link
   *     MembershipKeeper#steady}); deaths are declared only then
   */
  LeaderDuties(
      MembershipStore membership,
      EventStore events,
      NodeSettings settings,
      History history,
      java.util.function.BooleanSupplier steady) {
    this.membership = membership;
    this.events = events;
    this.settings = settings;
    this.history = history;
    this.steady = steady;
  }

  void tick(LeaderFence fence) {
    if (steady.getAsBoolean()) {
      declareStaleNodesDead(fence);
    }
    cleanUpDefunct(fence);
    events.trim(settings.eventsToKeep(), settings.eventMaxAge());
  }

  /** SPEC §3.4: never itself, each write fenced and re-checked against the database clock. */
  void declareStaleNodesDead(LeaderFence fence) {
    for (NodeInfo stale : membership.findStale(settings.staleAfter())) {
      if (stale.nodeId().equals(fence.nodeId())) {
        continue;
      }
      MembershipWrite result = MembershipWrite.STALE_VERSION;
      for (int attempt = 0; attempt < 10 && result == MembershipWrite.STALE_VERSION; attempt++) {
        result =
            membership.declareDead(
                stale.nodeId(), settings.staleAfter(), membership.read().version(), fence);
      }
      if (result == MembershipWrite.FENCED) {
        LOG.warn(
            "leader {} at epoch {} was fenced; it stops its duties", fence.nodeId(), fence.epoch());
        return;
      }
      if (result == MembershipWrite.APPLIED) {
        LOG.warn(
            "leader {} declared node {} ({}) dead: last heartbeat {}",
            fence.nodeId(),
            stale.nodeId(),
            stale.name(),
            stale.heartbeatAt());
        history.record(
            ClusterEvent.Kind.DECLARED_DEAD,
            stale.nodeId(),
            fence.epoch(),
            "by " + fence.nodeId() + "; last heartbeat " + stale.heartbeatAt());
      }
    }
  }

  /**
   * SPEC §3.7: at most {@code maxCleanupPerTick} rows, oldest first, in batches. Batches that meet
   * contention are retried; any other failure is thrown with every other failure suppressed on it.
   *
   * @return how many rows were deleted
   */
  int cleanUpDefunct(LeaderFence fence) {
    List<NodeInfo> defunct =
        membership.findDefunct(settings.defunctAfter(), settings.maxCleanupPerTick());
    List<List<NodeInfo>> pending = batches(defunct, settings.cleanupBatchSize());
    int deleted = 0;
    for (int round = 0; round <= CONTENTION_RETRIES && !pending.isEmpty(); round++) {
      List<List<NodeInfo>> contended = new ArrayList<>();
      List<RuntimeException> failures = new ArrayList<>();
      for (List<NodeInfo> batch : pending) {
        try {
          deleted += membership.deleteDefunct(batch, settings.defunctAfter(), fence);
        } catch (ContentionException e) {
          contended.add(batch);
          failures.add(e);
        } catch (StoreException | IllegalStateException e) {
          failures.add(e);
        }
      }
      if (failures.size() > contended.size()) {
        throw aggregate(failures);
      }
      pending = contended;
    }
    if (!pending.isEmpty()) {
      LOG.info("{} cleanup batches still contended; they are retried next tick", pending.size());
    }
    return deleted;
  }

  private static RuntimeException aggregate(List<RuntimeException> failures) {
    RuntimeException first =
        failures.stream()
            .filter(f -> !(f instanceof ContentionException))
            .findFirst()
            .orElse(failures.get(0));
    for (RuntimeException failure : failures) {
      if (failure != first) {
        first.addSuppressed(failure);
      }
    }
    return first;
  }

  static <T> List<List<T>> batches(List<T> items, int size) {
    List<List<T>> batches = new ArrayList<>();
    for (int from = 0; from < items.size(); from += size) {
      batches.add(List.copyOf(items.subList(from, Math.min(items.size(), from + size))));
    }
    return batches;
  }
}
