package io.tenure.chaos;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Node processes of one cluster, each the same command with its own arguments (a {@code tenure
 * node} of the demo, a {@link ChaosNode} of the fault harness), with real process faults: SIGTERM
 * (leave), SIGKILL (crash), SIGSTOP/SIGCONT (freeze), and start again as a new incarnation. Each
 * node's output goes to {@code NAME.log} in a folder.
 *
 * <p>The store URL goes to each process in its environment ({@link #STORE_VARIABLE}), never on its
 * command line: any user can read a process's arguments ({@code ps}), only its owner its
 * environment, and the URL may carry a password.
 */
public final class NodeProcesses {
  /**
   * The variable a node process takes its store URL from ({@code tenure node} when {@code --store}
   * is not given).
   */
  public static final String STORE_VARIABLE = "TENURE_STORE";

  private final List<String> launcher;
  private final Map<String, String> environment;
  private final Path logs;
  private final Output output;
  private final Map<String, Node> nodes = new LinkedHashMap<>();

  /** Hears each node's output, line by line, and the end of each of its processes. */
  public interface Output {
    /** One line the process {@code pid} of node {@code name} printed (already in its log). */
    void line(String name, long pid, String line);

    /** The process {@code pid} of node {@code name} ended, however. */
    default void exited(String name, long pid) {}
  }

  /** What the harness last did to a node. */
  public enum State {
    RUNNING,
    PAUSED,
    STOPPED,
    KILLED
  }

  private static final class Node {
    final List<String> arguments;
    @Nullable Process process;
    State state = State.STOPPED;

    Node(List<String> arguments) {
      this.arguments = arguments;
    }
  }

  /**
   * @param launcher the command every node runs before its own arguments, e.g. {@code java -jar
   *     tenure.jar node}
   * @param logs where each node's output goes
   */
  public NodeProcesses(List<String> launcher, String storeUrl, Path logs) {
    this(launcher, storeUrl, logs, (name, pid, line) -> {});
  }

  /**
   * @param storeUrl the nodes' store, passed in {@link #STORE_VARIABLE}: do not also pass {@code
   *     --store} in a node's arguments
   * @param output told every line each node prints, and when each process ends
   */
  public NodeProcesses(List<String> launcher, String storeUrl, Path logs, Output output) {
    this.launcher = List.copyOf(launcher);
    this.environment = Map.of(STORE_VARIABLE, storeUrl);
    this.logs = logs;
    this.output = output;
  }

  /**
   * @param name a node
   * @return the command its process runs (launcher, then its arguments): what {@code ps} shows of
   *     it
   */
  public synchronized List<String> command(String name) {
    List<String> command = new ArrayList<>(launcher);
    command.addAll(node(name).arguments);
    return command;
  }

  /** Adds a node running the launcher with {@code arguments} and starts it. */
  public synchronized void add(String name, List<String> arguments) {
    nodes.put(name, new Node(List.copyOf(arguments)));
    start(name);
  }

  public synchronized List<String> names() {
    return new ArrayList<>(nodes.keySet());
  }

  public synchronized State state(String name) {
    return node(name).state;
  }

  public synchronized long pid(String name) {
    Process process = node(name).process;
    return process == null ? -1 : process.pid();
  }

  /** Starts a stopped or killed node again: a new incarnation under the same name. */
  public synchronized void start(String name) {
    Node node = node(name);
    if (node.process != null && node.process.isAlive()) {
      throw new IllegalStateException(name + " is still running");
    }
    ProcessBuilder builder = new ProcessBuilder(command(name)).redirectErrorStream(true);
    builder.environment().putAll(environment);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start node " + name + ": " + e.getMessage(), e);
    }
    node.process = process;
    node.state = State.RUNNING;
    Path log = logs.resolve(name + ".log");
    Thread.ofPlatform()
        .daemon()
        .name("node-output-" + name)
        .start(
            () -> {
              copy(name, process, log);
              output.exited(name, process.pid());
            });
  }

  /** Whether the node's current process is alive. */
  public synchronized boolean isAlive(String name) {
    Process process = node(name).process;
    return process != null && process.isAlive();
  }

  private void copy(String name, Process process, Path log) {
    try (BufferedReader reader =
            new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        var writer =
            Files.newBufferedWriter(
                log,
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND)) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        writer.write(line);
        writer.newLine();
        writer.flush();
        output.line(name, process.pid(), line);
      }
    } catch (IOException e) {
      // the process is gone
    }
  }

  /**
   * The local ports of a node's TCP connections to {@code serverPort} (its database sessions), from
   * {@code ss}: the harness kills those sessions on the server side.
   */
  public List<Integer> clientPorts(String name, int serverPort) {
    long pid = pid(name);
    List<Integer> ports = new ArrayList<>();
    try {
      Process ss =
          new ProcessBuilder("ss", "-tnpH", "dport = :" + serverPort)
              .redirectErrorStream(true)
              .start();
      String output = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      ss.waitFor(5, TimeUnit.SECONDS);
      for (String line : output.split("\\R")) {
        if (!line.contains("pid=" + pid + ",")) {
          continue;
        }
        String[] columns = line.trim().split("\\s+");
        if (columns.length >= 4) {
          String local = columns[3];
          ports.add(Integer.parseInt(local.substring(local.lastIndexOf(':') + 1)));
        }
      }
    } catch (IOException | NumberFormatException e) {
      throw new IllegalStateException(
          "cannot list the sockets of " + name + " with ss: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return ports;
  }

  /** SIGKILL: a crash; the others must detect it. */
  public synchronized void kill(String name) {
    Node node = node(name);
    if (node.process != null) {
      node.process.destroyForcibly();
      waitFor(node.process, Duration.ofSeconds(10));
    }
    node.state = State.KILLED;
  }

  /** SIGTERM: the node leaves gracefully; waits up to {@code grace}, then kills. */
  public synchronized void stop(String name, Duration grace) {
    Node node = node(name);
    if (node.process != null && node.process.isAlive()) {
      if (node.state == State.PAUSED) {
        signal(node.process, "CONT");
      }
      node.process.destroy();
      if (!waitFor(node.process, grace)) {
        node.process.destroyForcibly();
        waitFor(node.process, Duration.ofSeconds(10));
      }
    }
    node.state = State.STOPPED;
  }

  /**
   * SIGTERM without waiting: the node leaves gracefully on its own time (resumed first if paused).
   */
  public synchronized void terminate(String name) {
    Node node = node(name);
    if (node.process != null && node.process.isAlive()) {
      if (node.state == State.PAUSED) {
        signal(node.process, "CONT");
      }
      node.process.destroy();
    }
    node.state = State.STOPPED;
  }

  /** SIGSTOP: frozen; its heartbeats and leases lapse while it cannot notice. */
  public synchronized void pause(String name) {
    Node node = node(name);
    signal(running(node, name), "STOP");
    node.state = State.PAUSED;
  }

  /** SIGCONT. */
  public synchronized void resume(String name) {
    Node node = node(name);
    signal(running(node, name), "CONT");
    node.state = State.RUNNING;
  }

  /** Resumes paused nodes and stops every node, each within {@code grace}. */
  public void stopAll(Duration grace) {
    for (String name : names()) {
      stop(name, grace);
    }
  }

  private Node node(String name) {
    Node node = nodes.get(name);
    if (node == null) {
      throw new IllegalArgumentException("no node " + name);
    }
    return node;
  }

  private static Process running(Node node, String name) {
    if (node.process == null || !node.process.isAlive()) {
      throw new IllegalStateException(name + " is not running");
    }
    return node.process;
  }

  private static boolean waitFor(Process process, Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
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
}
