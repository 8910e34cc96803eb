package io.tenure.bench;

import io.tenure.bench.LockRuns.LockSystem;
import io.tenure.bench.LockRuns.Result;
import io.tenure.bench.LockRuns.Shape;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * Schedules and named locks (issue 17), in one JVM:
 *
 * <ul>
 *   <li>{@code schedules}: fire lag of 1,000 interval schedules on each database, their slots
 *       spread over the interval or all due at the same instant ({@link FireLagRuns});
 *   <li>{@code locks}: an acquire/release loop (1 thread on 1 name, 4 threads on 4 names, 4 threads
 *       on 1 name) on each database through {@code Tenure.locks()} ({@link LockRuns}), and side by
 *       side on PostgreSQL, alternated in the same rounds, ShedLock 7.6's JDBC provider ({@link
 *       ShedLockRuns}) and the raw SQL ceiling, Tenure's own statements over plain JDBC ({@link
 *       RawLockRuns}).
 * </ul>
 *
 * <p>Usage: {@code ScheduleLockBench schedules [--schedules 1000] [--interval 10] [--periods 3]
 * [--stores postgres,sqlite,mariadb]} or {@code ScheduleLockBench locks [--seconds 5] [--rounds 3]
 * [--stores postgres,sqlite,mariadb]}, each with {@code [--postgres URL] [--sqlite sqlite:PATH]
 * [--mariadb URL]}; {@code --interval} is in seconds.
 */
public final class ScheduleLockBench {
  private static final Duration WARM_UP = Duration.ofSeconds(2);

  private final Map<String, String> urls = new LinkedHashMap<>();
  private final List<String> stores;

  private ScheduleLockBench(Map<String, String> urls, List<String> stores) {
    this.urls.putAll(urls);
    this.stores = stores;
  }

  public static void main(String[] args) throws Exception {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    String mode = args.length == 0 ? "" : args[0];
    Map<String, String> urls = new LinkedHashMap<>();
    urls.put("postgres", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
    urls.put("sqlite", "sqlite:/tmp/slb.db");
    urls.put("mariadb", "jdbc:mariadb://127.0.0.1:3306/test?user=root");
    List<String> stores = List.of("postgres", "sqlite", "mariadb");
    int schedules = 1000;
    int interval = 10;
    int periods = 3;
    int seconds = 5;
    int rounds = 3;
    for (int i = 1; i < args.length; i += 2) {
      switch (args[i]) {
        case "--postgres", "--sqlite", "--mariadb" -> urls.put(args[i].substring(2), args[i + 1]);
        case "--stores" -> stores = List.of(args[i + 1].split(","));
        case "--schedules" -> schedules = positive(args[i], args[i + 1]);
        case "--interval" -> interval = positive(args[i], args[i + 1]);
        case "--periods" -> periods = positive(args[i], args[i + 1]);
        case "--seconds" -> seconds = positive(args[i], args[i + 1]);
        case "--rounds" -> rounds = positive(args[i], args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i] + "; " + usage());
      }
    }
    for (String store : stores) {
      if (!urls.containsKey(store)) {
        throw new IllegalArgumentException("unknown store " + store + "; " + usage());
      }
    }
    ScheduleLockBench bench = new ScheduleLockBench(urls, stores);
    long start = System.nanoTime();
    bench.printVersions();
    switch (mode) {
      case "schedules" -> bench.schedules(schedules, Duration.ofSeconds(interval), periods);
      case "locks" -> bench.locks(Duration.ofSeconds(seconds), rounds);
      default -> throw new IllegalArgumentException(usage());
    }
    System.out.printf(
        Locale.ROOT, "%nTotal run time %s.%n", QueueBenchSupport.ms(System.nanoTime() - start));
  }

  private static String usage() {
    return "use schedules [--schedules 1000] [--interval 10] [--periods 3]"
        + " or locks [--seconds 5] [--rounds 3], with [--stores postgres,sqlite,mariadb]"
        + " [--postgres URL] [--sqlite sqlite:PATH] [--mariadb URL]";
  }

