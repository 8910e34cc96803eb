package io.tenure.cli;

import io.tenure.RunNowOutcome;
import io.tenure.spi.Store;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
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
      case NOT_FOUND ->
          throw new CommandFailure(ExitCodes.NOT_FOUND, "no message " + id + " in this store");
      case NOT_PENDING ->
          throw new CommandFailure(
              ExitCodes.CONFLICT,
              "message "
                  + id
                  + " is "
                  + MessageView.statusOf(store, id)
                  + "; only pending messages can be run now; nothing changed");
      case AVAILABLE_NOW, ALREADY_AVAILABLE -> {}
    }
    boolean changed = outcome == RunNowOutcome.AVAILABLE_NOW;
    if (output.json()) {
      Map<String, @Nullable Object> fields = new LinkedHashMap<>();
      fields.put("id", id);
      fields.put("availableNow", true);
      fields.put("changed", changed);
      output.object(fields);
    } else {
      output.line(
          changed
              ? "message " + id + " is available now."
              : "message "
                  + id
                  + " was available already; nothing changed (its key's order, a pause or the"
                  + " queue's limits may hold it).");
    }
    return ExitCodes.OK;
  }
}
