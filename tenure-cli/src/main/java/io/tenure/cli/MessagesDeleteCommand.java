package io.tenure.cli;

import io.tenure.spi.Store;
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
    switch (store.queues().admin().delete(id)) {
      case NOT_FOUND -> throw notFound();
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
    return replied(output, "deleted message " + id + ".", "deleted", true);
  }
}
