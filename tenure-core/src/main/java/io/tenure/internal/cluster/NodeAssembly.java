package io.tenure.internal.cluster;

import io.tenure.AgentFamily;
import io.tenure.NodeListener;
import io.tenure.NodeSettings;
import io.tenure.TenureNode;
import io.tenure.Ticker;
import io.tenure.internal.queue.ConsumerSpec;
import io.tenure.internal.wake.WakeHost;
import io.tenure.spi.Store;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The last step of {@link io.tenure.TenureNodeBuilder#build()}: binds the node's wake-up socket,
 * advertises it, and builds the node, closing the socket again if anything after the bind refuses.
 */
public final class NodeAssembly {
  private NodeAssembly() {}

  /**
   * @param settings the node's settings, checked, without the wake-up capability yet
   * @param families every agent family the node runs, the exclusive queues' included
   * @param consumers the shared queue consumers
   * @return an unstarted node
   * @throws IllegalArgumentException if no wake-up socket can be bound, or the settings refuse the
   *     capability that advertises it; no socket is left open then
   */
  public static TenureNode build(
      Store store,
      NodeSettings settings,
      Ticker ticker,
      List<NodeListener> listeners,
      Map<String, AgentFamily> families,
      List<ConsumerSpec> consumers) {
    Set<String> capabilities = new LinkedHashSet<>(settings.capabilities());
    return WakeHost.buildWith(
        settings.queues(),
        capabilities,
        wake ->
            new DefaultTenureNode(
                store,
                advertising(settings, capabilities),
                ticker,
                listeners,
                families,
                consumers,
                wake));
  }

  private static NodeSettings advertising(NodeSettings settings, Set<String> capabilities) {
    return new NodeSettings(
        settings.name(),
        settings.address(),
        capabilities,
        settings.heartbeat(),
        settings.leadership(),
        settings.cleanup(),
        settings.agents(),
        settings.queues());
  }
}
