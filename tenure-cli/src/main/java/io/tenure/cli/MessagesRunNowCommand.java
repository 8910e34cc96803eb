package io.tenure.cli;

import io.tenure.RunNowOutcome;
import io.tenure.spi.Store;
import picocli.CommandLine.Command;

/** {@code tenure messages run-now ID}. */
@Command(
    name = "run-now",
    description = {
      "Make a pending message that waits (delayed, or for a retry's backoff) available now, by the"
          + " database clock, with nothing else changed (SPEC §12.7); a claim takes it as soon as"
          + " its key's order and the queue's pause and limits allow.",
      "Exits 4 if there is no such message, 3 if it is not pending; 0 with nothing changed if it"
          + " was available already."
    })
final class MessagesRunNowCommand extends MessageIdCommand {
  @Override
  int run(Store store, Output output) {
    RunNowOutcome outcome = store.queues().admin().runNow(id);
    switch (outcome) {
      case NOT_FOUND -> throw notFound();
      case NOT_PENDING -> throw refused(store, "only pending messages can be run now");
      case AVAILABLE_NOW, ALREADY_AVAILABLE -> {}
    }
    boolean changed = outcome == RunNowOutcome.AVAILABLE_NOW;
    return replied(
        output,
        changed
            ? "message " + id + " is available now."
            : "message "
                + id
                + " was available already; nothing changed (its key's order, a pause or the"
                + " queue's limits may hold it).",
        "availableNow",
        true,
        "changed",
        changed);
  }
}
