package io.tenure.server;

import com.sun.net.httpserver.HttpExchange;
import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import io.tenure.TenureNode;
import io.tenure.spi.Store;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** {@code /health/live} and {@code /health/ready}, for probes: no token, a status and a reason. */
final class Health {
  private Health() {}

  /** Live: the process answers. */
  static void live(HttpExchange exchange) throws IOException {
    Exchanges.json(exchange, 200, Map.of("status", "UP"));
  }

  /** Ready: the store answers and, on a node, the node is ACTIVE and not self-fenced. */
  static void ready(HttpExchange exchange, Store store, @Nullable TenureNode node)
      throws IOException {
    String problem = null;
    try {
      store.now();
      if (node != null) {
        Optional<NodeInfo> self =
            store.membership().read().nodes().stream()
                .filter(n -> n.nodeId().equals(node.nodeId()))
                .findFirst();
        if (node.isSelfFenced()) {
          problem = "self-fenced: no heartbeat succeeded in time";
        } else if (self.isEmpty() || self.get().status() != NodeStatus.ACTIVE) {
          problem =
              "node is " + self.map(n -> n.status().name()).orElse("not in the membership table");
        }
      }
    } catch (RuntimeException e) {
      problem = "the store is unreachable: " + e.getMessage();
    }
    if (problem == null) {
      Exchanges.json(exchange, 200, Map.of("status", "UP"));
    } else {
      Exchanges.json(exchange, 503, Map.of("status", "DOWN", "reason", problem));
    }
  }
}