  private static int positive(String option, String value) {
    int parsed = Integer.parseInt(value);
    if (parsed < 1) {
      throw new IllegalArgumentException(option + " must be at least 1, got " + value);
    }
    return parsed;
  }

  private void schedules(int count, Duration interval, int periods) throws Exception {
    List<FireLagRuns.Result> results = new ArrayList<>();
    for (FireLagRuns.Shape shape : FireLagRuns.Shape.values()) {
      for (String store : stores) {
        System.err.printf(Locale.ROOT, "fire lag: %s, %s%n", store, shape.label);
        FireLagRuns.Result result =
            FireLagRuns.run(urls.get(store), shape, count, interval, periods);
        results.add(result);
        System.err.println("  " + row(result));
      }
    }
    System.out.println();
    System.out.println(
        "| store | schedules | slots | slots measured | slot → written (created_at, database"
            + " clock) p50 / p99 / max | slot → handled (consumer) p50 / p99 / max | missing,"
            + " duplicates | declaring them |");
    System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for (FireLagRuns.Result result : results) {
      System.out.println(row(result));
    }
  }

  private static String row(FireLagRuns.Result r) {
    return String.format(
        Locale.ROOT,
        "| %s | %,d every %d s | %s | %,d | %s | %s | %d, %d | %s |",
        r.store(),
        r.schedules(),
        r.interval().toSeconds(),
        r.shape().label,
        r.slots(),
        spread(r.written()),
        spread(r.handled()),
        r.missing(),
        r.duplicates(),
        QueueBenchSupport.ms(r.declareNanos()));
  }

  private static String spread(LockRuns.Samples samples) {
    return samples.size() == 0
        ? "none"
        : QueueBenchSupport.ms1(samples.percentile(50))
            + " / "
            + QueueBenchSupport.ms1(samples.percentile(99))
            + " / "
            + QueueBenchSupport.ms1(samples.percentile(100));
  }

  /** The systems of one store: on PostgreSQL the peer and the ceiling too. */
  private List<SystemFactory> systems(String store) {
    String url = urls.get(store);
    List<SystemFactory> systems = new ArrayList<>();
    systems.add(() -> LockRuns.tenure(url));
    if (store.equals("postgres")) {
      systems.add(() -> ShedLockRuns.open(url));
      systems.add(() -> RawLockRuns.open(url));
    }
    return systems;
  }

  @FunctionalInterface
  private interface SystemFactory {
    LockSystem open() throws Exception;
  }

  private static Result run(SystemFactory factory, Shape shape, Duration duration)
      throws Exception {
    try (LockSystem system = factory.open()) {
      return LockRuns.loop(system, shape, duration);
    }
  }

  private void locks(Duration duration, int rounds) throws Exception {
    System.err.println("warming up: every system, every shape, " + WARM_UP.toSeconds() + " s");
    for (String store : stores) {
      for (SystemFactory system : systems(store)) {
        for (Shape shape : Shape.values()) {
          run(system, shape, WARM_UP);
        }
      }
    }
    List<Result> results = new ArrayList<>();
    // Rounds interleave the systems, so a slow spell of the machine falls on all of them alike.
    for (int round = 1; round <= rounds; round++) {
      System.err.printf(Locale.ROOT, "round %d of %d%n", round, rounds);
      for (String store : stores) {
        for (Shape shape : Shape.values()) {
          // Each round starts with another system, so none always runs first.
          List<SystemFactory> systems = new ArrayList<>(systems(store));
          Collections.rotate(systems, round - 1);
          for (SystemFactory system : systems) {
            Result result = run(system, shape, duration);
            results.add(result);
            System.err.println("  " + lockRow(result, List.of(result)));
            if (result.errors() > 0) {
              System.err.println("    first error: " + result.firstError());
            }
          }
        }
      }
    }
    printLocks(results, rounds);
  }

