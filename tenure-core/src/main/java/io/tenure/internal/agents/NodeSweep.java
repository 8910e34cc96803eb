package io.tenure.internal.agents;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import io.tenure.ClusterEvent;
import io.tenure.NodeSettings;
import io.tenure.spi.AgentStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's reconciliation sweep (SPEC §5): read the rows that concern this node, decide what to
 * start, stop, release and restore ({@link ReconciliationSweep}), and carry it out through the
 * {@link AgentSupervisor}, which owns what runs here.
 */
final class NodeSweep {
  // One logger name for the whole runtime: operators turn it up by that name (docs/BENCHMARKS.md).
  private static final Logger LOG = LoggerFactory.getLogger(AgentRuntime.class);

  private final AgentStore store;
  private final NodeSettings settings;
  private final Supplier<String> nodeId;
  private final AgentSupervisor agents;
  private final AgentEvents events;
  private final ReconciliationSweep sweep = new ReconciliationSweep();

  // Guarded by this.
  private long tick;

  NodeSweep(
      AgentStore store,
      NodeSettings settings,
      Supplier<String> nodeId,
      AgentSupervisor agents,
      AgentEvents events) {
    this.store = store;
    this.settings = settings;
    this.nodeId = nodeId;
    this.agents = agents;
    this.events = events;
  }

  /** See {@link AgentRuntime#sweepTick(int)}. */
  int run(int most) {
    if (most <= 0) {
      throw new IllegalArgumentException(
          "a sweep must be allowed at least one action, was " + most);
    }
    long thisTick;
    synchronized (this) {
      thisTick = ++tick;
    }
    AgentSupervisor.Snapshot snapshot = agents.snapshot();
    String me = nodeId.get();
    // Only the rows that concern this node: O(its agents), not O(all agents).
    Set<AgentUri> mine = new HashSet<>(snapshot.running());
    mine.addAll(snapshot.busy());
    List<AgentAssignment> rows = store.readFor(me, mine);
    healRewrittenEpochs(rows, me);
    List<AgentUri> starts = new ArrayList<>();
    List<CompletableFuture<Void>> stops = new ArrayList<>();
    List<SweepAction> actions =
        sweep.sweep(me, rows, snapshot.running(), snapshot.busy(), thisTick, most);
    for (SweepAction action : actions) {
      switch (action) {
        case SweepAction.Start s -> starts.add(s.uri());
        // Stops run side by side, as in stopAll: a tick's stops take one deadline, not one each.
        case SweepAction.StopAndRelease s -> stops.add(agents.stopAsync(s.uri(), true));
        case SweepAction.StopOrphan s -> stops.add(agents.stopAsync(s.uri(), false));
        case SweepAction.Release r -> guarded(action, me, () -> store.release(r.uri(), me));
        case SweepAction.Restore r -> guarded(action, me, () -> restore(r.uri(), me));
      }
    }
    if (!stops.isEmpty()) {
      AgentSupervisor.await(
          CompletableFuture.allOf(stops.toArray(CompletableFuture[]::new)),
          settings.agentStopTimeout(),
          "stop of " + stops.size() + " agents");
    }
    try {
      startAll(starts, me, snapshot.stopSequence());
    } catch (RuntimeException e) {
      LOG.warn("node {}: starting {} agents failed: {}", me, starts.size(), e.toString());
    }
    if (!actions.isEmpty() && LOG.isDebugEnabled()) {
      LOG.debug(
          "node {}: sweep took {} actions (at most {})",
          me,
          actions.size(),
          most == Integer.MAX_VALUE ? "any" : most);
    }
    return actions.size();
  }

  /**
   * Rows this node owns whose epoch is not the one their running copy holds: rewritten by hand (or
   * a restored backup). Claiming them again puts back the epoch the record says this node holds, or
   * hands the row to the node the record names; an agent whose epoch thereby changed restarts. Left
   * alone, everything fenced by such a row (an exclusive queue's claims) would be refused for as
   * long as the agent runs.
   */
  private void healRewrittenEpochs(List<AgentAssignment> rows, String me) {
    List<AgentUri> rewritten =
        rows.stream()
            .filter(row -> me.equals(row.owner()))
            .filter(
                row -> {
                  OptionalLong runsAt = agents.runningEpoch(row.uri());
                  return runsAt.isPresent() && runsAt.getAsLong() != row.epoch();
                })
            .map(AgentAssignment::uri)
            .toList();
    if (rewritten.isEmpty()) {
      return;
    }
    try {
      Map<AgentUri, Long> epochs = store.claimAll(rewritten, me);
      for (AgentUri uri : rewritten) {
        Long epoch = epochs.get(uri);
        LOG.warn(
            "node {}: the row of agent {} was rewritten under it to another epoch; {}",
            me,
            uri,
            epoch == null ? "another node holds its epoch: stopping it" : "claimed it again");
        if (epoch == null) {
          agents.stop(uri, false);
        } else {
          restartIfItsEpochChanged(uri, epoch);
        }
      }
    } catch (RuntimeException e) {
      LOG.warn("node {}: could not claim rewritten rows {} again: {}", me, rewritten, e.toString());
    }
  }

  private static void guarded(SweepAction action, String me, Runnable write) {
    try {
      write.run();
    } catch (RuntimeException e) {
      LOG.warn("node {}: {} failed: {}", me, action, e.toString());
    }
  }

  private void restore(AgentUri uri, String me) {
    OptionalLong epoch = store.claimIfAbsent(uri, me);
    if (epoch.isEmpty()) {
      agents.stop(uri, false);
      return;
    }
    events.record(
        ClusterEvent.Kind.AGENT_RESTORED, uri, epoch.getAsLong(), "row restored by its runner");
    restartIfItsEpochChanged(uri, epoch.getAsLong());
  }

  /**
   * An agent running here whose row now carries another epoch (the row was freed or rewritten by
   * hand and claimed or restored anew) stops, keeping the row; the next sweep starts it with the
   * row's epoch, so the fencing token an agent holds is always the one its row was issued.
   */
  private void restartIfItsEpochChanged(AgentUri uri, long epoch) {
    OptionalLong runsAt = agents.runningEpoch(uri);
    if (runsAt.isPresent() && runsAt.getAsLong() != epoch) {
      LOG.info(
          "agent {} runs here at epoch {} but its row was issued epoch {}; restarting it",
          uri,
          runsAt.getAsLong(),
          epoch);
      agents.stop(uri, false);
    }
  }

  /**
   * Claims the tick's starts in one write, starts them side by side, and records their events in
   * one write: a node with a backlog of 50 costs 2 transactions, not 100.
   */
  private void startAll(List<AgentUri> uris, String me, long snapshotSequence) {
    // A stop that arrived after the snapshot was read wins over a start planned from it.
    List<AgentUri> eligible = agents.startable(uris, snapshotSequence);
    if (eligible.isEmpty()) {
      return;
    }
    Map<AgentUri, Long> epochs = store.claimAll(eligible, me);
    AgentEvents.Batch started = events.batch();
    List<CompletableFuture<Void>> starts = new ArrayList<>();
    for (AgentUri uri : eligible) {
      Long epoch = epochs.get(uri);
      if (epoch != null) {
        restartIfItsEpochChanged(uri, epoch);
        CompletableFuture<Void> start = agents.start(uri, me, epoch, snapshotSequence, started);
        if (start != null) {
          starts.add(start);
        }
      }
    }
    // Await the bookkeeping stages, not just the calls: once this returns they count as running.
    AgentSupervisor.await(
        CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)),
        settings.agentStartTimeout(),
        "start of " + starts.size() + " agents");
    started.close();
  }
}
