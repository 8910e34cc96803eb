package io.tenure.jdbc.internal;

import io.tenure.MessageProgress;
import io.tenure.jdbc.internal.NamedStatement.Params;
import io.tenure.spi.MessageClaim;

/**
 * What a running handler writes to its message (SPEC §12.5): progress and a checkpoint, each one
 * statement conditional on the claim, so a handler whose claim was lost (cancelled, reclaimed,
 * timed out) changes nothing. Neither column is touched by a retry, release or reclaim, so the next
 * attempt reads what the last one saved.
 */
final class HandlerReports {
  private final QueueContext context;
  private final NamedStatement progress;
  private final NamedStatement checkpoint;

  HandlerReports(QueueContext context) {
    this.context = context;
    this.progress = context.statement(context.sql().progress());
    this.checkpoint = context.statement(context.sql().checkpoint());
  }

  boolean progress(MessageClaim claim, MessageProgress value) {
    return context
            .jdbc()
            .write(
                "record the progress of message " + claim.id(),
                connection ->
                    progress.update(
                        connection,
                        claimed(claim).and("progress", value.fraction()).and("note", value.note())))
        > 0;
  }

  boolean checkpoint(MessageClaim claim, byte[] state) {
    return context
            .jdbc()
            .write(
                "save a checkpoint of message " + claim.id(),
                connection ->
                    checkpoint.update(connection, claimed(claim).and("checkpoint", state)))
        > 0;
  }

  private static Params claimed(MessageClaim claim) {
    return Params.of("id", claim.id()).and("token", claim.token());
  }
}
