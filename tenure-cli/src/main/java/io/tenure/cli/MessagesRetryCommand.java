package io.tenure.cli;

import io.tenure.spi.Store;
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
    switch (store.queues().admin().retry(id)) {
      case NOT_FOUND -> throw notFound();
      case NOT_DEAD_OR_CANCELLED ->
          throw refused(store, "only dead or cancelled messages can be retried");
      case RETRIED -> {}
    }
    return replied(
        output,
        "retried message " + id + ": pending again, available now, attempts reset.",
        "retried",
        true);
  }
}
