package io.tenure.cli;

import io.tenure.DeleteOutcome;
import io.tenure.spi.Store;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;

/** {@code tenure messages delete ID}. */
@Command(
    name = "delete",
    description = {
      "Delete a message for good (SPEC §12.7): a pending, done, dead or cancelled one; its dedupe"
          + " key is free again. A message in flight is left to its owner: cancel it first.",
      "Exits 4 if there is no such message, 3 if it is in flight."
    })
final class MessagesDeleteCommand extends MessageIdCommand {
  @Override
  int run(Store store, Output output) {
    DeleteOutcome outcome = store.queues().admin().delete(id);
    switch (outcome) {
      case NOT_FOUND ->
          throw new CommandFailure(ExitCodes.NOT_FOUND, "no message " + id + " in this store");
      case IN_FLIGHT ->
          throw new CommandFailure(
              ExitCodes.CONFLICT,
              "message "
                  + id
                  + " is in flight; cancel it first (tenure messages cancel "
                  + id
                  + "); nothing changed");
      case DELETED -> {}
    }
    if (output.json()) {
      Map<String, @Nullable Object> fields = new LinkedHashMap<>();
      fields.put("id", id);
      fields.put("deleted", true);
      output.object(fields);
    } else {
      output.line("deleted message " + id + ".");
    }
    return ExitCodes.OK;
  }
}
