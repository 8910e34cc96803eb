package io.tenure.chaos;

import io.tenure.DemotionReason;
import io.tenure.NodeListener;
import io.tenure.Stores;
import io.tenure.Tenure;
import io.tenure.TenureNode;
import io.tenure.spi.Store;
import io.tenure.spi.StoreSettings;
import io.tenure.spi.TablePrefix;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A chaos run's node process, started only by {@link ChaosRun} (through {@link NodeProcesses}): one
 * cluster node that runs the {@link ChaosWorkload}, records its leader writes ({@link
 * LeaderWrites}), and for a negative control breaks one guard from outside ({@link UnsafeGuard}) or
 * stalls its leader passes ({@link LeaderPassStall}). As an application would, it opens a {@link
 * Tenure} on its store to declare the run's schedules and take the run's named locks ({@link
 * LockWorkload}). This is why {@code tenure node} has no option that records a history or weakens a
 * guard: a throw-away chaos node is the only process that can.
 *
 * <p>Arguments: {@code --name NAME --prefix PREFIX [--work MS] [--lock-work MS] [--exit-with PID]
 * [--unguarded] [--unsafe GUARD] [--stall-leader-pass MS]}; the store URL comes in {@link
 * NodeProcesses#STORE_VARIABLE}. SIGTERM leaves gracefully; state changes are lines on stdout.
 */
public final class ChaosNode {
  private static final Set<String> FLAGS = Set.of("--unguarded");
  private static final Set<String> VALUED =
      Set.of(
          "--name",
          "--prefix",
          "--work",
          "--lock-work",
          "--exit-with",
          "--unsafe",
          "--stall-leader-pass");

  private ChaosNode() {}

  /** Runs one node until SIGTERM, or until the process {@code --exit-with} names ends. */
  public static void main(String[] args) throws InterruptedException {
    Map<String, String> options = parse(args);
    String url = System.getenv(NodeProcesses.STORE_VARIABLE);
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException("no store: set " + NodeProcesses.STORE_VARIABLE);
    }
    String name = required(options, "--name");
    String prefix = required(options, "--prefix");
    Duration work = Duration.ofMillis(number(options, "--work", ChaosWorkload.DEFAULT_WORK));
    Duration lockWork =
        Duration.ofMillis(number(options, "--lock-work", ChaosWorkload.DEFAULT_WORK));
    Duration stall = Duration.ofMillis(number(options, "--stall-leader-pass", Duration.ZERO));
    Optional<UnsafeGuard> unsafe =
        Optional.ofNullable(options.get("--unsafe")).map(ChaosNode::guard);
    boolean guarded = !options.containsKey("--unguarded");

    Store store = Stores.open(new StoreSettings(url, TablePrefix.of(prefix), true));
    History history = new History(url, prefix);
    history.create();
    // Outermost first: the stall, then the recording (a write is recorded when it reaches the
    // store), then the broken guard, which the workload's queues go through too.
    Store broken = unsafe.map(guard -> guard.breakIn(store)).orElse(store);
    Store nodeStore = LeaderPassStall.around(LeaderWrites.recorded(broken, history, name), stall);
    io.tenure.TenureNodeBuilder builder = TenureNode.builder(nodeStore).name(name);
    ChaosWorkload.register(builder, broken, history, name, guarded, work);
    TenureNode node = builder.listener(new StateLines(name)).build();
    ChaosWorkload.sampleLeadership(node, history, name);
    // The application's side: schedules declared at start by every node, racing; locks taken in
    // turn. Through the broken store, so a negative control reaches them too.
    Tenure tenure = Tenure.on(broken, name);
    ChaosWorkload.declareSchedules(tenure, history, name);

    CountDownLatch stopped = new CountDownLatch(1);
    AtomicReference<LockWorkload> locks = new AtomicReference<>();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  line(name, "leaving");
                  LockWorkload started = locks.get();
                  if (started != null) {
                    started.close();
                  }
                  node.close();
                  tenure.close(); // releases any lock still held, and closes the store
                  store.close();
                  history.close();
                  stopped.countDown();
                },
                "chaos-node-shutdown"));
    node.start();
    locks.set(LockWorkload.start(tenure.locks(), history, name, lockWork));
    line(name, "joined as " + node.nodeId() + describe(unsafe, stall));
    if (options.containsKey("--exit-with")) {
      ProcessHandle.of(number(options, "--exit-with", 0))
          .ifPresentOrElse(
              parent -> parent.onExit().thenRun(() -> System.exit(0)), () -> System.exit(0));
    }
    stopped.await();
  }

  private static String describe(Optional<UnsafeGuard> unsafe, Duration stall) {
    return unsafe.map(guard -> "; UNSAFE: guard '" + guard + "' broken").orElse("")
        + (stall.isZero() ? "" : "; leader passes stall " + stall.toMillis() + " ms");
  }

  private static Map<String, String> parse(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (FLAGS.contains(args[i])) {
        options.put(args[i], "");
      } else if (VALUED.contains(args[i]) && i + 1 < args.length) {
        options.put(args[i], args[++i]);
      } else {
        throw new IllegalArgumentException(
            "chaos node: unknown or incomplete argument '"
                + args[i]
                + "' in "
                + Arrays.toString(args));
      }
    }
    return options;
  }

  private static String required(Map<String, String> options, String option) {
    String value = options.get(option);
    if (value == null) {
      throw new IllegalArgumentException("chaos node: " + option + " is required");
    }
    return value;
  }

  private static long number(Map<String, String> options, String option, Duration otherwise) {
    return number(options, option, otherwise.toMillis());
  }

  private static long number(Map<String, String> options, String option, long otherwise) {
    String value = options.get(option);
    if (value == null) {
      return otherwise;
    }
    long number = Long.parseLong(value);
    if (number < 0) {
      throw new IllegalArgumentException("chaos node: " + option + " must be 0 or more: " + value);
    }
    return number;
  }

  private static UnsafeGuard guard(String label) {
    return UnsafeGuard.of(label)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "chaos node: unknown --unsafe guard '"
                        + label
                        + "'; use "
                        + UnsafeGuard.labels()));
  }

  private static void line(String name, String what) {
    System.out.println(Instant.now() + " node (" + name + ") " + what);
    System.out.flush();
  }

  /** Each edge of the node as a line in its log, for a reader of a run's folder. */
  private record StateLines(String name) implements NodeListener {
    @Override
    public void onPromoted(long epoch) {
      line(name, "is leader at epoch " + epoch);
    }

    @Override
    public void onDemoted(long epoch, DemotionReason reason) {
      line(name, "is no longer leader at epoch " + epoch + ": " + reason);
    }

    @Override
    public void onSelfFenced() {
      line(name, "self-fenced: no heartbeat succeeded in time");
    }

    @Override
    public void onUnfenced() {
      line(name, "heart-beats again");
    }

    @Override
    public void onRejoined(String previousNodeId, String nodeId) {
      line(name, "was ejected and rejoined as " + nodeId);
    }
  }
}
