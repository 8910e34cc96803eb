package io.tenure.cli;

import picocli.CommandLine.Parameters;

/** A store command on one message, named by its id, which is checked before the store is opened. */
abstract class MessageIdCommand extends StoreCommand {
  @Parameters(index = "0", paramLabel = "ID", description = "Message id.")
  long id;

  @Override
  final void checkArguments() {
    if (id < 1) {
      throw new IllegalArgumentException("message ids are positive, got " + id);
    }
  }
}
