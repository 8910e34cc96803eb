package io.tenure.internal.agents;

import io.tenure.Agent;
import io.tenure.AgentAssignment;
import io.tenure.AgentContext;
import io.tenure.AgentFamily;
import io.tenure.AgentUri;
import io.tenure.ClusterEvent;
import io.tenure.NodeSettings;
import io.tenure.spi.AgentStore;
import io.tenure.spi.AssignmentWrite;
import io.tenure.spi.EventStore;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.MembershipView;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs this node's agents (SPEC §5): the leader pass when this node leads, and the node sweep that
 * starts, stops, releases and restores agents. Agent calls run on virtual threads with a deadline;
 * a call past its deadline is abandoned, not interrupted, and its agent stays in the starting or
 * stopping set until it returns, so it is never started or stopped twice. A row is released only
 * after its agent's stop returned, so no other node can start it while it still runs.
 */
public final class AgentRuntime {
  private static final Logger LOG = LoggerFactory.getLogger(AgentRuntime.class);

  private final AgentStore store;
  private final NodeSettings settings;
  private final Map<String, AgentFamily> families;
  private final Supplier<String> nodeId;
  private final EventStore events;
  private final ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();
  private final ReconciliationSweep sweep = new ReconciliationSweep();
  private final PlacementQuiet quiet;

  // Guarded by this.
  private final Map<AgentUri, Running> running = new HashMap<>();
  private final Set<AgentUri> busy = new HashSet<>();
  private final Map<AgentUri, Long> stoppedAt = new HashMap<>();

  /** Unreadable rows already recorded in the history by this node's passes. */
  private final Set<String> reportedSkips = new HashSet<>();

  private long tick;
  private long stopSequence;

  private record Running(Agent agent, Context context) {}

  public AgentRuntime(
      AgentStore store,
      NodeSettings settings,
      Map<String, AgentFamily> families,
      Supplier<String> nodeId,
      EventStore events,
      io.tenure.Ticker ticker) {
    this.quiet =
        new PlacementQuiet(
            settings.initialPlacementQuiet(), settings.initialPlacementMaxDelay(), ticker);
    this.store = store;
    this.settings = settings;
    this.families = Map.copyOf(families);
    this.nodeId = nodeId;
    this.events = events;
  }

  /**
   * The leader's pass: plan from a snapshot, then apply each write under the fence.
   *
   * @return 0, or how many nanoseconds until agents that have no row yet may be placed: they are
   *     held back while membership is not yet quiet ({@code initialPlacementDelay}); the caller may
   *     run the next pass then
   */
  public long leaderPass(LeaderFence fence, MembershipView membership) {
    if (families.isEmpty()) {
      return 0;
    }
    long began = System.nanoTime();
    Map<String, Set<AgentUri>> wanted = new TreeMap<>();
    families.forEach((scheme, family) -> wanted.put(scheme, wantedOf(family)));
    List<AgentAssignment> rows = store.readAll();
    long read = System.nanoTime();
    recordSkippedRows(fence);
    long hold = quiet.holdFor(membership, hasNewAgents(wanted, rows));
    List<PlanAction> plan =
        AssignmentPlanner.plan(
            membership.nodes(), wanted, rows, settings.maxMovesPerPass(), hold == 0);
    long planned = System.nanoTime();
    if (hold > 0) {
      LOG.debug(
          "leader {}: agents without a row wait up to {} ms more for membership to be quiet",
          fence.nodeId(),
          hold / 1_000_000);
    }
    try {
      apply(plan, fence, membership);
    } finally {
      long took = System.nanoTime() - began;
      // A pass slower than a renew interval is worth an operator's look: it delays the next one.
      boolean slow = took > settings.renewInterval().toNanos();
      if (slow || LOG.isDebugEnabled()) {
        String line =
            "agent pass of leader {} at epoch {}: {} rows read in {} ms, {} writes planned in {} ms, applied in {} ms";
        Object[] args = {
          fence.nodeId(),
          fence.epoch(),
          rows.size(),
          (read - began) / 1_000_000,
          plan.size(),
          (planned - read) / 1_000_000,
          (System.nanoTime() - planned) / 1_000_000
        };
        if (slow) {
          LOG.info(line, args);
        } else {
          LOG.debug(line, args);
        }
      }
    }
    return hold;
  }