  private static void printLocks(List<Result> results, int rounds) {
    Map<String, List<Result>> bySetting = new LinkedHashMap<>();
    for (Result result : results) {
      bySetting
          .computeIfAbsent(
              result.store() + "|" + result.shape() + "|" + result.system(), k -> new ArrayList<>())
          .add(result);
    }
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "| system | store | loop | acquired/s (median of %d) | acquired, refused, errors | acquire p50 / p99"
            + " | release p50 / p99 | runs, acquired/s |%n",
        rounds);
    System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- |");
    Map<String, Result> medians = new LinkedHashMap<>();
    for (Map.Entry<String, List<Result>> setting : bySetting.entrySet()) {
      Result median = median(setting.getValue());
      medians.put(setting.getKey(), median);
      System.out.println(lockRow(median, setting.getValue()));
    }
    System.out.println();
    for (Result result : results) {
      if (result.errors() > 0) {
        System.out.printf(
            Locale.ROOT,
            "%s on %s, %s: %,d errors, the first: %s%n",
            result.system(),
            result.store(),
            result.shape().label,
            result.errors(),
            result.firstError());
      }
    }
    for (Shape shape : Shape.values()) {
      Result tenure = medians.get("PostgreSQL|" + shape + "|Tenure");
      Result shedLock = medians.get("PostgreSQL|" + shape + "|ShedLock");
      Result raw = medians.get("PostgreSQL|" + shape + "|raw SQL, Tenure's statements");
      if (tenure == null || shedLock == null || raw == null) {
        continue;
      }
      System.out.printf(
          Locale.ROOT,
          "PostgreSQL, %s: Tenure / ShedLock = %.2f, Tenure / raw SQL = %.2f (acquired/s).%n",
          shape.label,
          tenure.acquiredPerSecond() / shedLock.acquiredPerSecond(),
          tenure.acquiredPerSecond() / raw.acquiredPerSecond());
    }
  }

  /** The run with the median acquired/s (the lower middle one for an even count). */
  private static Result median(List<Result> runs) {
    List<Result> sorted = new ArrayList<>(runs);
    sorted.sort(Comparator.comparingDouble(Result::acquiredPerSecond));
    return sorted.get((sorted.size() - 1) / 2);
  }

  private static String lockRow(Result r, List<Result> runs) {
    return String.format(
        Locale.ROOT,
        "| %s | %s | %s | %s | %,d, %,d, %,d | %s / %s | %s / %s | %s |",
        r.system(),
        r.store(),
        r.shape().label,
        QueueBenchSupport.count(r.acquiredPerSecond()),
        r.acquired(),
        r.refused(),
        r.errors(),
        QueueBenchSupport.ms1(r.acquireP50()),
        QueueBenchSupport.ms1(r.acquireP99()),
        QueueBenchSupport.ms1(r.releaseP50()),
        QueueBenchSupport.ms1(r.releaseP99()),
        runs.stream()
            .map(run -> QueueBenchSupport.count(run.acquiredPerSecond()))
            .collect(Collectors.joining(" / ")));
  }

  private void printVersions() throws Exception {
    StringBuilder line = new StringBuilder("Java " + Runtime.version());
    for (String store : List.of("postgres", "mariadb")) {
      try (Connection c = DriverManager.getConnection(urls.get(store))) {
        DatabaseMetaData meta = c.getMetaData();
        line.append("; ")
            .append(meta.getDatabaseProductName())
            .append(' ')
            .append(meta.getDatabaseProductVersion());
      }
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:")) {
      line.append("; SQLite ").append(c.getMetaData().getDatabaseProductVersion());
    }
    Properties shedLock = new Properties();
    try (InputStream in =
        ScheduleLockBench.class.getResourceAsStream(
            "/META-INF/maven/net.javacrumbs.shedlock/shedlock-core/pom.properties")) {
      if (in != null) {
        shedLock.load(in);
      }
    }
    line.append("; ShedLock ")
        .append(shedLock.getProperty("version", "(version unknown)"))
        .append("; ")
        .append(Runtime.getRuntime().availableProcessors())
        .append(" processors");
    System.out.println(line);
  }
}
