package io.tenure.cli;

import io.tenure.server.AdminException;
import io.tenure.server.AdminRequest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The demo's node processes: each a {@code tenure node} of this same jar, so stopping one is a real
 * process leaving, killing one a real crash and pausing one a real freeze (SIGSTOP).
 */
final class DemoNodes {
  // The node says it on stdout; with --verbose its log line (stderr, merged) says it too, quoted.
  private static final Pattern ADMIN_LINE = Pattern.compile("admin API and console on (http://[^\\s\"]+)");

  private final List<String> baseCommand;
  private final Path logs;
  private final PrintWriter out;
  private final Map<String, DemoNode> nodes = new LinkedHashMap<>();

  /** What a node process is doing, as the demo last made it. */
  enum State { STARTING, RUNNING, PAUSED, STOPPED, KILLED }

  private static final class DemoNode {
    final String name;
    final List<String> arguments;
    volatile @Nullable Process process;
    volatile State state = State.STOPPED;
    volatile @Nullable String url;

    DemoNode(String name, List<String> arguments) {
      this.name = name;
      this.arguments = arguments;
    }
  }

  /**
   * @param baseCommand the command that runs this launcher, e.g. {@code java -jar tenure.jar}
   * @param logs the folder for each node's output ({@code node-1.log} ...)
   */
  DemoNodes(List<String> baseCommand, Path logs, PrintWriter out) {
    this.baseCommand = List.copyOf(baseCommand);
    this.logs = logs;
    this.out = out;
  }

  /** Adds and starts a node running {@code tenure node ARGUMENTS}. */
  synchronized void add(String name, List<String> arguments) {
    DemoNode node = new DemoNode(name, List.copyOf(arguments));
    nodes.put(name, node);
    start(node);
  }

  /**
   * Waits until every node printed its admin URL.
   *
   * @return false if one did not within {@code timeout}
   */
  boolean awaitStarted(Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < end) {
      if (snapshot().stream().allMatch(n -> n.state != State.STARTING)) {
        return snapshot().stream().allMatch(n -> n.state == State.RUNNING);
      }
      Thread.sleep(50);
    }
    return false;
  }

  private synchronized List<DemoNode> snapshot() {
    return new ArrayList<>(nodes.values());
  }

  private void start(DemoNode node) {
    List<String> command = new ArrayList<>(baseCommand);
    command.add("node");
    command.addAll(node.arguments);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start demo node " + node.name + ": " + e.getMessage(), e);
    }
    node.process = process;
    node.state = State.STARTING;
    node.url = null;
    Path log = logs.resolve(node.name + ".log");
    Thread.ofPlatform().daemon().name("demo-" + node.name + "-output").start(() -> copyOutput(node, process, log));
  }

  /** Copies a node's output to its log and notes its admin URL when it prints it. */
  private void copyOutput(DemoNode node, Process process, Path log) {
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        var writer = Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
            StandardOpenOption.APPEND)) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        writer.write(line);
        writer.newLine();
        writer.flush();
        Matcher admin = ADMIN_LINE.matcher(line);
        if (admin.find() && node.process == process) {
          node.url = admin.group(1);
          node.state = State.RUNNING;
        }
      }
    } catch (IOException e) {
      // the process is gone; its state says how
    }
    if (node.process == process && (node.state == State.STARTING || node.state == State.RUNNING)) {
      node.state = State.STOPPED; // it exited by itself (e.g. a startup error: see its log)
    }
  }

  /** {@code GET /api/demo}'s node list. */
  List<Map<String, Object>> describe() {
    List<Map<String, Object>> described = new ArrayList<>();
    for (DemoNode node : snapshot()) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("name", node.name);
      Process process = node.process;
      fields.put("pid", process == null ? null : process.pid());
      fields.put("state", node.state.name().toLowerCase(java.util.Locale.ROOT));
      fields.put("http", node.url);
      described.add(fields);
    }
    return described;
  }

  /** {@code POST /api/demo/nodes/NAME/ACTION}. */
  Map<String, Object> act(AdminRequest request) {
    String[] parts = request.path().split("/");
    if (!request.method().equals("POST") || parts.length != 6 || !parts[3].equals("nodes")) {
      throw AdminException.notFound("no such path: " + request.path() + "; use POST /api/demo/nodes/NAME/ACTION");
    }
    String name = parts[4];
    String action = parts[5];
    DemoNode node;
    synchronized (this) {
      node = nodes.get(name);
    }
    if (node == null) {
      throw AdminException.notFound("no demo node '" + name + "'");
    }
    State state = act(node, action);
    out.println("demo: " + action + " " + name + " -> " + state.name().toLowerCase(java.util.Locale.ROOT));
    out.flush();
    return Map.of("name", name, "state", state.name().toLowerCase(java.util.Locale.ROOT));
  }

  private synchronized State act(DemoNode node, String action) {
    Process process = node.process;
    State state = node.state;
    switch (action) {
      case "stop" -> {
        require(state == State.RUNNING, node, action);
        node.state = State.STOPPED;
        process.destroy();
      }
      case "kill" -> {
        require(state == State.RUNNING || state == State.PAUSED, node, action);
        node.state = State.KILLED;
        process.destroyForcibly();
      }
      case "pause" -> {
        require(state == State.RUNNING, node, action);
        signal(process, "STOP");
        node.state = State.PAUSED;
      }
      case "resume" -> {
        require(state == State.PAUSED, node, action);
        signal(process, "CONT");
        node.state = State.RUNNING;
      }
      case "start" -> {
        require(state == State.STOPPED || state == State.KILLED, node, action);
        if (process != null && process.isAlive()) {
          throw AdminException.conflict(node.name + " is still shutting down; try again in a moment");
        }
        start(node);
      }
      default -> throw AdminException.badRequest("unknown action '" + action + "'; use stop, kill, pause, resume or start");
    }
    return node.state;
  }

  private static void require(boolean applies, DemoNode node, String action) {
    if (!applies) {
      throw AdminException.conflict("cannot " + action + " " + node.name + ": it is "
          + node.state.name().toLowerCase(java.util.Locale.ROOT));
    }
  }

  private static void signal(Process process, String signal) {
    try {
      Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
      if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot send SIG" + signal + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while sending SIG" + signal, e);
    }
  }

  /** Resumes paused nodes, asks every node to leave, and kills those still there after {@code grace}. */
  void stopAll(Duration grace) {
    List<DemoNode> all = snapshot();
    for (DemoNode node : all) {
      Process process = node.process;
      if (process == null || !process.isAlive()) {
        continue;
      }
      if (node.state == State.PAUSED) {
        signal(process, "CONT");
      }
      node.state = State.STOPPED;
      process.destroy();
    }
    CountDownLatch done = new CountDownLatch(all.size());
    for (DemoNode node : all) {
      Process process = node.process;
      Thread.ofVirtual().start(() -> {
        try {
          if (process != null && !process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          done.countDown();
        }
      });
    }
    try {
      done.await(grace.toMillis() + 5_000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