  /** Each row the store could not read goes into the history once, for the operator to fix. */
  private void recordSkippedRows(LeaderFence fence) {
    java.util.SortedMap<String, String> skipped = store.skippedRows().reasons();
    for (Map.Entry<String, String> row : skipped.entrySet()) {
      synchronized (this) {
        if (reportedSkips.contains(row.getKey())) {
          continue;
        }
      }
      try {
        events.append(
            ClusterEvent.Kind.AGENT_ROW_SKIPPED,
            nodeId.get(),
            fence.epoch(),
            "agent row '"
                + row.getKey()
                + "' cannot be read and is skipped: "
                + row.getValue()
                + "; no pass places, frees or retires it: fix or delete it");
        synchronized (this) {
          reportedSkips.add(row.getKey());
        }
      } catch (RuntimeException e) {
        // Tried again on the next pass.
        LOG.debug("could not record the skipped agent row {}: {}", row.getKey(), e.toString());
      }
    }
  }

  private static boolean hasNewAgents(
      Map<String, Set<AgentUri>> wanted, List<AgentAssignment> rows) {
    Set<AgentUri> withRows = new HashSet<>();
    rows.forEach(row -> withRows.add(row.uri()));
    return wanted.values().stream().flatMap(Set::stream).anyMatch(uri -> !withRows.contains(uri));
  }

  private void apply(List<PlanAction> plan, LeaderFence fence, MembershipView membership) {
    // Placements go in one fenced transaction: a cold start is one write, not one per agent.
    Map<AgentUri, @org.jspecify.annotations.Nullable String> targets =
        new java.util.LinkedHashMap<>();
    Set<AgentUri> onlyIfUnowned = new HashSet<>();
    for (PlanAction action : plan) {
      if (action instanceof PlanAction.Place place) {
        targets.put(place.uri(), place.target());
        if (place.unowned()) {
          onlyIfUnowned.add(place.uri());
        }
      } else if (action instanceof PlanAction.Unplace unplace) {
        targets.put(unplace.uri(), null);
      }
    }
    // A row claimed between the snapshot and this write keeps its target: the plan counted its
    // re-targeting as free, and a hand-off of a running agent would exceed maxMovesPerPass.
    if (store.placeAll(targets, onlyIfUnowned, fence) == AssignmentWrite.FENCED) {
      LOG.warn(
          "leader {} at epoch {} was fenced during its agent pass; it stops",
          fence.nodeId(),
          fence.epoch());
      return;
    }
    for (PlanAction action : plan) {
      AssignmentWrite result =
          switch (action) {
            case PlanAction.Place place -> {
              if (place.move()) {
                record(
                    ClusterEvent.Kind.AGENT_MOVED,
                    place.uri(),
                    fence.epoch(),
                    "to " + named(place.target(), membership));
              }
              yield AssignmentWrite.APPLIED;
            }
            case PlanAction.Unplace unplace -> AssignmentWrite.APPLIED;
            case PlanAction.Retire retire -> store.retire(retire.uri(), fence);
            case PlanAction.ReleaseFromDeadOwner dead ->
                store.releaseFromDeadOwner(dead.uri(), dead.deadOwner(), fence);
          };
      if (result == AssignmentWrite.FENCED) {
        LOG.warn(
            "leader {} at epoch {} was fenced during its agent pass; it stops",
            fence.nodeId(),
            fence.epoch());
        return;
      }
    }
  }

