package io.tenure.bench;

import io.tenure.NodeInfo;
import io.tenure.Stores;
import io.tenure.spi.Lease;
import io.tenure.spi.Store;
import io.tenure.spi.StoreSettings;
import io.tenure.spi.TablePrefix;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Fail-over and hand-over time with real node processes ({@code tenure node}) and default settings.
 *
 * <p>Each run kills the current leader, with SIGKILL (crash) or SIGTERM (graceful leave), and
 * measures on this process's monotonic clock the time from the signal until the database shows a
 * live lease held by another node at a higher epoch. The killed node is replaced before the next
 * run, and the new leader is left to settle (it has held the lease for 3 s) so that every run
 * starts from the same state.
 *
 * <p>Usage: {@code FailoverBench --store URL [--store URL...] [--runs 10] [--nodes 3] [--jar
 * tenure-cli/target/tenure.jar] [--work DIR]}
 */
public final class FailoverBench {
  private static final Duration SETTLE = Duration.ofSeconds(3);
  private static final Duration BOUND = Duration.ofSeconds(60);

  private final String url;
  private final TablePrefix prefix =
      TablePrefix.of("bench" + UUID.randomUUID().toString().substring(0, 6) + "_");
  private final Path jar;
  private final Path work;
  private final Map<String, Process> processes = new LinkedHashMap<>();
  private int names;

  private FailoverBench(String url, Path jar, Path work) {
    this.url = url;
    this.jar = jar;
    this.work = work;
  }

  public static void main(String[] args) throws Exception {
    List<String> stores = new ArrayList<>();
    int runs = 10;
    int nodes = 3;
    Path jar = Path.of("tenure-cli/target/tenure.jar");
    Path work = Files.createTempDirectory("tenure-bench-");
    for (int i = 0; i < args.length; i += 2) {
      switch (args[i]) {
        case "--store" -> stores.add(args[i + 1]);
        case "--runs" -> runs = Integer.parseInt(args[i + 1]);
        case "--nodes" -> nodes = Integer.parseInt(args[i + 1]);
        case "--jar" -> jar = Path.of(args[i + 1]);
        case "--work" -> work = Path.of(args[i + 1]);
        default ->
            throw new IllegalArgumentException(
                "unknown option "
                    + args[i]
                    + "; use --store URL [--store URL...] [--runs N] [--nodes N] [--jar PATH] [--work DIR]");
      }
    }
    if (stores.isEmpty()) {
      stores.add("sqlite:" + work.resolve("bench.db"));
    }
    System.out.println("| store | signal | runs | p50 | p90 | max | min |");
    System.out.println("| --- | --- | --- | --- | --- | --- | --- |");
    for (String url : stores) {
      FailoverBench bench = new FailoverBench(url, jar.toAbsolutePath(), work);
      bench.run(nodes, runs);
    }
  }

  private void run(int nodes, int runs) throws Exception {
    try (Store observer = Stores.open(new StoreSettings(url, prefix, true))) {
      for (int i = 0; i < nodes; i++) {
        startNode(observer);
      }
      report("SIGKILL (crash)", measure(observer, runs, true));
      report("SIGTERM (graceful)", measure(observer, runs, false));
    } finally {
      processes.values().forEach(Process::destroyForcibly);
      for (Process process : processes.values()) {
        process.waitFor();
      }
      dropTables();
    }
  }

  private List<Duration> measure(Store observer, int runs, boolean crash) throws Exception {
    List<Duration> times = new ArrayList<>();
    for (int run = 0; run < runs; run++) {
      Lease before = awaitSettledLeader(observer);
      String leaderName = nameOf(observer, before.holder());
      Process leader = processes.remove(leaderName);
      long signalled = System.nanoTime();
      if (crash) {
        leader.destroyForcibly();
      } else {
        leader.destroy();
      }
      awaitUntil(
          "a new leader after " + leaderName,
          () -> {
            Lease now = observer.leases().read();
            return now.live()
                && now.epoch() > before.epoch()
                && !before.holder().equals(now.holder());
          });
      times.add(Duration.ofNanos(System.nanoTime() - signalled));
      leader.waitFor();
      startNode(observer);
    }
    return times;
  }

