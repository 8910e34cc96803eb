package io.tenure.internal.agents;

import io.tenure.Agent;
import io.tenure.AgentContext;
import io.tenure.AgentFamily;
import io.tenure.AgentUri;
import io.tenure.ClusterEvent;
import io.tenure.NodeSettings;
import io.tenure.spi.AgentStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Supervises this node's agent calls, and is the only owner of which agents run here, which are
 * starting or stopping (busy) and when each was last stopped. Calls run on virtual threads with a
 * deadline; a call past its deadline is abandoned, not interrupted, and its agent stays busy until
 * it returns, so it is never started or stopped twice. A row is released only after its agent's
 * stop returned, so no other node can start it while it still runs.
 */
final class AgentSupervisor {
  // One logger name for the whole runtime: operators turn it up by that name (docs/BENCHMARKS.md).
  private static final Logger LOG = LoggerFactory.getLogger(AgentRuntime.class);

  private final AgentStore store;
  private final NodeSettings settings;
  private final Map<String, AgentFamily> families;
  private final AgentEvents events;
  private final ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();

  // Guarded by this.
  private final Map<AgentUri, Running> running = new HashMap<>();
  private final Set<AgentUri> busy = new HashSet<>();
  private final Map<AgentUri, Long> stoppedAt = new HashMap<>();
  private long stopSequence;

  private record Running(Agent agent, Context context) {}

  /**
   * What a sweep plans from, taken at once.
   *
   * @param stopSequence the stops counted so far: a stop after it wins over a start planned now
   */
  record Snapshot(long stopSequence, Set<AgentUri> running, Set<AgentUri> busy) {}

  AgentSupervisor(
      AgentStore store,
      NodeSettings settings,
      Map<String, AgentFamily> families,
      AgentEvents events) {
    this.store = store;
    this.settings = settings;
    this.families = families;
    this.events = events;
  }

  synchronized Snapshot snapshot() {
    return new Snapshot(stopSequence, Set.copyOf(running.keySet()), Set.copyOf(busy));
  }

  /** Of {@code uris}, those neither busy nor stopped since the snapshot of {@code sequence}. */
  synchronized List<AgentUri> startable(List<AgentUri> uris, long sequence) {
    return uris.stream()
        .filter(uri -> !stoppedSince(uri, sequence) && !busy.contains(uri))
        .toList();
  }

  /**
   * @return the epoch the agent runs at here, if it runs here
   */
  synchronized OptionalLong runningEpoch(AgentUri uri) {
    Running copy = running.get(uri);
    return copy == null ? OptionalLong.empty() : OptionalLong.of(copy.context().ownershipEpoch());
  }

  synchronized Set<AgentUri> running() {
    return Set.copyOf(running.keySet());
  }

  private boolean stoppedSince(AgentUri uri, long sequence) {
    return stoppedAt.getOrDefault(uri, Long.MIN_VALUE) > sequence;
  }

  /**
   * Starts a claimed agent at {@code epoch}, unless it runs, is busy or was stopped since the
   * snapshot; an agent of no family here is released at once.
   *
   * @return the start with its bookkeeping, or null if none was launched
   */
  @Nullable CompletableFuture<Void> start(
      AgentUri uri, String me, long epoch, long sequence, AgentEvents.Batch started) {
    synchronized (this) {
      if (running.containsKey(uri) || busy.contains(uri) || stoppedSince(uri, sequence)) {
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
    return CompletableFuture.runAsync(logged(context, () -> agent.start(context)), calls)
        .whenComplete((ok, failure) -> started(uri, agent, context, failure, started));
  }

  private void started(
      AgentUri uri,
      Agent agent,
      Context context,
      @Nullable Throwable failure,
      AgentEvents.Batch started) {
    synchronized (this) {
      busy.remove(uri);
      if (failure == null) {
        running.put(uri, new Running(agent, context));
      }
    }
    if (failure == null) {
      started.add(ClusterEvent.Kind.AGENT_STARTED, context.ownershipEpoch(), uri.toString());
    } else {
      LOG.warn(
          "agent {} failed to start on node {}: {}", uri, context.nodeId(), failure.toString());
    }
  }

  /** Stops a local agent; releases its row after the stop returned if {@code release}. */
  void stop(AgentUri uri, boolean release) {
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
        CompletableFuture.runAsync(logged(context, () -> stopping.agent().stop(context)), calls)
            .whenComplete((ok, failure) -> stopped(uri, context, release, failure));
    await(done, settings.agentStopTimeout(), "stop of " + uri);
  }

  /** {@link #stop} on a thread of its own: a sweep's or a node's stops run side by side. */
  CompletableFuture<Void> stopAsync(AgentUri uri, boolean release) {
    return CompletableFuture.runAsync(() -> stop(uri, release), calls);
  }

  private void stopped(
      AgentUri uri, Context context, boolean release, @Nullable Throwable failure) {
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
    events.record(ClusterEvent.Kind.AGENT_STOPPED, uri, context.ownershipEpoch(), "");
    if (!release) {
      return;
    }
    try {
      if (store.release(uri, context.nodeId())) {
        events.record(
            ClusterEvent.Kind.AGENT_RELEASED, uri, context.ownershipEpoch(), "after stop");
      }
    } catch (RuntimeException e) {
      LOG.warn("agent {} stopped but its row was not released: {}", uri, e.toString());
    }
  }

  /**
   * Stops every local agent at once, not one after another; releases the rows if {@code release}.
   * Returns within one stop deadline.
   */
  void stopAll(boolean release) {
    Set<AgentUri> uris = running();
    CompletableFuture<?>[] stops =
        uris.stream().map(uri -> stopAsync(uri, release)).toArray(CompletableFuture[]::new);
    await(
        CompletableFuture.allOf(stops),
        settings.agentStopTimeout(),
        "stop of " + uris.size() + " agents");
  }

  void close() {
    calls.shutdown();
  }

  /** Waits up to {@code deadline}; a call past it is abandoned (logged), never interrupted. */
  static void await(CompletableFuture<?> call, Duration deadline, String what) {
    try {
      call.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      LOG.warn("{} did not return within {}; abandoned (not interrupted)", what, deadline);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      // Reported by the completion handler.
    }
  }

  /**
   * An agent's call with the node, the agent and its epoch in the log context (SPEC §13.4); an
   * exclusive queue's consumer, started in the call, keeps them in its threads.
   */
  private Runnable logged(Context context, Call call) {
    return () -> {
      try (var log =
          io.tenure.internal.logging.LogContext.only(
              io.tenure.LogKeys.NODE,
              settings.name(),
              io.tenure.LogKeys.NODE_ID,
              context.nodeId(),
              io.tenure.LogKeys.AGENT,
              context.uri().toString(),
              io.tenure.LogKeys.EPOCH,
              Long.toString(context.ownershipEpoch()))) {
        run(call);
      }
    };
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
      throw new CompletionException(e);
    }
  }

  /** What an agent's calls see: its row, its epoch, and the deadline of the call in progress. */
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
