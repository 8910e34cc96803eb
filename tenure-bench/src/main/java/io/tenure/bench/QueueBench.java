package io.tenure.bench;

import static io.tenure.bench.QueueBenchSupport.count;
import static io.tenure.bench.QueueBenchSupport.ms;
import static io.tenure.bench.QueueBenchSupport.ms1;

import io.tenure.bench.QueueBenchSupport.Latency;
import io.tenure.bench.QueueBenchSupport.Rate;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Queue throughput and pickup latency (issue 5), side by side in one run on one PostgreSQL:
 *
 * <ul>
 *   <li>Tenure: one node with a no-op consumer drains N pre-enqueued messages (by default
 *       concurrency 8 to 64);
 *   <li>db-scheduler 16.x: N one-time tasks with a no-op handler, lock-and-fetch polling (by
 *       default threads 8 to 64);
 *   <li>the raw SQL ceiling: Tenure's table claimed and deleted over plain JDBC with the statements
 *       Tenure's store runs (2 or 4 threads, batches of 250 to 1,000), and, for comparison, with
 *       the minimal loop this benchmark first used (ids only, delete by id);
 *   <li>batched enqueue: {@code enqueueAll} against a raw JDBC batch insert of the same rows;
 *   <li>Tenure's best drain again on SQLite and MariaDB;
 *   <li>pickup latency on an idle queue, one message every 50 ms, on all three databases.
 * </ul>
 *
 * Every system first runs once with 2,000 messages to warm up the JVM; those runs are discarded.
 * Then every drain setting of every system runs {@code --rounds} times (3), the rounds interleaved,
 * and each setting reports its median run; a system's figure is its best setting's median. Every
 * run uses fresh tables and drops them (or deletes the SQLite file) afterwards. On PostgreSQL each
 * drain also reports the transactions the database committed meanwhile, which shows how many
 * messages each system moves per transaction.
 *
 * <p>Usage: {@code QueueBench [--only all|drain] [--messages 100000] [--scheduler-messages N]
 * [--rounds 3] [--concurrency 8,16,32,64] [--threads 8,16,32,64] [--postgres URL] [--sqlite
 * sqlite:/tmp/qb.db] [--mariadb URL]}; {@code --threads} are db-scheduler's, each of which takes a
 * connection (PostgreSQL allows 100 by default). {@code --only xmin [--rate R] [--load 0.7]
 * [--settle-seconds 10] [--phase-seconds 60] [--hold-seconds 300] [--recovery-seconds 120]
 * [--window-seconds 10] [--vacuum-seconds 0]}: the queue while a transaction holds PostgreSQL's
 * xmin horizon back ({@link XminRuns}; {@code --messages} pre-fills the drain that measures the
 * rate, the first {@code --concurrency} is the consumer's).
 */
public final class QueueBench {
  /** Tenure consumer concurrencies and db-scheduler thread counts tried, unless given. */
  private static final List<Integer> CONCURRENCIES = List.of(8, 16, 32, 64);

  /**
   * Raw drains: 1 or 8 threads and batches under 250 were never the best in earlier runs (2 threads
   * with batches of 500 were, every time).
   */
  private static final int[] RAW_THREADS = {2, 4};

  private static final int[] RAW_BATCHES = {250, 500, 1000};

  /** Every drain setting of every system runs this often, interleaved; the median is reported. */
  private static final int ROUNDS = 3;

  private static final int WARM_UP_MESSAGES = 2_000;
  private static final int ENQUEUE_ROUNDS = 3;
  private static final int PICKUP_MESSAGES = 200;
  private static final Duration PICKUP_EVERY = Duration.ofMillis(50);

  /** Goals from issues 5 and 20 (issue 5 asked 5x db-scheduler, issue 20 8x). */
  private static final double GOAL_VS_DB_SCHEDULER = 8.0;

  private static final double GOAL_VS_RAW = 0.60;

  /** Goals from issue 20: against the minimal claim and delete loop of the same database. */
  private static final double GOAL_VS_MINIMAL = 0.60;

  private static final double GOAL_MARIADB_VS_MINIMAL = 0.50;

  private final String postgres;
  private final String sqlite;
  private final String mariadb;
  private final List<Integer> concurrencies;
  private final List<Integer> threads;
  private final int rounds;
  private final int schedulerMessages;
  private final List<Rate> rates = new ArrayList<>();
  private final List<Latency> latencies = new ArrayList<>();

  private QueueBench(
      String postgres,
      String sqlite,
      String mariadb,
      List<Integer> concurrencies,
      List<Integer> threads,
      int rounds,
      int schedulerMessages) {
    this.postgres = postgres;
    this.sqlite = sqlite;
    this.mariadb = mariadb;
    this.concurrencies = concurrencies;
    this.threads = threads;
    this.rounds = rounds;
    this.schedulerMessages = schedulerMessages;
  }

  public static void main(String[] args) throws Exception {
    // Set before any logger exists: the runs' INFO lines would bury the progress lines.
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    int messages = 100_000;
    int rounds = ROUNDS;
    int schedulerMessages = -1;
    String only = "all";
    String postgres = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
    String sqlite = "sqlite:/tmp/qb.db";
    String mariadb = "jdbc:mariadb://127.0.0.1:3306/test?user=root";
    List<Integer> concurrencies = CONCURRENCIES;
    List<Integer> threads = CONCURRENCIES;
    double rate = 0;
    double load = 0.7;
    int phaseSeconds = 60;
    int holdSeconds = 300;
    int recoverySeconds = 120;
    int windowSeconds = 10;
    int settleSeconds = 10;
    int vacuumSeconds = 0;
    for (int i = 0; i < args.length; i += 2) {
      switch (args[i]) {
        case "--messages" -> messages = Integer.parseInt(args[i + 1]);
        case "--postgres" -> postgres = args[i + 1];
        case "--sqlite" -> sqlite = args[i + 1];
        case "--mariadb" -> mariadb = args[i + 1];
        case "--concurrency" -> concurrencies = list(args[i + 1]);
        case "--threads" -> threads = list(args[i + 1]);
        case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
        case "--scheduler-messages" -> schedulerMessages = Integer.parseInt(args[i + 1]);
        case "--only" -> only = args[i + 1];
        case "--rate" -> rate = Double.parseDouble(args[i + 1]);
        case "--load" -> load = Double.parseDouble(args[i + 1]);
        case "--phase-seconds" -> phaseSeconds = Integer.parseInt(args[i + 1]);
        case "--hold-seconds" -> holdSeconds = Integer.parseInt(args[i + 1]);
        case "--recovery-seconds" -> recoverySeconds = Integer.parseInt(args[i + 1]);
        case "--window-seconds" -> windowSeconds = Integer.parseInt(args[i + 1]);
        case "--settle-seconds" -> settleSeconds = Integer.parseInt(args[i + 1]);
        case "--vacuum-seconds" -> vacuumSeconds = Integer.parseInt(args[i + 1]);
        default ->
            throw new IllegalArgumentException(
                "unknown option "
                    + args[i]
                    + "; use [--messages N]"
                    + " [--scheduler-messages N] [--rounds 3] [--concurrency 8,16,32,64] [--threads 8,16,32,64]"
                    + " [--postgres URL] [--sqlite sqlite:PATH] [--mariadb URL] [--only all|drain|pickup|backlog|stats|limits|xmin]"
                    + " [--rate MSG_PER_S] [--load 0.7] [--phase-seconds 60] [--hold-seconds 300]"
                    + " [--recovery-seconds 120] [--window-seconds 10] [--settle-seconds 10] [--vacuum-seconds 0]");
      }
    }
    if (messages < 1) {
      throw new IllegalArgumentException("--messages must be at least 1, got " + messages);
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("--rounds must be at least 1, got " + rounds);
    }
    schedulerMessages = schedulerMessages < 0 ? messages : schedulerMessages;
    if (schedulerMessages < 1) {
      throw new IllegalArgumentException(
          "--scheduler-messages must be at least 1, got " + schedulerMessages);
    }
    QueueBench bench =
        new QueueBench(
            postgres, sqlite, mariadb, concurrencies, threads, rounds, schedulerMessages);
    switch (only) {
      case "all" -> bench.run(messages, true);
      case "drain" -> bench.run(messages, false);
      case "pickup" -> bench.pickupOnly();
      case "backlog" -> bench.backlogOnly(messages);
      case "limits" -> {
        bench.printVersions();
        LimitRuns.run(postgres, messages, concurrencies.get(0), rounds);
      }
      case "stats" -> {
        bench.printVersions();
        StatsRuns.run(postgres, sqlite, mariadb, messages);
      }
      case "xmin" -> {
        bench.printVersions();
        if (windowSeconds < 1 || phaseSeconds < windowSeconds || holdSeconds < windowSeconds) {
          throw new IllegalArgumentException(
              "--window-seconds must be at least 1 and the clean and held phases at least one"
                  + " window long");
        }
        XminRuns.run(
            postgres,
            new XminRuns.Settings(
                rate,
                load,
                concurrencies.get(0),
                messages,
                Duration.ofSeconds(windowSeconds),
                Duration.ofSeconds(settleSeconds),
                Duration.ofSeconds(phaseSeconds),
                Duration.ofSeconds(holdSeconds),
                Duration.ofSeconds(recoverySeconds),
                Duration.ofSeconds(vacuumSeconds)));
      }
      default ->
          throw new IllegalArgumentException(
              "--only must be all, drain, pickup, backlog, stats, limits or xmin, got " + only);
    }
  }

  private static List<Integer> list(String commaSeparated) {
    return Arrays.stream(commaSeparated.split(",")).map(Integer::valueOf).toList();
  }

  /**
   * @param all whether to measure enqueue, SQLite's drain and pickup latency too ({@code --only
   *     drain} leaves them out)
   */
  private void run(int messages, boolean all) throws Exception {
    long start = System.nanoTime();
    printVersions();
    warmUp();
    // Rounds interleave the systems, so a slow spell of the machine falls on all of them alike.
    for (int round = 1; round <= rounds; round++) {
      System.err.printf(Locale.ROOT, "round %d of %d%n", round, rounds);
      for (int concurrency : concurrencies) {
        record(TenureQueueRuns.drain(postgres, messages, concurrency));
      }
      for (int count : threads) {
        record(DbSchedulerRuns.drain(postgres, schedulerMessages, count));
      }
      try (RawQueueRuns raw = RawQueueRuns.open(postgres)) {
        for (RawQueueRuns.Statements statements : RawQueueRuns.Statements.values()) {
          for (int threads : RAW_THREADS) {
            for (int batch : RAW_BATCHES) {
              record(raw.drain(statements, messages, threads, batch));
            }
          }
        }
      }
    }
    try (RawQueueRuns raw = RawQueueRuns.open(postgres)) {
      for (int round = 0; all && round < ENQUEUE_ROUNDS; round++) {
        record(raw.tenureEnqueue(messages));
        record(raw.rawInsert(messages));
      }
    }
    int concurrency = bestSetting("Tenure drain");
    if (all) {
      record(TenureQueueRuns.drain(sqlite, messages, concurrency));
    }
    record(TenureQueueRuns.drain(mariadb, messages, concurrency));
    // MariaDB's own ceiling (issue 20): the minimal claim and delete loop on the same server.
    try (RawQueueRuns raw = RawQueueRuns.open(mariadb)) {
      for (int threads : RAW_THREADS) {
        for (int batch : RAW_BATCHES) {
          record(raw.drain(RawQueueRuns.Statements.MINIMAL, messages, threads, batch));
        }
      }
    }
    for (String url : all ? List.of(postgres, sqlite, mariadb) : List.<String>of()) {
      Latency latency = TenureQueueRuns.pickup(url, PICKUP_MESSAGES, PICKUP_EVERY, concurrency);
      latencies.add(latency);
      System.err.printf(Locale.ROOT, "  pickup %s: %s%n", latency.store(), result(latency));
    }
    printTable(concurrency, all);
    System.out.printf(Locale.ROOT, "%nTotal run time %s.%n", ms(System.nanoTime() - start));
  }

  /**
   * Pickup latency alone on every store, {@code rounds} times at the first concurrency, after one
   * discarded drain per store: with wake-ups (the default) and, side by side in the same round,
   * with the consumer polling, for a figure that one run's noise cannot decide (issue 20 §2).
   */
  private void pickupOnly() throws Exception {
    printVersions();
    int concurrency = concurrencies.get(0);
    for (String url : List.of(postgres, sqlite, mariadb)) {
      TenureQueueRuns.drain(url, WARM_UP_MESSAGES, concurrency);
    }
    System.out.println("| measure | store | setting | messages | result |");
    System.out.println("| --- | --- | --- | --- | --- |");
    for (int round = 1; round <= rounds; round++) {
      for (String url : List.of(postgres, sqlite, mariadb)) {
        for (boolean wakeups : new boolean[] {true, false}) {
          Latency latency =
              TenureQueueRuns.pickup(url, PICKUP_MESSAGES, PICKUP_EVERY, concurrency, wakeups);
          System.out.printf(
              Locale.ROOT,
              "| pickup latency | %s | run %d, 1 every %d ms, concurrency %d | %d | %s |%n",
              latency.store(),
              round,
              PICKUP_EVERY.toMillis(),
              concurrency,
              PICKUP_MESSAGES,
              result(latency));
        }
      }
    }
  }

  /**
   * Claims from a FIFO backlog whose every key has its head in flight, on all three databases,
   * {@code rounds} times: what an idle poll costs in the case the MariaDB soak found.
   */
  private void backlogOnly(int backlog) throws Exception {
    printVersions();
    System.out.println("| measure | store | setting | claims | result |");
    System.out.println("| --- | --- | --- | --- | --- |");
    for (int round = 1; round <= rounds; round++) {
      for (String url : List.of(postgres, sqlite, mariadb)) {
        System.out.println(BacklogClaimRuns.run(url, backlog));
      }
    }
  }

  /**
   * One small run of every system and database, discarded: class loading, JIT, pools, statements.
   */
  private void warmUp() throws Exception {
    System.err.println("warming up with " + WARM_UP_MESSAGES + " messages per system (discarded)");
    TenureQueueRuns.drain(postgres, WARM_UP_MESSAGES, 16);
    DbSchedulerRuns.drain(postgres, WARM_UP_MESSAGES, 16);
    try (RawQueueRuns raw = RawQueueRuns.open(postgres)) {
      for (RawQueueRuns.Statements statements : RawQueueRuns.Statements.values()) {
        raw.drain(statements, WARM_UP_MESSAGES, 2, 250);
      }
      raw.tenureEnqueue(WARM_UP_MESSAGES);
      raw.rawInsert(WARM_UP_MESSAGES);
    }
    TenureQueueRuns.drain(sqlite, WARM_UP_MESSAGES, 16);
    TenureQueueRuns.drain(mariadb, WARM_UP_MESSAGES, 16);
  }

  private void record(Rate rate) {
    rates.add(rate);
    System.err.printf(
        Locale.ROOT,
        "  %s, %s, %s: %s%n",
        rate.measure(),
        rate.store(),
        rate.setting(),
        result(rate));
  }

  /** The runs of each setting, in the order they were first run, each reduced to its median run. */
  private List<Median> medians() {
    Map<String, List<Rate>> bySetting = new LinkedHashMap<>();
    for (Rate rate : rates) {
      bySetting
          .computeIfAbsent(
              rate.measure() + "|" + rate.store() + "|" + rate.setting(), k -> new ArrayList<>())
          .add(rate);
    }
    return bySetting.values().stream().map(Median::of).toList();
  }

  /** A setting's runs and the median of them (the lower middle one for an even count). */
  private record Median(Rate median, List<Rate> runs) {
    static Median of(List<Rate> runs) {
      List<Rate> sorted = new ArrayList<>(runs);
      sorted.sort(Comparator.comparingDouble(Median::rate));
      return new Median(sorted.get((sorted.size() - 1) / 2), List.copyOf(runs));
    }

    static double rate(Rate rate) {
      return rate.finished() ? rate.perSecond() : 0;
    }
  }

  /** The PostgreSQL setting of {@code measure} with the highest median. */
  private Rate best(String measure) {
    return best(measure, "PostgreSQL");
  }

  /** The setting of {@code measure} on {@code store} with the highest median. */
  private Rate best(String measure, String store) {
    return medians().stream()
        .map(Median::median)
        .filter(r -> r.measure().equals(measure) && r.store().equals(store))
        .max(Comparator.comparingDouble(Median::rate))
        .orElseThrow();
  }

  /** The concurrency of Tenure's best PostgreSQL drain. */
  private int bestSetting(String measure) {
    // "concurrency 64, no limit": the number up to the first comma (the limits note came later).
    return Integer.parseInt(best(measure).setting().replace("concurrency ", "").split(",")[0]);
  }

  private void printVersions() throws Exception {
    StringBuilder line = new StringBuilder("Java " + Runtime.version());
    for (String url : List.of(postgres, mariadb)) {
      try (Connection c = DriverManager.getConnection(url)) {
        DatabaseMetaData meta = c.getMetaData();
        line.append("; ")
            .append(meta.getDatabaseProductName())
            .append(' ')
            .append(meta.getDatabaseProductVersion());
      }
    }
    line.append("; ").append(Runtime.getRuntime().availableProcessors()).append(" processors");
    System.out.println(line);
  }

  private void printTable(int concurrency, boolean all) {
    System.out.println();
    System.out.println(
        "| measure | store | setting | messages | result (median run) | runs, msg/s |");
    System.out.println("| --- | --- | --- | --- | --- | --- |");
    for (Median median : medians()) {
      Rate rate = median.median();
      String runs =
          median.runs().size() == 1
              ? "1 run"
              : median.runs().stream()
                  .map(r -> r.finished() ? count(r.perSecond()) : "not finished")
                  .collect(Collectors.joining(" / "));
      System.out.printf(
          Locale.ROOT,
          "| %s | %s | %s | %s | %s | %s |%n",
          rate.measure(),
          rate.store(),
          rate.setting(),
          count(rate.messages()),
          result(rate),
          runs);
    }
    for (Latency latency : latencies) {
      System.out.printf(
          Locale.ROOT,
          "| pickup latency | %s | 1 every %d ms, concurrency %d | %d | %s |%n",
          latency.store(),
          PICKUP_EVERY.toMillis(),
          concurrency,
          latency.messages(),
          result(latency));
    }
    Rate tenure = best("Tenure drain");
    Rate peer = best("db-scheduler drain");
    Rate raw = best(RawQueueRuns.Statements.TENURE.measure);
    Rate minimal = best(RawQueueRuns.Statements.MINIMAL.measure);
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "Best median of %d on PostgreSQL: Tenure %s msg/s (%s), db-scheduler %s msg/s (%s),"
            + " raw SQL with Tenure's statements %s msg/s (%s), minimal raw SQL %s msg/s (%s).%n",
        rounds,
        count(tenure.perSecond()),
        tenure.setting(),
        count(peer.perSecond()),
        peer.setting(),
        count(raw.perSecond()),
        raw.setting(),
        count(minimal.perSecond()),
        minimal.setting());
    goal("Tenure / db-scheduler", tenure.perSecond() / peer.perSecond(), GOAL_VS_DB_SCHEDULER, "x");
    goal(
        "Tenure / raw SQL with Tenure's statements",
        tenure.perSecond() / raw.perSecond(),
        GOAL_VS_RAW,
        "");
    goal("Tenure / minimal raw SQL", tenure.perSecond() / minimal.perSecond(), GOAL_VS_MINIMAL, "");
    Rate mariaDrain = best("Tenure drain", "MariaDB");
    Rate mariaMinimal = best(RawQueueRuns.Statements.MINIMAL.measure, "MariaDB");
    System.out.printf(
        Locale.ROOT,
        "MariaDB: Tenure %s msg/s (%s), minimal raw SQL %s msg/s (%s).%n",
        count(mariaDrain.perSecond()),
        mariaDrain.setting(),
        count(mariaMinimal.perSecond()),
        mariaMinimal.setting());
    goal(
        "MariaDB: Tenure / minimal raw SQL",
        mariaDrain.perSecond() / mariaMinimal.perSecond(),
        GOAL_MARIADB_VS_MINIMAL,
        "");
    if (!all) {
      return;
    }
    Rate enqueue = best("Tenure enqueueAll");
    Rate insert = best("raw JDBC batch insert");
    System.out.printf(
        Locale.ROOT,
        "Enqueue, median of %d: Tenure enqueueAll %s msg/s, raw batch insert %s msg/s (ratio %.2f).%n",
        ENQUEUE_ROUNDS,
        count(enqueue.perSecond()),
        count(insert.perSecond()),
        enqueue.perSecond() / insert.perSecond());
  }

  private static void goal(String what, double ratio, double goal, String unit) {
    System.out.printf(
        Locale.ROOT,
        "%s = %.2f%s (goal at least %.2f%s): %s.%n",
        what,
        ratio,
        unit,
        goal,
        unit,
        ratio >= goal ? "met" : "NOT met");
  }

  private static String result(Latency latency) {
    return String.format(
        Locale.ROOT,
        "p50 %s, p90 %s, p99 %s, max %s; the first handled, after 2 s idle: %s",
        ms1(latency.p50()),
        ms1(latency.p90()),
        ms1(latency.p99()),
        ms1(latency.max()),
        ms1(latency.first()));
  }

  private static String result(Rate rate) {
    String note = rate.note().isEmpty() ? "" : "; " + rate.note();
    return rate.finished()
        ? count(rate.perSecond()) + " msg/s (" + ms(rate.nanos()) + note + ")"
        : "not within " + QueueBenchSupport.BOUND.toSeconds() + " s";
  }
}
