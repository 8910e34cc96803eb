package io.tenure.chaos;

import io.tenure.AgentAssignment;
import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.ScheduleInfo;
import io.tenure.Stores;
import io.tenure.spi.Lease;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.Store;
import io.tenure.spi.StoreSettings;
import io.tenure.spi.TablePrefix;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * One chaos run: start the nodes, feed the workload, inject faults on a seeded schedule, stop the
 * faults, let the cluster settle for a quiet period, then read the history and the tables and check
 * every invariant ({@link Checker}).
 */
public final class ChaosRun {
  private final ChaosSettings settings;
  private final PrintWriter log;

  public ChaosRun(ChaosSettings settings, PrintWriter log) {
    this.settings = settings;
    this.log = log;
  }

  /**
   * Runs and returns the report; the caller decides the exit code from {@link ChaosReport#safe()}.
   */
  public ChaosReport run() throws Exception {
    Files.createDirectories(settings.dir());
    TablePrefix prefix = TablePrefix.of(settings.prefix());
    try (Store store = Stores.open(new StoreSettings(settings.storeUrl(), prefix, true));
        History history = new History(settings.storeUrl(), settings.prefix())) {
      history.create();
      if (settings.unsafe() != UnsafeGuard.LIMIT) {
        ChaosWorkload.queue(store, ChaosWorkload.LIMITED).limit(ChaosWorkload.LIMITS);
      }
      NodeProcesses nodes = new NodeProcesses(nodeCommand(), settings.storeUrl(), settings.dir());
      try {
        for (int i = 1; i <= settings.nodes(); i++) {
          nodes.add("n" + i, nodeArguments("n" + i));
        }
        say(
            "%d nodes started on %s (prefix %s), seed %d; faults for %d s, then %d s quiet",
            settings.nodes(),
            Stores.maskSecrets(settings.storeUrl()),
            settings.prefix(),
            settings.seed(),
            settings.faultPhase().toSeconds(),
            settings.quiet().toSeconds());
        AtomicBoolean producing = new AtomicBoolean(true);
        Thread producer =
            Thread.ofPlatform()
                .name("chaos-producer")
                .start(() -> produce(store, history, producing));
        try {
          injectFaults(store, history, nodes);
        } finally {
          // Also when a fault failed: the producer must not outlive the run's store and tables.
          producing.set(false);
          producer.interrupt();
          producer.join();
        }
        say("faults over; quiet for %d s", settings.quiet().toSeconds());
        Thread.sleep(settings.quiet().toMillis());
        Duration settled = Settling.await(store, history);
        if (settled.toSeconds() > 0) {
          say("the queues settled %d s after the quiet period", settled.toSeconds());
        }
        // The tables first, then the history: a message handled in between then shows in the
        // history as handled (with its outcome not yet written), never as lost.
        FinalState end = finalState(store, history.readAll());
        List<HistoryEvent> events = history.readAll();
        ChaosReport report = Checker.check(events, end);
        return report;
      } finally {
        nodes.stopAll(Duration.ofSeconds(15));
      }
    }
  }

  /** What every node process runs: the harness's own node ({@link ChaosNode}), in a new JVM. */
  private List<String> nodeCommand() {
    List<String> command = new ArrayList<>(settings.jvm());
    command.add(ChaosNode.class.getName());
    return command;
  }

