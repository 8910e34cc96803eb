package io.tenure.cli;

import io.tenure.QueueMessage;
import io.tenure.server.MessageJson;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/** How a queue message looks in text; its JSON is {@link MessageJson}'s, the admin API's. */
final class MessageView {
  private MessageView() {}

  /** Prints every field, then the error and the whole payload as indented blocks. */
  static void print(Output output, QueueMessage message) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("id", String.valueOf(message.id()));
    fields.put("queue", message.queue());
    fields.put("status", message.status().name());
    fields.put("key", orNone(message.key()));
    fields.put("group", orNone(message.group()));
    fields.put(
        "dedupe key",
        message.dedupeKey() == null
            ? "(none)"
            : message.dedupeKey() + " (held " + message.dedupeWindow() + ")");
    fields.put(
        "timeout", message.timeout() == null ? "(the queue's)" : message.timeout().toString());
    fields.put("priority", String.valueOf(message.priority()));
    fields.put("attempts", message.attempts() + " of " + message.maxAttempts());
    fields.put("created at", time(message.createdAt()));
    fields.put("available at", time(message.availableAt()));
    fields.put("finished at", time(message.finishedAt()));
    fields.put("owner", orNone(message.ownerNode()));
    fields.put("lease until", time(message.leaseUntil()));
    fields.put("progress", progress(message.progress()));
    fields.put(
        "checkpoint",
        message.checkpoint() == null ? "(none)" : message.checkpoint().length + " bytes");
    fields.put("content type", message.contentType());
    fields.put("headers", headers(message.headers()));
    output.fields(fields, "");
    output.line("error:");
    block(output, message.lastError() == null ? "(none)" : message.lastError());
    MessageJson.Payload payload = MessageJson.Payload.of(message.payload(), Integer.MAX_VALUE);
    output.line("payload (" + message.payload().length + " bytes, " + payload.encoding() + "):");
    block(output, payload.text());
  }

  /**
   * @return the first line of a message's error, at most {@code width} characters, for a table
   */
  static String errorLine(@Nullable String error, int width) {
    if (error == null) {
      return "";
    }
    String first = error.strip().lines().findFirst().orElse("");
    return first.length() <= width ? first : first.substring(0, width - 3) + "...";
  }

  /** Indents each line; tabs (stack traces) become spaces rather than escapes. */
  private static void block(Output output, String text) {
    text.lines().forEach(line -> output.line("  " + line.replace("\t", "    ")));
  }

  private static String headers(Map<String, String> headers) {
    return headers.isEmpty()
        ? "(none)"
        : headers.entrySet().stream()
            .sorted(Map.Entry.comparingByKey())
            .map(header -> header.getKey() + "=" + header.getValue())
            .collect(Collectors.joining(", "));
  }

  /** A handler's last report: "40 % copying part 3", or (none). */
  static String progress(io.tenure.@Nullable MessageProgress progress) {
    if (progress == null) {
      return "(none)";
    }
    String percent = Math.round(progress.fraction() * 1000) / 10.0 + " %";
    return progress.note() == null ? percent : percent + " " + progress.note();
  }

  /**
   * @return the message's status now, for a refusal's sentence; {@code gone} if it was deleted
   */
  static String statusOf(io.tenure.spi.Store store, long id) {
    return store.queues().find(id).map(m -> m.status().name()).orElse("gone");
  }

  static String time(@Nullable Instant time) {
    return time == null ? "(none)" : time.toString();
  }

  private static String orNone(@Nullable String value) {
    return value == null ? "(none)" : value;
  }
}
