package io.tenure.cli;

import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.spi.Store;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tenure dlq list}: the dead letters of one queue, oldest first. */
@Command(
    name = "list",
    description = {
      "List the dead letters of a queue, oldest first, with attempts and last error.",
      "Every filter given must match. Exits 4 if the queue has no messages at all."
    })
final class DlqListCommand extends StoreCommand {
  static final int MAX_LIMIT = 10_000;

  @Parameters(index = "0", paramLabel = "QUEUE", description = "Queue name.")
  String queue = "";

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "50",
      description = "At most this many, 1 to " + MAX_LIMIT + ". Default: ${DEFAULT-VALUE}.")
  int limit = 50;

  @Mixin DeadLetterFilter filter = new DeadLetterFilter();

  @Override
  void checkArguments() {
    Queue.checkName(queue);
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("--limit must be 1 to " + MAX_LIMIT + ", got " + limit);
    }
    filter.check();
  }

  @Override
  int run(Store store, Output output) {
    DeadLetters.requireQueue(store, queue);
    List<QueueMessage> messages = store.queues().list(filter.query(queue, 0, limit));
    if (output.json()) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("queue", queue);
      fields.put("messages", messages.stream().map(io.tenure.server.MessageJson::listed).toList());
      output.object(fields);
    } else {
      print(messages, output);
    }
    return ExitCodes.OK;
  }

  private void print(List<QueueMessage> messages, Output output) {
    String where = DeadLetters.describe(queue, filter);
    if (messages.isEmpty()) {
      output.line("no dead letters in " + where + ".");
      return;
    }
    output.line(DeadLetters.deadLetters(messages.size()) + " in " + where + ", oldest first:");
    output.table(
        List.of("ID", "KEY", "ATTEMPTS", "DIED AT", "ERROR"),
        messages.stream().map(DlqListCommand::row).toList());
    if (messages.size() == limit) {
      output.line("(the first " + limit + "; there may be more: raise --limit or add a filter)");
    }
  }

  private static List<String> row(QueueMessage message) {
    return List.of(
        String.valueOf(message.id()),
        message.key() == null ? "-" : message.key(),
        message.attempts() + "/" + message.maxAttempts(),
        MessageView.time(message.finishedAt()),
        MessageView.errorLine(message.lastError(), 80));
  }
}
