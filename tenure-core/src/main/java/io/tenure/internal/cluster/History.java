package io.tenure.internal.cluster;

import io.tenure.ClusterEvent;
import io.tenure.spi.EventStore;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Records cluster events; a failure to record is logged, never thrown: history is best effort. */
final class History {
  private static final Logger LOG = LoggerFactory.getLogger(History.class);

  private final EventStore events;

  History(EventStore events) {
    this.events = events;
  }

  void record(ClusterEvent.Kind kind, String nodeId, @Nullable Long epoch, String detail) {
    try {
      events.append(kind, nodeId, epoch, detail);
    } catch (RuntimeException e) {
      LOG.warn("could not record {} for node {} in the history: {}", kind, nodeId, e.toString());
    }
  }
}
