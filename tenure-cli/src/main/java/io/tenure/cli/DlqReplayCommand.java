package io.tenure.cli;

import io.tenure.MessageStatus;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.QueueStats;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Store;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tenure dlq replay}: dead letters back to pending, attempts reset, last error kept. */
@Command(
    name = "replay",
    description = {
      "Return dead letters to their queue.",
      "They are pending and available now, with attempts reset to 0 and the last error kept.",
      "Choose one: --id ID, --all, or filters. Many are replayed "
          + DeadLetters.CHUNK
          + " at a time, oldest first, with progress on stderr.",
      "Exits 3 if --id names a message that is not dead, 4 if the queue or message is unknown"
          + " or nothing matched; nothing is changed then."
    })
final class DlqReplayCommand extends StoreCommand {
  @Parameters(index = "0", paramLabel = "QUEUE", description = "Queue name.")
  String queue = "";

  @Option(names = "--id", paramLabel = "ID", description = "Replay this one dead letter.")
  @Nullable Long id;

  @Option(names = "--all", description = "Replay every dead letter of the queue.")
  boolean all;

  @Mixin DeadLetterFilter filter = new DeadLetterFilter();

  @Override
  void checkArguments() {
    Queue.checkName(queue);
    filter.check();
    int chosen = (id != null ? 1 : 0) + (all ? 1 : 0) + (filter.any() ? 1 : 0);
    if (chosen != 1) {
      throw new IllegalArgumentException(
          "choose what to replay: --id ID, --all, or filters (--key, --error-contains,"
              + " --older-than)");
    }
    if (id != null && id < 1) {
      throw new IllegalArgumentException("message ids are positive, got " + id);
    }
  }

  @Override
  int run(Store store, Output output) {
    long replayed = id != null ? replayOne(store.queues(), id) : replayMany(store);
    if (output.json()) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("queue", queue);
      fields.put("replayed", replayed);
      output.object(fields);
    } else {
      output.line(sentence(replayed));
    }
    return replayed == 0 ? ExitCodes.NOT_FOUND : ExitCodes.OK;
  }

  private long replayOne(QueueStore queues, long id) {
    QueueMessage message =
        queues
            .find(id)
            .filter(m -> m.queue().equals(queue))
            .orElseThrow(
                () ->
                    new CommandFailure(
                        ExitCodes.NOT_FOUND,
                        "queue '" + queue + "' has no message " + id + "; nothing replayed"));
    // The replay itself is conditional on DEAD; reading first only explains a refusal.
    if (message.status() != MessageStatus.DEAD || !queues.replay(id)) {
      MessageStatus now = queues.find(id).map(QueueMessage::status).orElse(message.status());
      throw new CommandFailure(
          ExitCodes.CONFLICT,
          "message "
              + id
              + " of queue '"
              + queue
              + "' is "
              + now
              + ", not a dead letter; nothing replayed");
    }
    return 1;
  }

  private long replayMany(Store store) {
    QueueStats stats = DeadLetters.requireQueue(store, queue);
    QueueStore queues = store.queues();
    long expected = DeadLetters.count(queues, stats, filter);
    return DeadLetters.inChunks(
        expected,
        limit -> queues.replay(DeadLetters.chunk(queue, filter, limit)),
        "replayed",
        spec.commandLine().getErr());
  }

  private String sentence(long replayed) {
    if (id != null) {
      // A replay by id either replays its one message or is refused (exit 3 or 4) before this.
      return "replayed dead letter "
          + id
          + " of queue '"
          + queue
          + "': pending again, attempts reset.";
    }
    String what = DeadLetters.describe(queue, filter);
    if (replayed == 0) {
      return "no dead letters in " + what + "; nothing replayed.";
    }
    return "replayed "
        + DeadLetters.deadLetters(replayed)
        + " of "
        + what
        + ": pending again, attempts reset.";
  }
}
