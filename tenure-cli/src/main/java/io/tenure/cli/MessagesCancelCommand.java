package io.tenure.cli;

import io.tenure.CancelOutcome;
import io.tenure.spi.Store;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
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
      case NOT_FOUND ->
          throw new CommandFailure(ExitCodes.NOT_FOUND, "no message " + id + " in this store");
      case FINISHED ->
          throw new CommandFailure(
              ExitCodes.CONFLICT,
              "message "
                  + id
                  + " is "
                  + MessageView.statusOf(store, id)
                  + "; only pending or running messages can be cancelled; nothing changed");
      default -> {}
    }
    String was = outcome == CancelOutcome.CANCELLED_RUNNING ? "RUNNING" : "PENDING";
    if (output.json()) {
      Map<String, @Nullable Object> fields = new LinkedHashMap<>();
      fields.put("id", id);
      fields.put("cancelled", was);
      output.object(fields);
    } else {
      output.line(
          "cancelled message "
              + id
              + (outcome == CancelOutcome.CANCELLED_RUNNING
                  ? ": it was running; its owner is told and its outcome will change nothing."
                  : ": it was pending; no node will claim it."));
    }
    return ExitCodes.OK;
  }
}
