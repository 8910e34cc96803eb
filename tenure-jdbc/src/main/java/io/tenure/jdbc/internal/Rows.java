package io.tenure.jdbc.internal;

import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/** Mapping of cluster rows, shared by the JDBC stores. */
final class Rows {
  static final String NODE_COLUMNS =
      "node_id, name, address, capabilities, status, started_at, heartbeat_at, fence_after_us, row_version";

  private Rows() {}

  static NodeInfo node(Dialect dialect, ResultSet rows) throws SQLException {
    return new NodeInfo(
        rows.getString("node_id"),
        rows.getString("name"),
        rows.getString("address"),
        capabilities(rows.getString("capabilities")),
        NodeStatus.valueOf(rows.getString("status")),
        dialect.getInstant(rows, "started_at"),
        dialect.getInstant(rows, "heartbeat_at"),
        Duration.ofNanos(rows.getLong("fence_after_us") * 1000),
        rows.getLong("row_version"));
  }

  /** Capabilities never contain commas (the node builder refuses them), so a list is safe. */
  static String capabilities(Set<String> capabilities) {
    return capabilities.stream().sorted().collect(Collectors.joining(","));
  }

  private static Set<String> capabilities(String stored) {
    return stored.isEmpty()
        ? Set.of()
        : Arrays.stream(stored.split(",")).collect(Collectors.toSet());
  }

  static long micros(Duration duration) {
    return Math.multiplyExact(duration.getSeconds(), 1_000_000L) + duration.getNano() / 1000;
  }
}
