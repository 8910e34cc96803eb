package io.tenure.internal.agents;

import io.tenure.AgentUri;
import io.tenure.ClusterEvent;
import io.tenure.spi.EventStore;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runtime's entries in the cluster history, by this node. The history is for operators: an
 * entry that cannot be written is logged and dropped, never a reason to fail an agent's start or
 * stop.
 */
final class AgentEvents {
  // One logger name for the whole runtime: operators turn it up by that name (docs/BENCHMARKS.md).
  private static final Logger LOG = LoggerFactory.getLogger(AgentRuntime.class);

  private final EventStore events;
  private final Supplier<String> nodeId;

  AgentEvents(EventStore events, Supplier<String> nodeId) {
    this.events = events;
    this.nodeId = nodeId;
  }

  /** Records {@code kind} of the agent {@code uri}; a failure is logged and dropped. */
  void record(ClusterEvent.Kind kind, AgentUri uri, long epoch, String detail) {
    try {
      append(kind, epoch, detail.isEmpty() ? uri.toString() : uri + " " + detail);
    } catch (RuntimeException e) {
      LOG.debug("could not record {} of {}: {}", kind, uri, e.toString());
    }
  }

  /**
   * Records one entry.
   *
   * @throws RuntimeException whatever the event store threw: the caller decides to retry
   */
  void append(ClusterEvent.Kind kind, long epoch, String detail) {
    events.append(kind, nodeId.get(), epoch, detail);
  }

  /** A batch for the events of one tick's starts. */
  Batch batch() {
    return new Batch();
  }

  /** Events of one tick's starts, written together; a start that returns late records its own. */
  final class Batch {
    private final List<EventStore.NewEvent> pending = new ArrayList<>();
    private boolean closed;

    void add(ClusterEvent.Kind kind, long epoch, String detail) {
      EventStore.NewEvent event = new EventStore.NewEvent(kind, nodeId.get(), epoch, detail);
      synchronized (this) {
        if (!closed) {
          pending.add(event);
          return;
        }
      }
      write(List.of(event));
    }

    /** Writes what was added; what is added from now on is written at once. */
    void close() {
      List<EventStore.NewEvent> batch;
      synchronized (this) {
        closed = true;
        batch = List.copyOf(pending);
      }
      write(batch);
    }

    private void write(List<EventStore.NewEvent> batch) {
      try {
        events.appendAll(batch);
      } catch (RuntimeException e) {
        LOG.debug("could not record {} events: {}", batch.size(), e.toString());
      }
    }
  }
}
