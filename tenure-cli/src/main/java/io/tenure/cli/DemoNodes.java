package io.tenure.cli;

import io.tenure.chaos.NodeProcesses;
import io.tenure.server.AdminException;
import io.tenure.server.AdminRequest;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The demo's node processes: each a {@code tenure node} of this same jar, so stopping one is a real
 * process leaving, killing one a real crash and pausing one a real freeze (SIGSTOP).
 */
final class DemoNodes {
  private static final Pattern ADMIN_LINE =
      Pattern.compile("admin API and console on (http://[^\\s\"]+)");

  private final NodeProcesses processes;
  private final PrintWriter out;
  private final Map<String, DemoNode> nodes = new LinkedHashMap<>();

  /** What a node process is doing, as the demo last made it. */
  enum State {
    STARTING,
    RUNNING,
    PAUSED,
    STOPPED,
    KILLED
  }

  /** What the demo knows of a node beyond its process: its state and admin URL. */
  private static final class DemoNode {
    final String name;
    volatile long pid = -1;
    volatile State state = State.STOPPED;
    volatile @Nullable String url;

    DemoNode(String name) {
      this.name = name;
    }
  }

  /**
   * @param baseCommand the command that runs this launcher, e.g. {@code java -jar tenure.jar}
   * @param storeUrl the nodes' store, passed in their environment (never on a command line)
   * @param logs the folder for each node's output ({@code node-1.log} ...)
   */
  /** The launcher's {@code node} command: every demo node is a {@code tenure node}. */
  private static List<String> nodeCommand(List<String> baseCommand) {
    List<String> command = new java.util.ArrayList<>(baseCommand);
    command.add("node");
    return command;
  }

  DemoNodes(List<String> baseCommand, String storeUrl, Path logs, PrintWriter out) {
    this.processes =
        new NodeProcesses(
            nodeCommand(baseCommand),
            storeUrl,
            logs,
            new NodeProcesses.Output() {
              @Override
              public void line(String name, long pid, String line) {
                DemoNode node = node(name);
                Matcher admin = ADMIN_LINE.matcher(line);
                if (node != null && node.pid == pid && admin.find()) {
                  node.url = admin.group(1);
                  node.state = State.RUNNING;
                }
              }

              @Override
              public void exited(String name, long pid) {
                DemoNode node = node(name);
                if (node != null
                    && node.pid == pid
                    && (node.state == State.STARTING || node.state == State.RUNNING)) {
                  node.state =
                      State.STOPPED; // it exited by itself (e.g. a startup error: see its log)
                }
              }
            });
    this.out = out;
  }

  private synchronized @Nullable DemoNode node(String name) {
    return nodes.get(name);
  }

  /** Adds and starts a node running {@code tenure node ARGUMENTS}. */
  synchronized void add(String name, List<String> arguments) {
    DemoNode node = new DemoNode(name);
    nodes.put(name, node);
    node.state = State.STARTING;
    processes.add(name, arguments);
    node.pid = processes.pid(name);
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

  /** {@code GET /api/demo}'s node list. */
  List<Map<String, Object>> describe() {
    List<Map<String, Object>> described = new ArrayList<>();
    for (DemoNode node : snapshot()) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("name", node.name);
      fields.put("pid", node.pid < 0 ? null : node.pid);
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
      throw AdminException.notFound(
          "no such path: " + request.path() + "; use POST /api/demo/nodes/NAME/ACTION");
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
    out.println(
        "demo: " + action + " " + name + " -> " + state.name().toLowerCase(java.util.Locale.ROOT));
    out.flush();
    return Map.of("name", name, "state", state.name().toLowerCase(java.util.Locale.ROOT));
  }

  private synchronized State act(DemoNode node, String action) {
    State state = node.state;
    switch (action) {
      case "stop" -> {
        require(state == State.RUNNING, node, action);
        node.state = State.STOPPED;
        processes.terminate(node.name);
      }
      case "kill" -> {
        require(state == State.RUNNING || state == State.PAUSED, node, action);
        node.state = State.KILLED;
        processes.kill(node.name);
      }
      case "pause" -> {
        require(state == State.RUNNING, node, action);
        processes.pause(node.name);
        node.state = State.PAUSED;
      }
      case "resume" -> {
        require(state == State.PAUSED, node, action);
        processes.resume(node.name);
        node.state = State.RUNNING;
      }
      case "start" -> {
        require(state == State.STOPPED || state == State.KILLED, node, action);
        if (processes.isAlive(node.name)) {
          throw AdminException.conflict(
              node.name + " is still shutting down; try again in a moment");
        }
        node.url = null;
        node.state = State.STARTING;
        processes.start(node.name);
        node.pid = processes.pid(node.name);
      }
      default ->
          throw AdminException.badRequest(
              "unknown action '" + action + "'; use stop, kill, pause, resume or start");
    }
    return node.state;
  }

  private static void require(boolean applies, DemoNode node, String action) {
    if (!applies) {
      throw AdminException.conflict(
          "cannot "
              + action
              + " "
              + node.name
              + ": it is "
              + node.state.name().toLowerCase(java.util.Locale.ROOT));
    }
  }

  /**
   * Resumes paused nodes, asks every node to leave, and kills those still there after {@code
   * grace}.
   */
  void stopAll(Duration grace) {
    snapshot().forEach(node -> node.state = State.STOPPED);
    processes.stopAll(grace);
  }
}
