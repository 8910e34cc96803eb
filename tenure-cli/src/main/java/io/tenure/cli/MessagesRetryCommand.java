package io.tenure.cli;

import io.tenure.RetryOutcome;
import io.tenure.spi.Store;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;

/** {@code tenure messages retry ID}. */
@Command(
    name = "retry",
    description = {
      "Retry a dead or cancelled message (SPEC §12.7): pending again, available now, attempts"
          + " reset, last error kept, in its old place in its key's order.",
      "Exits 4 if there is no such message, 3 if it is not dead or cancelled."
    })
final class MessagesRetryCommand extends MessageIdCommand {
  @Override
  int run(Store store, Output output) {
    RetryOutcome outcome = store.queues().admin().retry(id);
    switch (outcome) {
      case NOT_FOUND ->
          throw new CommandFailure(ExitCodes.NOT_FOUND, "no message " + id + " in this store");
      case NOT_DEAD_OR_CANCELLED ->
          throw new CommandFailure(
              ExitCodes.CONFLICT,
              "message "
                  + id
                  + " is "
                  + MessageView.statusOf(store, id)
                  + "; only dead or cancelled messages can be retried; nothing changed");
      case RETRIED -> {}
    }
    if (output.json()) {
      Map<String, @Nullable Object> fields = new LinkedHashMap<>();
      fields.put("id", id);
      fields.put("retried", true);
      output.object(fields);
    } else {
      output.line("retried message " + id + ": pending again, available now, attempts reset.");
    }
    return ExitCodes.OK;
  }
}
