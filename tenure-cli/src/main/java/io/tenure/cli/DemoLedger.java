package io.tenure.cli;

import io.tenure.ClusterEvent;
import io.tenure.MarkerKey;
import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.spi.Store;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the demo sent and what became of it, read back from the store: the markers the handlers
 * leave, and the messages still in the table. Every message ends up in exactly one of handled,
 * dead, stranded (still pending or in flight) or lost (gone without being handled).
 */
final class DemoLedger {
  private static final int CHUNK = 500;

  private final Store store;
  private final AtomicLong enqueued = new AtomicLong();

  /** Sent, not yet seen handled. */
  private final ConcurrentSkipListSet<Long> unconfirmed = new ConcurrentSkipListSet<>();

  /** Sent and seen handled. */
  private final ConcurrentSkipListSet<Long> handled = new ConcurrentSkipListSet<>();

  DemoLedger(Store store) {
    this.store = store;
  }

  void sent(long id) {
    enqueued.incrementAndGet();
    unconfirmed.add(id);
  }

  long enqueued() {
    return enqueued.get();
  }

  long handled() {
    return handled.size();
  }

  /** Moves the messages whose handled marker now exists from unconfirmed to handled. */
  void refresh() {
    List<Long> open = new ArrayList<>(unconfirmed);
    for (int from = 0; from < open.size(); from += CHUNK) {
      List<Long> chunk = open.subList(from, Math.min(open.size(), from + CHUNK));
      for (Long id : found(DemoWorkload.HANDLED, chunk)) {
        unconfirmed.remove(id);
        handled.add(id);
      }
    }
  }

  /** The ids among {@code ids} that have a marker in {@code tenant}. */
  private List<Long> found(String tenant, List<Long> ids) {
    List<MarkerKey> keys = ids.stream().map(id -> new MarkerKey(tenant, "msg-" + id)).toList();
    var markers = store.markers().findAll(keys);
    return ids.stream()
        .filter(id -> markers.containsKey(new MarkerKey(tenant, "msg-" + id)))
        .toList();
  }

  /** The live counts {@code GET /api/demo} shows (duplicates only in the final summary). */
  Map<String, Object> live() {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("enqueued", enqueued());
    fields.put("handled", handled());
    fields.put("dead", store.queues().stats().stream().mapToLong(s -> s.dead()).sum());
    fields.put("duplicates", null);
    return fields;
  }

  /** The final accounting: every message sent, classified once. */
  Map<String, Object> summary() {
    refresh();
    long dead = 0;
    long stranded = 0;
    long lost = 0;
    // The table first, then the marker again: a message handled after refresh() is gone from the
    // table by now but has its marker, and is handled, not lost.
    for (Long id : new ArrayList<>(unconfirmed)) {
      Optional<QueueMessage> message = store.queues().find(id);
      boolean finished = message.isEmpty() || message.get().status() == MessageStatus.DONE;
      if (finished && !found(DemoWorkload.HANDLED, List.of(id)).isEmpty()) {
        unconfirmed.remove(id);
        handled.add(id);
        continue;
      }
      if (message.isEmpty()) {
        lost++;
      } else if (message.get().status() == MessageStatus.DEAD) {
        dead++;
      } else if (message.get().status() == MessageStatus.PENDING
          || message.get().status() == MessageStatus.INFLIGHT) {
        stranded++;
      } else {
        lost++; // DONE without a handled marker cannot happen with the demo's handlers
      }
    }
    List<Long> all = new ArrayList<>(handled);
    long duplicates = 0;
    for (int from = 0; from < all.size(); from += CHUNK) {
      duplicates +=
          found(DemoWorkload.DUPLICATE, all.subList(from, Math.min(all.size(), from + CHUNK)))
              .size();
    }
    long leaderTerms = 0;
    long agentMoves = 0;
    for (ClusterEvent event : store.events().recent(10_000)) {
      if (event.kind() == ClusterEvent.Kind.LEADER_ACQUIRED) {
        leaderTerms++;
      } else if (event.kind() == ClusterEvent.Kind.AGENT_MOVED) {
        agentMoves++;
      }
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("enqueued", enqueued());
    fields.put("handled", (long) handled.size());
    fields.put("dead", dead);
    fields.put("duplicates", duplicates);
    fields.put("lost", lost);
    fields.put("stranded", stranded);
    fields.put("leaderChanges", Math.max(0, leaderTerms - 1));
    fields.put("agentMoves", agentMoves);
    return fields;
  }
}