  /**
   * A node's arguments: the store URL is not among them (it is in the environment, see
   * NodeProcesses).
   */
  private List<String> nodeArguments(String name) {
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "--prefix",
                settings.prefix(),
                "--name",
                name,
                "--work",
                Long.toString(settings.work().toMillis()),
                "--lock-work",
                Long.toString(settings.lockWork().toMillis()),
                "--exit-with",
                Long.toString(ProcessHandle.current().pid())));
    if (!settings.guarded()) {
      arguments.add("--unguarded");
    }
    if (settings.unsafe() != null) {
      arguments.addAll(List.of("--unsafe", settings.unsafe().label()));
    }
    if (!settings.stallLeaderPass().isZero()) {
      arguments.addAll(
          List.of("--stall-leader-pass", Long.toString(settings.stallLeaderPass().toMillis())));
    }
    return arguments;
  }

  /**
   * Enqueues round robin to the three queues at the configured rate, each recorded in its
   * transaction.
   */
  private void produce(Store store, History history, AtomicBoolean producing) {
    Map<String, Queue> queues = new HashMap<>();
    for (String name :
        List.of(
            ChaosWorkload.FIFO,
            ChaosWorkload.UNORDERED,
            ChaosWorkload.EXCLUSIVE,
            ChaosWorkload.LIMITED)) {
      queues.put(name, ChaosWorkload.queue(store, name));
    }
    List<String> order =
        List.of(
            ChaosWorkload.FIFO,
            ChaosWorkload.UNORDERED,
            ChaosWorkload.FIFO,
            ChaosWorkload.EXCLUSIVE,
            ChaosWorkload.LIMITED);
    long every = TimeUnit.SECONDS.toNanos(1) / settings.rate();
    long next = System.nanoTime();
    long sequence = 0;
    while (producing.get()) {
      String queue = order.get((int) (sequence % order.size()));
      try {
        long id =
            history.enqueueRecorded(
                queues.get(queue),
                ChaosWorkload.message(queue, sequence),
                ChaosWorkload.historyKey(queue, sequence));
        if (queue.equals(ChaosWorkload.UNORDERED) && id % CANCEL_EVERY == 0) {
          cancel(store, history, id);
        }
        sequence++;
      } catch (RuntimeException e) {
        say("enqueue failed (retrying): %s", e.getMessage());
      }
      next += every;
      long sleep = next - System.nanoTime();
      if (sleep > 0) {
        try {
          TimeUnit.NANOSECONDS.sleep(sleep);
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  /**
   * The producer cancels, right after enqueueing it, each unordered message whose id is a multiple
   * of this: most are still pending, some already claimed (a node's fetch-ahead is quick), a few
   * done; frozen and killed nodes' claims make in-flight cancels too.
   */
  private static final long CANCEL_EVERY = 7;

  /**
   * Cancels a message and records the store's answer (SPEC §12.3). The negative control {@code
   * --unsafe cancel} records a cancel it never made, as a cancel that leaves the claim in place
   * would: the checker must then find the message completed.
   */
  private void cancel(Store store, History history, long id) {
    try {
      String outcome =
          settings.unsafe() == UnsafeGuard.CANCEL
              ? io.tenure.CancelOutcome.CANCELLED_RUNNING.name()
              : store.queues().cancel(id).name();
      history.record(
          HistoryEvent.Kind.CANCELLED,
          "supervisor",
          ChaosWorkload.UNORDERED,
          null,
          id,
          null,
          0,
          null,
          outcome);
    } catch (RuntimeException e) {
      say("cancel of message %d failed: %s", id, e.getMessage());
    }
  }

  /** One fault at a time, each followed by its recovery, until the fault phase ends. */
  private void injectFaults(Store store, History history, NodeProcesses nodes)
      throws InterruptedException {
    Random random = new Random(settings.seed());
    long end = System.nanoTime() + settings.faultPhase().toNanos();
    // Let the cluster form and the workload start before the first fault.
    Thread.sleep(settings.faultEvery().toMillis() / 2);
    List<Fault> faults = new ArrayList<>(List.of(Fault.values()));
    if (settings.storeUrl().startsWith("sqlite:")) {
      faults.remove(Fault.KILL_CONNECTIONS); // an embedded file has no sessions to kill
    }
    if (!settings.faults().isEmpty()) {
      faults.removeIf(fault -> !settings.faults().contains(fault.label));
    } else {
      // Restarting the server takes every node's sessions and the harness's own at once; it runs
      // only when asked for by name (the soak profile does). Pausing the leader on purpose is for
      // targeted runs, and leaving it out keeps what a documented seed draws.
      faults.remove(Fault.RESTART_DATABASE);
      faults.remove(Fault.PAUSE_LEADER);
    }
    if (settings.storeUrl().startsWith("sqlite:")) {
      faults.remove(Fault.RESTART_DATABASE); // no server
    }
    if (faults.isEmpty()) {
      throw new IllegalArgumentException(
          "none of the faults "
              + settings.faults()
              + " applies to "
              + Stores.maskSecrets(settings.storeUrl()));
    }
    while (System.nanoTime() < end) {
      Fault fault = faults.get(random.nextInt(faults.size()));
      String target =
          fault == Fault.KILL_LEADER || fault == Fault.PAUSE_LEADER
              ? leader(store).orElse(null)
              : null;
      if (target == null) {
        List<String> names = nodes.names();
        target = names.get(random.nextInt(names.size()));
      }
      if (fault == Fault.SLOW_DATABASE || fault == Fault.RESTART_DATABASE) {
        target = HistoryEvent.EVERY_NODE;
      }
      inject(fault, target, history, nodes, random);
      long left = end - System.nanoTime();
      if (left <= 0) {
        break;
      }
      Thread.sleep(Math.min(TimeUnit.NANOSECONDS.toMillis(left), settings.faultEvery().toMillis()));
    }
  }

  private void inject(
      Fault fault, String target, History history, NodeProcesses nodes, Random random)
      throws InterruptedException {
    say("fault: %s %s", fault.label, target);
    history.record(HistoryEvent.Kind.FAULT, target, null, null, 0, null, 0, null, fault.label);
    switch (fault) {
      case KILL_LEADER, KILL -> {
        nodes.kill(target);
        Thread.sleep(settings.downFor().toMillis());
        nodes.start(target);
        history.record(
            HistoryEvent.Kind.FAULT_END, target, null, null, 0, null, 0, null, "restart");
      }
      case STOP -> {
        nodes.stop(target, Duration.ofSeconds(15));
        Thread.sleep(settings.downFor().toMillis());
        nodes.start(target);
        history.record(
            HistoryEvent.Kind.FAULT_END, target, null, null, 0, null, 0, null, "restart");
      }
      case KILL_CONNECTIONS -> {
        int killed = history.killSessions(nodes.clientPorts(target, serverPort()));
        say("  killed %d database sessions of %s", killed, target);
        history.record(
            HistoryEvent.Kind.FAULT_END,
            target,
            null,
            null,
            0,
            null,
            0,
            null,
            "killed " + killed + " sessions");
      }
      case RESTART_DATABASE -> {
        long took = DatabaseServer.restart(settings.storeUrl());
        say("  database server restarted in %d ms", took);
        history.record(
            HistoryEvent.Kind.FAULT_END,
            target,
            null,
            null,
            0,
            null,
            0,
            null,
            "restarted in " + took + " ms");
      }
      case SLOW_DATABASE -> {
        Duration hold = Duration.ofMillis(1_000 + random.nextInt(3_000));
        say(
            "  slowing the database: its lease and membership locks (SQLite: its write lock) held for %d ms",
            hold.toMillis());
        history.holdLocks(settings.prefix(), hold);
        history.record(
            HistoryEvent.Kind.FAULT_END,
            target,
            null,
            null,
            0,
            null,
            0,
            null,
            "released after " + hold.toMillis() + " ms");
      }
      case PAUSE, PAUSE_LEADER -> {
        nodes.pause(target);
        Thread.sleep(settings.pauseFor().toMillis());
        nodes.resume(target);
        history.record(HistoryEvent.Kind.FAULT_END, target, null, null, 0, null, 0, null, "resume");
      }
      case AGENT_ROWS -> {
        // No grace in the checker: nodes stay healthy, so a refused write or a shared epoch counts.
        String done = history.tamperAgents(settings.prefix(), target, random);
        say("  agent rows of %s edited by hand: %s", target, done);
        Thread.sleep(settings.downFor().toMillis());
        history.removeUnreadableAgent(settings.prefix());
        history.record(
            HistoryEvent.Kind.FAULT_END,
            target,
            null,
            null,
            0,
            null,
            0,
            null,
            done + "; unreadable row removed after " + settings.downFor().toMillis() + " ms");
      }
    }
  }

  /** The faults a run draws from. */
  private enum Fault {
    KILL_LEADER("kill leader"),
    KILL("kill"),
    PAUSE("pause"),
    STOP("stop"),
    KILL_CONNECTIONS("kill-connections"),
    SLOW_DATABASE("slow-db"),
    RESTART_DATABASE("restart-db"),
    PAUSE_LEADER("pause leader"),
    AGENT_ROWS("agent-rows");

    final String label;

    Fault(String label) {
      this.label = label;
    }
  }

  /** The database server's port, from the store URL (the driver's default if none). */
  private int serverPort() {
    java.util.regex.Matcher port =
        java.util.regex.Pattern.compile("//[^/:]+:(\\d+)").matcher(settings.storeUrl());
    if (port.find()) {
      return Integer.parseInt(port.group(1));
    }
    return settings.storeUrl().startsWith("jdbc:postgresql:") ? 5432 : 3306;
  }

  private static Optional<String> leader(Store store) {
    Lease lease = store.leases().read();
    if (lease.holder() == null || !lease.expiresAt().isAfter(lease.readAt())) {
      return Optional.empty();
    }
    return store.membership().read().nodes().stream()
        .filter(n -> n.nodeId().equals(lease.holder()))
        .map(NodeInfo::name)
        .findFirst();
  }

  private static FinalState finalState(Store store, List<HistoryEvent> events) {
    Map<Long, String> statuses = new HashMap<>();
    for (HistoryEvent event : events) {
      if (event.kind() == HistoryEvent.Kind.ENQUEUED) {
        store
            .queues()
            .find(event.message())
            .map(QueueMessage::status)
            .ifPresent(status -> statuses.put(event.message(), status.name()));
      }
    }
    // By incarnation id: a node restarted under its name leaves a DEAD row of the same name, and an
    // agent still owned by that dead incarnation runs nowhere.
    Map<String, String> activeNames = new HashMap<>();
    Set<String> live = new HashSet<>();
    for (NodeInfo node : store.membership().read().nodes()) {
      if (node.status() == NodeStatus.ACTIVE) {
        activeNames.put(node.nodeId(), node.name());
        live.add(node.name());
      }
    }
    Map<String, String> owners = new HashMap<>();
    for (AgentAssignment assignment : store.agents().readAll()) {
      @Nullable String owner =
          assignment.owner() == null ? null : activeNames.get(assignment.owner());
      if (owner != null) {
        owners.put(assignment.uri().toString(), owner);
      }
    }
    // The schedules before their messages: a slot before a row's next slot has its message
    // committed by the time the row is read.
    List<ScheduleInfo> schedules = store.schedules().list(10_000);
    return new FinalState(
        statuses,
        ChaosWorkload.expectedAgents(),
        owners,
        live,
        ChaosWorkload.expectedSchedules(),
        schedules,
        slotMessages(store));
  }

  /** Every message of the schedules' queue still in the table, by id, with its dedupe key. */
  private static Map<Long, String> slotMessages(Store store) {
    Map<Long, String> keys = new HashMap<>();
    long after = 0;
    while (true) {
      List<QueueMessage> page =
          store
              .queues()
              .list(
                  new MessageQuery(ChaosWorkload.SCHEDULED, null, null, null, null, after, 10_000));
      for (QueueMessage message : page) {
        if (message.dedupeKey() != null) {
          keys.put(message.id(), message.dedupeKey());
        }
        after = Math.max(after, message.id());
      }
      if (page.size() < 10_000) {
        return keys;
      }
    }
  }

  private void say(String format, Object... arguments) {
    synchronized (log) {
      log.println("chaos: " + String.format(format, arguments));
      log.flush();
    }
  }

  /** Where the report goes: {@code DIR/report.json}. */
  public static Path reportPath(ChaosSettings settings) {
    return settings.dir().resolve("report.json");
  }
}
