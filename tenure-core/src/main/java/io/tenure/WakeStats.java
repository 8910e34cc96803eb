package io.tenure;

/**
 * A node's wake-ups (docs/QUEUE.md, "Wake-ups"): datagrams that tell a consumer to claim now rather
 * than at its next poll. Counted since the node was built.
 *
 * @param enabled whether this node takes wake-ups ({@link TenureNodeBuilder#wakeups})
 * @param sent datagrams this node's store sent to the nodes consuming a queue it enqueued on, and
 *     to every node taking wake-ups after its leader placed agents (docs/AGENTS.md)
 * @param received well-formed wake-ups this node read, agents-placed ones included
 * @param dropped datagrams this node read and dropped as malformed or foreign
 * @param woken wake-ups that cut a consumer's wait short (received ones for a queue this node
 *     consumes); agents-placed ones are never counted here
 */
public record WakeStats(boolean enabled, long sent, long received, long dropped, long woken) {
  /**
   * @param sent datagrams sent, as for an enabled node
   * @return the numbers of a node that takes no wake-ups
   */
  public static WakeStats off(long sent) {
    return new WakeStats(false, sent, 0, 0, 0);
  }
}
