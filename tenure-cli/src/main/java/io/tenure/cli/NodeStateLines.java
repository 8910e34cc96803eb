package io.tenure.cli;

import io.tenure.DemotionReason;
import io.tenure.NodeListener;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The node's state lines on stdout: text ({@code TIME node ID WHAT}) or, with {@code --json}, one
 * JSON object per line with {@code time}, {@code node}, {@code nodeId}, {@code event} and the
 * event's own fields.
 */
final class NodeStateLines {
  private final PrintWriter out;
  private final boolean json;
  private final String name;

  /**
   * @param name the node's name, which every line carries
   */
  NodeStateLines(PrintWriter out, boolean json, String name) {
    this.out = out;
    this.json = json;
    this.name = name;
  }

  /** The listener that prints each edge of the node. */
  NodeListener listener() {
    return new Printer();
  }

  /**
   * @param who the node id, or the name in parentheses where a listener does not know the id
   */
  void print(String who, String event, String text, Map<String, ?> fields) {
    String line;
    if (json) {
      Map<String, Object> object = new LinkedHashMap<>();
      object.put("time", Instant.now().toString());
      object.put("node", name);
      if (!who.startsWith("(")) {
        object.put("nodeId", who);
      }
      object.put("event", event);
      object.putAll(fields);
      line = io.tenure.server.Json.write(object);
    } else {
      line = Instant.now() + " node " + who + " " + text;
    }
    synchronized (out) {
      out.println(line);
      out.flush();
    }
  }

  /** Prints each edge as one line, so an operator (or a script) can follow the node. */
  private final class Printer implements NodeListener {
    @Override
    public void onPromoted(long epoch) {
      LogContext.epoch(epoch);
      print(self(), "leader", "is leader at epoch " + epoch, Map.of("epoch", epoch));
    }

    @Override
    public void onDemoted(long epoch, DemotionReason reason) {
      print(
          self(),
          "demoted",
          "is no longer leader at epoch " + epoch + ": " + reason,
          Map.of("epoch", epoch, "reason", reason.toString()));
    }

    @Override
    public void onSelfFenced() {
      print(self(), "self-fenced", "self-fenced: no heartbeat succeeded in time", Map.of());
    }

    @Override
    public void onUnfenced() {
      print(self(), "unfenced", "heart-beats again", Map.of());
    }

    @Override
    public void onRejoined(String previousNodeId, String nodeId) {
      LogContext.nodeId(nodeId);
      print(
          previousNodeId,
          "rejoined",
          "was ejected and rejoined as " + nodeId,
          Map.of("newNodeId", nodeId));
    }

    private String self() {
      return "(" + name + ")";
    }
  }
}
