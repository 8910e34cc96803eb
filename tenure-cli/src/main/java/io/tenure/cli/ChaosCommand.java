package io.tenure.cli;

import io.tenure.chaos.ChaosReport;
import io.tenure.chaos.ChaosRun;
import io.tenure.chaos.ChaosSettings;
import io.tenure.chaos.History;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tenure chaos}: the fault harness (SPEC §9.4). Real node processes, a recorded workload,
 * faults on a seeded schedule, a quiet period, then a check of the history and the tables.
 */
@Command(
    name = "chaos",
    description = {
      "Run the fault harness and check the safety invariants.",
      "N node processes, a workload on FIFO, unordered and exclusive queues, agents writing a fenced"
          + " register, two schedules and two named locks under which holders make fenced writes, and"
          + " faults (SIGKILL the leader or any node, SIGSTOP past the lease, SIGTERM) on a seeded"
          + " schedule; then a quiet period and a check of the history.",
      "Prints the JSON report on stdout and in the run's folder; exit 0 only if every safety"
          + " invariant held (lost, stranded, agent overlaps, stale-epoch writes, FIFO order,"
          + " convergence, missed and duplicate schedule slots, lock overlaps), 7 otherwise."
    })
final class ChaosCommand implements Callable<Integer> {
  static final String POSTGRES = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
  static final String MARIADB = "jdbc:mariadb://127.0.0.1:3306/test?user=root";

  @Option(
      names = "--profile",
      paramLabel = "PROFILE",
      defaultValue = "ci",
      description =
          "ci: 3 nodes, 60 s of faults, 25 s quiet (about 2 minutes); soak: 5 nodes, 30 min of faults. Default: ${DEFAULT-VALUE}.")
  String profile = "ci";

  @Option(
      names = "--store",
      paramLabel = "STORE",
      defaultValue = "sqlite",
      description =
          "sqlite (a fresh file in --dir), postgres, mariadb (the local test databases), or a store URL."
              + " Default: $TENURE_STORE if set, else ${DEFAULT-VALUE}.")
  String store = "sqlite";

  @Option(
      names = "--seed",
      paramLabel = "N",
      description = "The fault schedule's seed (default: random, printed).")
  @Nullable Long seed;

  @Option(
      names = "--nodes",
      paramLabel = "N",
      description = "Node processes, 2 to 9 (default: the profile's).")
  @Nullable Integer nodes;

  @Option(
      names = "--duration",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "How long faults are injected (default: the profile's).")
  @Nullable Duration duration;