  private Lease awaitSettledLeader(Store observer) throws Exception {
    awaitUntil(
        "a settled leader and every node active",
        () -> {
          Lease lease = observer.leases().read();
          List<NodeInfo> rows = observer.membership().read().nodes();
          boolean allActive =
              rows.stream()
                      .filter(n -> processes.containsKey(n.name()))
                      .allMatch(n -> n.status() == io.tenure.NodeStatus.ACTIVE)
                  && rows.stream().filter(n -> processes.containsKey(n.name())).count()
                      == processes.size();
          return lease.live()
              && lease.acquiredAt() != null
              && allActive
              && Duration.between(lease.acquiredAt(), lease.readAt()).compareTo(SETTLE) >= 0
              && processes.containsKey(nameOf(observer, lease.holder()));
        });
    return observer.leases().read();
  }

  private String nameOf(Store observer, String nodeId) {
    Optional<NodeInfo> row =
        observer.membership().read().nodes().stream()
            .filter(n -> n.nodeId().equals(nodeId))
            .findFirst();
    return row.map(NodeInfo::name).orElse("?");
  }

  private void startNode(Store observer) throws Exception {
    String name = "n" + (++names);
    String java = ProcessHandle.current().info().command().orElse("java");
    File log = work.resolve(prefix.value() + name + ".log").toFile();
    Process process =
        new ProcessBuilder(
                java,
                "-jar",
                jar.toString(),
                "node",
                "--store",
                url,
                "--prefix",
                prefix.value(),
                "--name",
                name)
            .redirectErrorStream(true)
            .redirectOutput(log)
            .start();
    processes.put(name, process);
    awaitUntil(
        "node " + name + " active (log " + log + ")",
        () ->
            observer.membership().read().nodes().stream()
                .anyMatch(n -> n.name().equals(name) && n.status() == io.tenure.NodeStatus.ACTIVE));
  }

  private void report(String signal, List<Duration> times) {
    List<Duration> sorted = new ArrayList<>(times);
    Collections.sort(sorted);
    System.out.printf(
        Locale.ROOT,
        "| %s | %s | %d | %s | %s | %s | %s |%n",
        Stores.maskSecrets(url).replaceAll("\\?.*", ""),
        signal,
        sorted.size(),
        ms(percentile(sorted, 50)),
        ms(percentile(sorted, 90)),
        ms(sorted.get(sorted.size() - 1)),
        ms(sorted.get(0)));
    System.out.flush();
  }

  private static Duration percentile(List<Duration> sorted, int p) {
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, index));
  }

  private static String ms(Duration d) {
    return String.format(Locale.ROOT, "%.0f ms", d.toNanos() / 1e6);
  }

  private interface Condition {
    boolean holds() throws Exception;
  }

  private static void awaitUntil(String what, Condition condition) throws Exception {
    long deadline = System.nanoTime() + BOUND.toNanos();
    while (!condition.holds()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("not within " + BOUND + ": " + what);
      }
      Thread.sleep(5);
    }
  }

  private void dropTables() throws Exception {
    if (!url.startsWith("jdbc:")) {
      return;
    }
    String jdbcUrl = url.startsWith("jdbc:mysql:") ? "jdbc:mariadb:" + url.substring(11) : url;
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet rows =
          c.getMetaData()
              .getTables(c.getCatalog(), null, prefix.value() + "%", new String[] {"TABLE"})) {
        while (rows.next()) {
          tables.add(rows.getString("TABLE_NAME"));
        }
      }
      for (String table : tables) {
        s.execute("DROP TABLE " + table);
      }
    }
    System.err.println("dropped " + Instant.now());
  }
}
