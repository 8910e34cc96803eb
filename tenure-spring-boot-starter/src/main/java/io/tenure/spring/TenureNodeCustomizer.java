package io.tenure.spring;

import io.tenure.TenureNodeBuilder;

/**
 * Changes the node's builder after the properties, the {@link io.tenure.AgentFamily} beans and the
 * handler methods are applied, just before the node is built: e.g. to add a {@link
 * io.tenure.NodeListener} or a batch consumer. Beans of this type are applied in their order.
 */
@FunctionalInterface
public interface TenureNodeCustomizer {
  /**
   * @param builder the node's builder; its setters check their arguments as usual
   */
  void customize(TenureNodeBuilder builder);
}
