package io.tenure.spi;

import io.tenure.NodeInfo;
import java.time.Instant;
import java.util.List;

/**
 * The node rows and the membership version, read together.
 *
 * @param version the membership version the rows belong to
 * @param nodes every node row, oldest join first
 * @param readAt the database clock at the read
 */
public record MembershipView(long version, List<NodeInfo> nodes, Instant readAt) {
  /** Copies the list. */
  public MembershipView {
    nodes = List.copyOf(nodes);
  }
}
