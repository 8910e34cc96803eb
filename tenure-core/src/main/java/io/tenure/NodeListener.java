package io.tenure;

/**
 * Callbacks from a {@link TenureNode}, called synchronously on the thread that detected the edge;
 * keep them short and non-blocking. A listener that throws is logged and does not stop the others.
 */
public interface NodeListener {
  /**
   * This node became leader.
   *
   * @param epoch the fencing epoch it holds; pass it to leader-only writes
   */
  default void onPromoted(long epoch) {}

  /**
   * This node stopped being leader. Fired once per demotion edge, before any successor can be sure
   * to hold the lease; stop leader-only work now.
   *
   * @param epoch the epoch it held
   * @param reason why
   */
  default void onDemoted(long epoch, DemotionReason reason) {}

  /** No heartbeat succeeded for {@code selfFenceAfter}: stop running work and claiming. */
  default void onSelfFenced() {}

  /** A heartbeat succeeded again after a self-fence. */
  default void onUnfenced() {}

  /**
   * The node found its row gone or dead and joined again under a new incarnation id.
   *
   * @param previousNodeId the old incarnation
   * @param nodeId the new one
   */
  default void onRejoined(String previousNodeId, String nodeId) {}
}
