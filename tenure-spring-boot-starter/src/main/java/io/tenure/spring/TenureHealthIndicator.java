package io.tenure.spring;

import io.tenure.Admin;
import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import io.tenure.Tenure;
import io.tenure.TenureNode;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Tenure's component of {@code /actuator/health}: UP while the store answers and this application's
 * node is ACTIVE and not self-fenced; DOWN when the store does not answer, the node is self-fenced
 * (no heartbeat succeeded in time: it has stopped its work) or no longer ACTIVE; OUT_OF_SERVICE
 * while the node is not running (before the context started it, after it left). Details: the store,
 * the node's name, id and status, whether it leads and its epoch, and the cluster's leader. Each
 * check reads the database: the clock, the leader and the membership.
 */
public final class TenureHealthIndicator extends AbstractHealthIndicator {
  private final Tenure tenure;
  private final Supplier<Optional<TenureNode>> node;
  private final boolean nodeEnabled;

  /**
   * @param tenure the store to check
   * @param node this application's node while it runs
   * @param nodeEnabled false if this application runs no node ({@code tenure.node.enabled=false}):
   *     then only the store is checked
   */
  public TenureHealthIndicator(
      Tenure tenure, Supplier<Optional<TenureNode>> node, boolean nodeEnabled) {
    super("Tenure health check failed");
    this.tenure = tenure;
    this.node = node;
    this.nodeEnabled = nodeEnabled;
  }

  @Override
  protected void doHealthCheck(Health.Builder health) {
    health.withDetail("store", tenure.toString());
    Admin admin;
    try {
      admin = tenure.admin();
      admin.now();
      admin
          .leader()
          .ifPresent(
              leader ->
                  health.withDetail(
                      "clusterLeader",
                      (leader.name() == null ? leader.nodeId() : leader.name())
                          + " (epoch "
                          + leader.epoch()
                          + ")"));
    } catch (RuntimeException e) {
      health.down().withDetail("reason", "the store does not answer: " + e.getMessage());
      return;
    }
    if (!nodeEnabled) {
      health.up().withDetail("node", "none (tenure.node.enabled=false)");
      return;
    }
    Optional<TenureNode> running = node.get();
    if (running.isEmpty()) {
      health.outOfService().withDetail("reason", "the node is not running");
      return;
    }
    check(running.get(), admin, health);
  }

  private static void check(TenureNode node, Admin admin, Health.Builder health) {
    String id = node.nodeId();
    boolean leader = node.isLeader();
    health
        .withDetail("node", node.settings().name())
        .withDetail("nodeId", id)
        .withDetail("leader", leader);
    node.leaderFence().ifPresent(fence -> health.withDetail("epoch", fence.epoch()));
    Optional<NodeStatus> status =
        admin.nodes().stream()
            .filter(info -> info.nodeId().equals(id))
            .map(NodeInfo::status)
            .findFirst();
    health.withDetail("status", status.map(Enum::name).orElse("not in the membership table"));
    if (node.isSelfFenced()) {
      health.down().withDetail("reason", "self-fenced: no heartbeat succeeded in time");
    } else if (status.isEmpty() || status.get() != NodeStatus.ACTIVE) {
      health.down().withDetail("reason", "the node is not ACTIVE in the cluster");
    } else {
      health.up();
    }
  }
}
