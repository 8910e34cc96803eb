package io.tenure.jdbc.internal;

import io.tenure.CancelOutcome;
import io.tenure.MessageStatus;
import io.tenure.jdbc.internal.NamedStatement.Params;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.QueueStore;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cancels (SPEC §12.3): a pending or in-flight message becomes {@code CANCELLED} with its claim
 * cleared, in one statement conditional on its status, so a resolve that commits first wins and a
 * late one from the owner is a lost claim. Also the consumers' check of which of their claims still
 * hold, which is how a running handler learns of a cancel.
 */
final class Cancels {
  private final QueueContext context;
  private final NamedStatement lockStatus;
  private final NamedStatement cancel;
  private final NamedStatement claimStates;

  Cancels(QueueContext context) {
    this.context = context;
    this.lockStatus = context.statement(context.sql().lockStatus());
    this.cancel = context.statement(context.sql().cancel());
    this.claimStates = context.statement(context.sql().claimStates());
  }

  CancelOutcome cancel(long id) {
    return context
        .jdbc()
        .write(
            "cancel message " + id,
            connection -> {
              List<String> status =
                  lockStatus.query(connection, Params.of("id", id), rows -> rows.getString(1));
              if (status.isEmpty()) {
                return CancelOutcome.NOT_FOUND;
              }
              if (cancel.update(connection, Params.of("id", id)) == 0) {
                return CancelOutcome.FINISHED;
              }
              return MessageStatus.valueOf(status.get(0)) == MessageStatus.INFLIGHT
                  ? CancelOutcome.CANCELLED_RUNNING
                  : CancelOutcome.CANCELLED;
            });
  }

  Set<Long> lostClaims(List<MessageClaim> claims) {
    if (claims.size() > QueueStore.MAX_BATCH) {
      throw new IllegalArgumentException(
          "claims per read must be at most " + QueueStore.MAX_BATCH + ", got " + claims.size());
    }
    if (claims.isEmpty()) {
      return Set.of();
    }
    Map<Long, String> holding = new HashMap<>();
    context
        .jdbc()
        .read(
            "read the state of " + claims.size() + " claims",
            connection ->
                claimStates.query(
                    connection,
                    Params.of("ids", claims.stream().map(MessageClaim::id).toList()),
                    rows -> {
                      if (MessageStatus.INFLIGHT.name().equals(rows.getString("status"))) {
                        holding.put(rows.getLong("id"), rows.getString("claim_token"));
                      }
                      return null;
                    }));
    Set<Long> lost = new HashSet<>();
    for (MessageClaim claim : claims) {
      if (!claim.token().equals(holding.get(claim.id()))) {
        lost.add(claim.id());
      }
    }
    return lost;
  }
}
