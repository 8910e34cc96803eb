package io.tenure.inmemory;

import io.tenure.MessageStatus;
import io.tenure.inmemory.QueueTable.Row;
import io.tenure.spi.ClaimAllowance;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.QueueStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Which rows an in-memory claim takes (SPEC §6.2, §6.9, §12.1); the caller holds the monitor. */
final class InMemoryClaims {
  private static final Comparator<Row> CLAIM_ORDER =
      Comparator.<Row>comparingInt(row -> -row.priority).thenComparingLong(row -> row.id);

  private static final int MAX_BATCH = QueueStore.MAX_BATCH;

  private InMemoryClaims() {}

  /**
   * The candidates the queue's limits allow, in claim order. A strict queue stops at the first one
   * they refuse, so that it never runs a younger message before an older one.
   */
  static List<Row> allowed(List<Row> candidates, ClaimAllowance allowance, ClaimRequest request) {
    List<Row> taken = new ArrayList<>();
    for (Row row : candidates) {
      if (allowance.take(row.group)) {
        taken.add(row);
      } else if (request.strict() || allowance.taken() == allowance.budget()) {
        break;
      }
    }
    return taken;
  }

  /** The messages a claim may take, in claim order, however many (SPEC §6.2, §6.9). */
  static List<Row> claimable(Collection<Row> rowsById, ClaimRequest request, Instant now) {
    // A message in flight blocks its key, and in a strict queue the queue, wherever it stands: a
    // replayed dead letter keeps its old id, so it can be older than the message in flight.
    List<Row> inFlight =
        rowsById.stream().filter(row -> row.status == MessageStatus.INFLIGHT).toList();
    if (request.strict() && !inFlight.isEmpty()) {
      return List.of();
    }
    List<Row> taken = new ArrayList<>();
    Set<String> blockedKeys = new HashSet<>();
    inFlight.stream().filter(row -> row.key != null).forEach(row -> blockedKeys.add(row.key));
    for (Row row : rowsById) {
      if (!row.unfinished()) {
        continue;
      }
      if (request.strict()) {
        if (!row.available(now) || taken.size() == MAX_BATCH) {
          break;
        }
        taken.add(row);
      } else if (row.key == null
          ? row.available(now)
          : blockedKeys.add(row.key) && row.available(now)) {
        taken.add(row); // a key's oldest unfinished message is its head; the rest wait behind it
      }
    }
    return request.strict() ? taken : taken.stream().sorted(CLAIM_ORDER).toList();
  }
}
