package io.tenure.cli;

import io.tenure.MessageStatus;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.Store;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tenure messages list}: a queue's messages in any status, in id order, a page at a time.
 */
@Command(
    name = "list",
    description = {
      "List a queue's messages in any status, oldest first: status, key, group, attempts, owner"
          + " and lease of those in flight, first line of the last error.",
      "Every filter given must match. A page ends with the --after to give for the next one."
          + " Exits 4 if the queue has no messages at all."
    })
final class MessagesListCommand extends StoreCommand {
  @Parameters(index = "0", paramLabel = "QUEUE", description = "Queue name.")
  String queue = "";

  @Option(
      names = "--status",
      paramLabel = "S",
      description = "Only this status: PENDING, INFLIGHT, DONE, DEAD or CANCELLED.")
  @Nullable MessageStatus status;

  @Option(
      names = "--after",
      paramLabel = "ID",
      defaultValue = "0",
      description = "Only ids above this (the next page). Default: ${DEFAULT-VALUE}.")
  long after;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "50",
      description = "At most this many, 1 to " + DlqListCommand.MAX_LIMIT + ". Default: 50.")
  int limit = 50;

  @Option(
      names = "--group",
      paramLabel = "G",
      description = "Only messages of this group (the group of per-group limits).")
  @Nullable String group;

  @Mixin DeadLetterFilter filter = new DeadLetterFilter();

  @Override
  void checkArguments() {
    Queue.checkName(queue);
    if (limit < 1 || limit > DlqListCommand.MAX_LIMIT) {
      throw new IllegalArgumentException(
          "--limit must be 1 to " + DlqListCommand.MAX_LIMIT + ", got " + limit);
    }
    if (after < 0) {
      throw new IllegalArgumentException("--after must not be negative, got " + after);
    }
    filter.check();
    if (group != null) {
      if (group.isEmpty()) {
        throw new IllegalArgumentException("--group must not be empty");
      }
      io.tenure.Limits.checkWellFormed("--group", group);
    }
  }

  @Override
  int run(Store store, Output output) {
    DeadLetters.requireQueue(store, queue);
    List<QueueMessage> messages =
        store
            .queues()
            .list(
                new MessageQuery(
                    queue,
                    status,
                    filter.key,
                    group,
                    filter.errorContains,
                    filter.olderThan,
                    after,
                    limit));
    if (output.json()) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("queue", queue);
      fields.put("messages", messages.stream().map(io.tenure.server.MessageJson::browsed).toList());
      output.object(fields);
      return ExitCodes.OK;
    }
    if (messages.isEmpty()) {
      String filters = filter.describe();
      if (group != null) {
        filters = filters.isEmpty() ? "group " + group : "group " + group + ", " + filters;
      }
      output.line(
          "no messages"
              + (status == null ? "" : " " + status)
              + " in queue '"
              + queue
              + "'"
              + (filters.isEmpty() ? "" : " (" + filters + ")")
              + ".");
      return ExitCodes.OK;
    }
    output.table(
        List.of(
            "ID",
            "STATUS",
            "KEY",
            "GROUP",
            "ATTEMPTS",
            "OWNER",
            "LEASE UNTIL",
            "PROGRESS",
            "ERROR"),
        messages.stream().map(MessagesListCommand::row).toList());
    if (messages.size() == limit) {
      output.line(
          "(the first "
              + limit
              + "; the next page: --after "
              + messages.get(messages.size() - 1).id()
              + ")");
    }
    return ExitCodes.OK;
  }

  private static List<String> row(QueueMessage m) {
    return List.of(
        String.valueOf(m.id()),
        m.status().name(),
        m.key() == null ? "-" : m.key(),
        m.group() == null ? "-" : m.group(),
        m.attempts() + "/" + m.maxAttempts(),
        m.ownerNode() == null ? "-" : m.ownerNode(),
        m.leaseUntil() == null ? "-" : MessageView.time(m.leaseUntil()),
        m.progress() == null ? "-" : Math.round(m.progress().fraction() * 100) + " %",
        m.lastError() == null ? "-" : MessageView.errorLine(m.lastError(), 60));
  }
}
