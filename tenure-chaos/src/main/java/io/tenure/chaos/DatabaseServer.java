package io.tenure.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Restarts the local database server a store URL points at, the way this machine runs them (Debian
 * packages, the harness as root): PostgreSQL with {@code pg_ctlcluster VERSION main restart},
 * MariaDB by {@code mariadb-admin shutdown} and {@code start-stop-daemon} (as {@code
 * scripts/start-databases.sh} starts it). Only for servers on this machine.
 */
final class DatabaseServer {
  private DatabaseServer() {}

  /**
   * @return how long the restart took, until the server answered again
   * @throws IllegalStateException if a step failed or the server did not come back within 60 s
   */
  static long restart(String storeUrl) throws InterruptedException {
    boolean postgres = storeUrl.startsWith("jdbc:postgresql:");
    String defaultPort = postgres ? "5432" : "3306";
    java.util.regex.Matcher host =
        java.util.regex.Pattern.compile("//(127\\.0\\.0\\.1|localhost)(:(\\d+))?/")
            .matcher(storeUrl);
    if (!host.find() || (host.group(3) != null && !host.group(3).equals(defaultPort))) {
      throw new IllegalStateException(
          "restart-db restarts this machine's server on its default port ("
              + defaultPort
              + ") only, not "
              + storeUrl);
    }
    long start = System.nanoTime();
    if (postgres) {
      String version = run(List.of("sh", "-c", "ls /etc/postgresql | sort -V | tail -1")).strip();
      run(List.of("pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart"));
      waitFor(List.of("pg_isready", "-h", "127.0.0.1", "-p", "5432", "-q"));
    } else {
      run(List.of("mariadb-admin", "-h", "127.0.0.1", "-P", "3306", "-uroot", "shutdown"));
      // shutdown returns before the process is gone; a start meanwhile would find it and do
      // nothing.
      waitFor(List.of("sh", "-c", "! pgrep -x mariadbd"));
      run(
          List.of(
              "start-stop-daemon",
              "--start",
              "--oknodo",
              "--background",
              "--exec",
              "/usr/sbin/mariadbd"));
      waitFor(List.of("mariadb-admin", "-h", "127.0.0.1", "-P", "3306", "-uroot", "ping"));
    }
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }

  private static void waitFor(List<String> probe) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < end) {
      try {
        run(probe);
        return;
      } catch (IllegalStateException notYet) {
        Thread.sleep(200);
      }
    }
    throw new IllegalStateException(
        "the database server did not come back within 60 s: " + String.join(" ", probe));
  }

  private static String run(List<String> command) throws InterruptedException {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(90, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", command) + " failed: " + output.strip());
      }
      return output;
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + command.get(0) + ": " + e.getMessage(), e);
    }
  }
}
