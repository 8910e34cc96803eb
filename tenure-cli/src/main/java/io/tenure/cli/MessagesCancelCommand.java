package io.tenure.cli;

import io.tenure.CancelOutcome;
import io.tenure.spi.Store;
import picocli.CommandLine.Command;

/** {@code tenure messages cancel ID}. */
@Command(
    name = "cancel",
    description = {
      "Cancel a message (SPEC §12.3): a pending one is never claimed; a running one's claim is taken"
          + " from its owner, whose handler is told within a second and whose outcome then changes"
          + " nothing.",
      "Exits 4 if there is no such message, 3 if it has already finished (done, dead, cancelled)."
    })
final class MessagesCancelCommand extends MessageIdCommand {
  @Override
  int run(Store store, Output output) {
    CancelOutcome outcome = store.queues().cancel(id);
    switch (outcome) {
      case NOT_FOUND -> throw notFound();
      case FINISHED -> throw refused(store, "only pending or running messages can be cancelled");
      default -> {}
    }
    boolean running = outcome == CancelOutcome.CANCELLED_RUNNING;
    return replied(
        output,
        "cancelled message "
            + id
            + (running
                ? ": it was running; its owner is told and its outcome will change nothing."
                : ": it was pending; no node will claim it."),
        "cancelled",
        running ? "RUNNING" : "PENDING");
  }
}
