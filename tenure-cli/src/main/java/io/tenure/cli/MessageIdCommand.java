package io.tenure.cli;

import io.tenure.spi.Store;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Parameters;

/**
 * A store command on one message, named by its id, which is checked before the store is opened; the
 * refusals and the reply every such action shares.
 */
abstract class MessageIdCommand extends StoreCommand {
  @Parameters(index = "0", paramLabel = "ID", description = "Message id.")
  long id;

  @Override
  final void checkArguments() {
    if (id < 1) {
      throw new IllegalArgumentException("message ids are positive, got " + id);
    }
  }

  /** Exit 4: no such message. */
  final CommandFailure notFound() {
    return new CommandFailure(ExitCodes.NOT_FOUND, "no message " + id + " in this store");
  }

  /** Exit 3: the message's status does not allow the action; {@code rule} says which do. */
  final CommandFailure refused(Store store, String rule) {
    return new CommandFailure(
        ExitCodes.CONFLICT,
        "message "
            + id
            + " is "
            + MessageView.statusOf(store, id)
            + "; "
            + rule
            + "; nothing changed");
  }

  /**
   * Prints what the action did: {@code {"id": ID, field: value, ...more}} with --json, else {@code
   * line}.
   */
  final int replied(Output output, String line, String field, Object value, Object... more) {
    if (output.json()) {
      Map<String, @Nullable Object> fields = new LinkedHashMap<>();
      fields.put("id", id);
      fields.put(field, value);
      for (int i = 0; i < more.length; i += 2) {
        fields.put((String) more[i], more[i + 1]);
      }
      output.object(fields);
    } else {
      output.line(line);
    }
    return ExitCodes.OK;
  }
}
