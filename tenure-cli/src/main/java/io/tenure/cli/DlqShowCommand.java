package io.tenure.cli;

import io.tenure.QueueMessage;
import io.tenure.spi.Store;
import picocli.CommandLine.Command;

/** {@code tenure dlq show}: one message, whatever its status, with its whole payload. */
@Command(
    name = "show",
    description = {
      "Show one message, its payload included.",
      "Status, key, attempts, error, times, content type, headers and the whole payload (as text if"
          + " it is valid UTF-8, else base64).",
      "Works for a message in any status. Exits 4 if there is no such message."
    })
final class DlqShowCommand extends MessageIdCommand {
  @Override
  int run(Store store, Output output) {
    QueueMessage message =
        store
            .queues()
            .find(id)
            .orElseThrow(
                () ->
                    new CommandFailure(ExitCodes.NOT_FOUND, "no message " + id + " in this store"));
    if (output.json()) {
      output.object(io.tenure.server.MessageJson.shown(message));
    } else {
      MessageView.print(output, message);
    }
    return ExitCodes.OK;
  }
}
