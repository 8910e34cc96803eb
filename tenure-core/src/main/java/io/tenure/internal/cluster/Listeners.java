package io.tenure.internal.cluster;

import io.tenure.NodeListener;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Calls every listener; one that throws is logged and does not stop the others. */
final class Listeners {
  private static final Logger LOG = LoggerFactory.getLogger(Listeners.class);

  private final List<NodeListener> listeners;

  Listeners(List<NodeListener> listeners) {
    this.listeners = List.copyOf(listeners);
  }

  void fire(String what, Consumer<NodeListener> call) {
    for (NodeListener listener : listeners) {
      try {
        call.accept(listener);
      } catch (RuntimeException e) {
        LOG.warn("node listener {} failed on {}", listener, what, e);
      }
    }
  }
}