  @Option(
      names = "--quiet",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "Settling time after the last fault (default: the profile's).")
  @Nullable Duration quiet;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description = "Node logs and the report. Default: a new folder <store>-<time> in chaos-runs.")
  @Nullable Path dir;

  @Option(
      names = "--faults",
      paramLabel = "FAULT",
      split = ",",
      description =
          "Only these faults: kill leader, kill, pause, stop, kill-connections, slow-db, restart-db, pause leader,"
              + " agent-rows (a node's agent rows deleted, rewritten and joined by an unreadable row, by hand)"
              + " (comma-separated; default: all that apply but restart-db and pause leader; soak: all but pause leader).")
  java.util.List<String> faults = new java.util.ArrayList<>();

  @Option(
      names = "--keep-tables",
      description = "Keep the run's tables on a shared server (default: dropped after the check).")
  boolean keepTables;

  @Option(
      names = "--rate",
      paramLabel = "R",
      description =
          "Messages enqueued per second, 1 to 1000. Default: the profile's (ci 30, soak 50).")
  @Nullable Integer rate;

  @Option(
      names = "--work",
      paramLabel = "D",
      converter = DurationConverter.class,
      description =
          "How long a handler of a FIFO message works, e.g. 8s; long work with"
              + " pauses tests superseded claims. Default: 2ms.")
  @Nullable Duration work;

  @Option(
      names = "--lock-work",
      paramLabel = "D",
      converter = DurationConverter.class,
      description =
          "How long a lock holder's fenced write works between its fence and its commit, 0 to 1s;"
              + " longer work with pauses makes frozen holders resume mid-write. Default: 2ms.")
  @Nullable Duration lockWork;

  @Option(
      names = "--unguarded",
      hidden = true,
      description =
          "Negative control: agents' register writes ignore the epoch, so the checker must report them.")
  boolean unguarded;

  @Option(
      names = "--unsafe",
      hidden = true,
      paramLabel = "GUARD",
      description =
          "Negative control: every node of the run breaks a guard, from outside Tenure, around its store"
              + " (handoff: a move frees the row at once instead of the two-phase hand-off; token: resolves"
              + " carry the message's current claim token; leader-fence: assignment writes carry the"
              + " current leader's epoch; schedule-dedupe: each slot's message has a dedupe key of its"
              + " own and fires ignore the leader fence and the version they read; lock-token: a lock's"
              + " fence holds for any holder). Only the run's own node processes do; no 'tenure node'"
              + " can.")
  @Nullable String unsafe;

  @Option(
      names = "--stall-leader-pass",
      paramLabel = "D",
      converter = DurationConverter.class,
      description =
          "Testing: each leader pass of the run's nodes sleeps D after taking its fence and membership"
              + " snapshot, and each schedule pass after reading the due schedules, as a GC pause would;"
              + " with pauses this makes deposed leaders resume mid-pass. Default: 0.")
  @Nullable Duration stallLeaderPass;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter out = spec.commandLine().getOut();
    Profile chosen =
        switch (profile) {
          case "ci" -> Profile.CI;
          case "soak" -> Profile.SOAK;
          default ->
              throw new ParameterException(
                  spec.commandLine(), "unknown profile '" + profile + "'; use ci or soak");
        };
    String stamp = Long.toString(System.currentTimeMillis(), 36);
    String kind =
        switch (store) {
          case "sqlite", "postgres", "mariadb" -> store;
          default -> "url";
        };
    Path folder = dir != null ? dir : Path.of("chaos-runs", kind + "-" + stamp);
    String url =
        switch (store) {
          case "sqlite" -> "sqlite:" + folder.toAbsolutePath().resolve("chaos.db");
          case "postgres" -> POSTGRES;
          case "mariadb" -> MARIADB;
          default -> store;
        };
    // A run's own tables on every store: never the default prefix of a real cluster in the same
    // file.
    String prefix = "chaos_" + stamp + "_";
    long chosenSeed = seed != null ? seed : ThreadLocalRandom.current().nextLong(1, 1_000_000);
    ChaosSettings settings;
    try {
      settings =
          new ChaosSettings(
              url,
              prefix,
              nodes != null ? nodes : chosen.nodes,
              duration != null ? duration : chosen.faultPhase,
              chosen.faultEvery,
              Duration.ofSeconds(3),
              Duration.ofSeconds(9),
              quiet != null ? quiet : chosen.quiet,
              rate != null ? rate : chosen.rate,
              work != null ? work : io.tenure.chaos.ChaosWorkload.DEFAULT_WORK,
              lockWork != null ? lockWork : io.tenure.chaos.ChaosWorkload.DEFAULT_WORK,
              chosenSeed,
              folder,
              DemoCommand.javaOnClasspath(),
              !unguarded,
              unsafeGuard(),
              stallLeaderPass(),
              faults.isEmpty() && chosen == Profile.SOAK
                  ? soakFaults()
                  : new java.util.HashSet<>(faults));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    // Only once every setting was accepted: bad input leaves nothing behind.
    Files.createDirectories(folder);
    if (store.equals("sqlite")) {
      for (String suffix : new String[] {"", "-wal", "-shm", "-journal"}) {
        Files.deleteIfExists(folder.toAbsolutePath().resolve("chaos.db" + suffix));
      }
    }
    ChaosReport report;
    try {
      report = new ChaosRun(settings, err).run();
    } finally {
      if (!store.equals("sqlite") && !keepTables) {
        try (History cleanup = new History(url, prefix)) {
          cleanup.dropEverything(prefix);
        } catch (RuntimeException e) {
          err.println(
              "chaos: could not drop the run's tables (prefix " + prefix + "): " + e.getMessage());
        }
      }
    }
    String json = report.toJson();
    Files.writeString(ChaosRun.reportPath(settings), json + "\n", StandardCharsets.UTF_8);
    out.println(json);
    out.flush();
    err.println(
        "chaos: "
            + (report.safe() ? "every safety invariant held" : "SAFETY INVARIANT BROKEN")
            + "; report in "
            + ChaosRun.reportPath(settings).toAbsolutePath()
            + " (seed "
            + chosenSeed
            + ")");
    err.flush();
    return report.safe() ? ExitCodes.OK : ExitCodes.INVARIANT_BROKEN;
  }

  /**
   * Every fault but "pause leader" (for targeted runs): the soak's draws stay what its seeds
   * documented.
   */
  private static java.util.Set<String> soakFaults() {
    java.util.Set<String> all = new java.util.HashSet<>(ChaosSettings.FAULTS);
    all.remove("pause leader");
    return all;
  }

  private io.tenure.chaos.@Nullable UnsafeGuard unsafeGuard() {
    if (unsafe == null) {
      return null;
    }
    return io.tenure.chaos.UnsafeGuard.of(unsafe)
        .orElseThrow(
            () ->
                new ParameterException(
                    spec.commandLine(),
                    "unknown --unsafe guard '"
                        + unsafe
                        + "'; use "
                        + io.tenure.chaos.UnsafeGuard.labels()));
  }

  private Duration stallLeaderPass() {
    if (stallLeaderPass == null) {
      return Duration.ZERO;
    }
    if (stallLeaderPass.isNegative() || stallLeaderPass.compareTo(ChaosSettings.MAX_STALL) > 0) {
      throw new ParameterException(
          spec.commandLine(), "--stall-leader-pass must be 0 to 30s, got " + stallLeaderPass);
    }
    return stallLeaderPass;
  }

  /** The documented profiles. */
  private enum Profile {
    CI(3, Duration.ofSeconds(60), Duration.ofSeconds(6), Duration.ofSeconds(25), 30),
    SOAK(5, Duration.ofMinutes(30), Duration.ofSeconds(10), Duration.ofSeconds(60), 50);

    final int nodes;
    final Duration faultPhase;
    final Duration faultEvery;
    final Duration quiet;
    final int rate;

    Profile(int nodes, Duration faultPhase, Duration faultEvery, Duration quiet, int rate) {
      this.nodes = nodes;
      this.faultPhase = faultPhase;
      this.faultEvery = faultEvery;
      this.quiet = quiet;
      this.rate = rate;
    }

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }
}