  /** A node as events show it: its name, with its incarnation id (names repeat across restarts). */
  private static String named(
      @org.jspecify.annotations.Nullable String nodeId, MembershipView membership) {
    return membership.nodes().stream()
        .filter(n -> n.nodeId().equals(nodeId))
        .findFirst()
        .map(n -> n.name() + " (" + nodeId + ")")
        .orElse(String.valueOf(nodeId));
  }

  private static Set<AgentUri> wantedOf(AgentFamily family) {
    Set<AgentUri> agents = family.wantedAgents();
    for (AgentUri uri : agents) {
      if (!uri.scheme().equals(family.scheme())) {
        throw new IllegalStateException(
            "family '" + family.scheme() + "' listed " + uri + " of another scheme");
      }
    }
    return agents;
  }

  /** One node sweep that may take {@code maxReconciliationsPerTick} actions. */
  public void sweepTick() {
    int cap = settings.maxReconciliationsPerTick();
    sweepTick(cap > 0 ? cap : Integer.MAX_VALUE);
  }

  /**
   * One node sweep.
   *
   * @param most the most actions it may take (the per-tick cap, less what recent woken sweeps took)
   * @return how many actions it took
   */
  public int sweepTick(int most) {
    if (most <= 0) {
      throw new IllegalArgumentException(
          "a sweep must be allowed at least one action, was " + most);
    }
    long snapshotSequence;
    Set<AgentUri> runningNow;
    Set<AgentUri> busyNow;
    synchronized (this) {
      snapshotSequence = stopSequence;
      tick++;
    }
    String me = nodeId.get();
    synchronized (this) {
      runningNow = Set.copyOf(running.keySet());
      busyNow = Set.copyOf(busy);
    }
    // Only the rows that concern this node: O(its agents), not O(all agents).
    java.util.Set<AgentUri> mine = new java.util.HashSet<>(runningNow);
    mine.addAll(busyNow);
    List<AgentAssignment> rows = store.readFor(me, mine);
    List<AgentUri> starts = new java.util.ArrayList<>();
    List<CompletableFuture<Void>> stops = new java.util.ArrayList<>();
    List<SweepAction> actions = sweep.sweep(me, rows, runningNow, busyNow, tick, most);
    for (SweepAction action : actions) {
      switch (action) {
        case SweepAction.Start s -> starts.add(s.uri());
        // Stops run side by side, as in stopAll: a tick's stops take one deadline, not one each.
        case SweepAction.StopAndRelease s ->
            stops.add(CompletableFuture.runAsync(() -> stop(s.uri(), true), calls));
        case SweepAction.StopOrphan s ->
            stops.add(CompletableFuture.runAsync(() -> stop(s.uri(), false), calls));
        case SweepAction.Release r -> guarded(action, me, () -> store.release(r.uri(), me));
        case SweepAction.Restore r -> guarded(action, me, () -> restore(r.uri(), me));
      }
    }
    if (!stops.isEmpty()) {
      await(
          CompletableFuture.allOf(stops.toArray(CompletableFuture[]::new)),
          settings.agentStopTimeout(),
          "stop of " + stops.size() + " agents");
    }
    try {
      startAll(starts, me, snapshotSequence);
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
      stop(uri, false);
      return;
    }
    record(ClusterEvent.Kind.AGENT_RESTORED, uri, epoch.getAsLong(), "row restored by its runner");
    restartIfItsEpochChanged(uri, epoch.getAsLong());
  }

  /**
   * An agent running here whose row now carries another epoch (the row was freed or rewritten by
   * hand and claimed or restored anew) stops, keeping the row; the next sweep starts it with the
   * row's epoch, so the fencing token an agent holds is always the one its row was issued.
   */
  private void restartIfItsEpochChanged(AgentUri uri, long epoch) {
    Running copy;
    synchronized (this) {
      copy = running.get(uri);
    }
    if (copy != null && copy.context().ownershipEpoch() != epoch) {
      LOG.info(
          "agent {} runs here at epoch {} but its row was issued epoch {}; restarting it",
          uri,
          copy.context().ownershipEpoch(),
          epoch);
      stop(uri, false);
    }
  }

  /**
   * Claims the tick's starts in one write, starts them side by side, and records their events in
   * one write: a node with a backlog of 50 costs 2 transactions, not 100.
   */
  private void startAll(List<AgentUri> uris, String me, long snapshotSequence) {
    List<AgentUri> eligible;
    synchronized (this) {
      // A stop that arrived after the snapshot was read wins over a start planned from it.
      eligible =
          uris.stream()
              .filter(
                  uri ->
                      stoppedAt.getOrDefault(uri, Long.MIN_VALUE) <= snapshotSequence
                          && !busy.contains(uri))
              .toList();
    }
    if (eligible.isEmpty()) {
      return;
    }
    Map<AgentUri, Long> epochs = store.claimAll(eligible, me);
    EventBatch events = new EventBatch();
    List<CompletableFuture<Void>> starts = new java.util.ArrayList<>();
    for (AgentUri uri : eligible) {
      Long epoch = epochs.get(uri);
      if (epoch != null) {
        restartIfItsEpochChanged(uri, epoch);
        CompletableFuture<Void> start = launchStart(uri, me, epoch, snapshotSequence, events);
        if (start != null) {
          starts.add(start);
        }
      }
    }
    // Await the bookkeeping stages, not just the calls: once this returns they count as running.
    await(
        CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)),
        settings.agentStartTimeout(),
        "start of " + starts.size() + " agents");
    events.close();
  }

  private @org.jspecify.annotations.Nullable CompletableFuture<Void> launchStart(
      AgentUri uri, String me, long epoch, long snapshotSequence, EventBatch events) {
    synchronized (this) {
      if (running.containsKey(uri)
          || busy.contains(uri)
          || stoppedAt.getOrDefault(uri, Long.MIN_VALUE) > snapshotSequence) {
        return null;
      }
      busy.add(uri);
    }
    AgentFamily family = families.get(uri.scheme());
    if (family == null) {
      synchronized (this) {
        busy.remove(uri);
      }
      store.release(uri, me);
      return null;
    }
    Agent agent = family.build(uri);
    Context context = new Context(uri, me, epoch, settings.agentStartTimeout());
    return CompletableFuture.runAsync(() -> run(() -> agent.start(context)), calls)
        .whenComplete((ok, failure) -> started(uri, agent, context, failure, events));
  }

  private void started(
      AgentUri uri, Agent agent, Context context, Throwable failure, EventBatch events) {
    synchronized (this) {
      busy.remove(uri);
      if (failure == null) {
        running.put(uri, new Running(agent, context));
      }
    }
    if (failure == null) {
      events.add(
          new EventStore.NewEvent(
              ClusterEvent.Kind.AGENT_STARTED,
              nodeId.get(),
              context.ownershipEpoch(),
              uri.toString()));
    } else {
      LOG.warn(
          "agent {} failed to start on node {}: {}", uri, context.nodeId(), failure.toString());
    }
  }

  /** Events of one tick's starts, written together; a start that returns late records its own. */
  private final class EventBatch {
    private final List<EventStore.NewEvent> pending = new java.util.ArrayList<>();
    private boolean closed;

    void add(EventStore.NewEvent event) {
      synchronized (this) {
        if (!closed) {
          pending.add(event);
          return;
        }
      }
      write(List.of(event));
    }

    void close() {
      List<EventStore.NewEvent> batch;
      synchronized (this) {
        closed = true;
        batch = List.copyOf(pending);
      }
      write(batch);
    }

    private void write(List<EventStore.NewEvent> batch) {
      try {
        events.appendAll(batch);
      } catch (RuntimeException e) {
        LOG.debug("could not record {} events: {}", batch.size(), e.toString());
      }
    }
  }

  /** Stops a local agent; releases its row after the stop returned if {@code release}. */
  public void stop(AgentUri uri, boolean release) {
    Running stopping;
    synchronized (this) {
      stoppedAt.put(uri, ++stopSequence);
      stopping = running.remove(uri);
      if (stopping == null) {
        return;
      }
      busy.add(uri);
    }
    Context context = stopping.context().withDeadline(settings.agentStopTimeout());
    // Await the release stage, not just the call: once this returns the row is released too.
    CompletableFuture<Void> done =
        CompletableFuture.runAsync(() -> run(() -> stopping.agent().stop(context)), calls)
            .whenComplete((ok, failure) -> stopped(uri, context, release, failure));
    await(done, settings.agentStopTimeout(), "stop of " + uri);
  }

  private void stopped(AgentUri uri, Context context, boolean release, Throwable failure) {
    synchronized (this) {
      busy.remove(uri);
    }
    if (failure != null) {
      LOG.warn(
          "agent {} failed to stop cleanly on node {}: {}",
          uri,
          context.nodeId(),
          failure.toString());
    }
    record(ClusterEvent.Kind.AGENT_STOPPED, uri, context.ownershipEpoch(), "");
    if (!release) {
      return;
    }
    try {
      if (store.release(uri, context.nodeId())) {
        record(ClusterEvent.Kind.AGENT_RELEASED, uri, context.ownershipEpoch(), "after stop");
      }
    } catch (RuntimeException e) {
      LOG.warn("agent {} stopped but its row was not released: {}", uri, e.toString());
    }
  }

  /**
   * Stops every local agent (self-fence, ejection, leave) at once, not one after another: the whole
   * stop must fit in the margin before the leader may hand them elsewhere. Releases the rows if
   * {@code release}. Returns within one stop deadline.
   */
  public void stopAll(boolean release) {
    Set<AgentUri> uris;
    synchronized (this) {
      uris = Set.copyOf(running.keySet());
    }
    CompletableFuture<?>[] stops =
        uris.stream()
            .map(uri -> CompletableFuture.runAsync(() -> stop(uri, release), calls))
            .toArray(CompletableFuture[]::new);
    await(
        CompletableFuture.allOf(stops),
        settings.agentStopTimeout(),
        "stop of " + uris.size() + " agents");
  }

  /**
   * @return agents running here now
   */
  public synchronized Set<AgentUri> running() {
    return Set.copyOf(running.keySet());
  }

  public void close() {
    calls.shutdown();
  }

  private void record(ClusterEvent.Kind kind, AgentUri uri, long epoch, String detail) {
    try {
      events.append(
          kind, nodeId.get(), epoch, detail.isEmpty() ? uri.toString() : uri + " " + detail);
    } catch (RuntimeException e) {
      LOG.debug("could not record {} of {}: {}", kind, uri, e.toString());
    }
  }

  private interface Call {
    void run() throws Exception;
  }

  private static void run(Call call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new java.util.concurrent.CompletionException(e);
    }
  }

  private static void await(CompletableFuture<?> call, Duration deadline, String what) {
    try {
      call.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      LOG.warn("{} did not return within {}; abandoned (not interrupted)", what, deadline);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException e) {
      // Reported by the completion handler.
    }
  }

  private final class Context implements AgentContext {
    private final AgentUri uri;
    private final String nodeId;
    private final long epoch;
    private final Duration deadline;

    Context(AgentUri uri, String nodeId, long epoch, Duration deadline) {
      this.uri = uri;
      this.nodeId = nodeId;
      this.epoch = epoch;
      this.deadline = deadline;
    }

    Context withDeadline(Duration other) {
      return new Context(uri, nodeId, epoch, other);
    }

    @Override
    public AgentUri uri() {
      return uri;
    }

    @Override
    public String nodeId() {
      return nodeId;
    }

    @Override
    public long ownershipEpoch() {
      return epoch;
    }

    @Override
    public boolean stillOwner() {
      return store.stillOwner(uri, nodeId, epoch);
    }

    @Override
    public Duration deadline() {
      return deadline;
    }
  }
}
