package io.tenure.cli;

import io.tenure.QueueMessage;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * How a queue message looks in text and in JSON, in the vocabulary of the admin API's dead letters
 * and messages (docs/ADMIN-API.md).
 */
final class MessageView {
  /** How much payload a listing shows per message, as the admin API does. */
  static final int LISTED_PAYLOAD = 4096;

  private MessageView() {}

  /**
   * A payload as text: UTF-8 if the whole payload is valid UTF-8, else base64.
   *
   * @param text at most the bytes asked for (cut at a character boundary)
   * @param encoding {@code utf-8} or {@code base64}
   * @param truncated whether bytes were left out
   */
  record Payload(String text, String encoding, boolean truncated) {
    static Payload of(byte[] payload, int limit) {
      boolean truncated = payload.length > limit;
      @Nullable String text = utf8(payload);
      if (text == null) {
        return new Payload(
            Base64.getEncoder().encodeToString(Arrays.copyOf(payload, Math.min(limit, payload.length))),
            "base64",
            truncated);
      }
      return new Payload(truncated ? cut(text, limit) : text, "utf-8", truncated);
    }

    private static @Nullable String utf8(byte[] bytes) {
      try {
        return StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(bytes))
            .toString();
      } catch (CharacterCodingException e) {
        return null;
      }
    }

    /** The longest prefix of the text whose UTF-8 fits in {@code limit} bytes. */
    private static String cut(String text, int limit) {
      int bytes = 0;
      int end = 0;
      while (end < text.length()) {
        int cp = text.codePointAt(end);
        bytes += new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
        if (bytes > limit) {
          break;
        }
        end += Character.charCount(cp);
      }
      return text.substring(0, end);
    }
  }

  /**
   * @return a dead letter as {@code GET /api/queues/{name}/dead} lists it, with {@code payloadBytes}
   *     added: the size of the whole payload
   */
  static Map<String, @Nullable Object> listed(QueueMessage message) {
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    fields.put("id", message.id());
    fields.put("key", message.key());
    fields.put("attempts", message.attempts());
    fields.put("maxAttempts", message.maxAttempts());
    fields.put("error", message.lastError());
    fields.put("createdAt", message.createdAt());
    fields.put("finishedAt", message.finishedAt());
    fields.put("contentType", message.contentType());
    Payload payload = Payload.of(message.payload(), LISTED_PAYLOAD);
    fields.put("payload", payload.text());
    fields.put("payloadEncoding", payload.encoding());
    fields.put("payloadBytes", message.payload().length);
    return fields;
  }

  /**
   * @return a message as {@code GET /api/messages/{id}} shows it, but with the whole payload and
   *     the headers
   */
  static Map<String, @Nullable Object> shown(QueueMessage message) {
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    fields.put("id", message.id());
    fields.put("queue", message.queue());
    fields.put("status", message.status());
    fields.put("key", message.key());
    fields.put("priority", message.priority());
    fields.put("attempts", message.attempts());
    fields.put("maxAttempts", message.maxAttempts());
    fields.put("error", message.lastError());
    fields.put("createdAt", message.createdAt());
    fields.put("availableAt", message.availableAt());
    fields.put("finishedAt", message.finishedAt());
    fields.put("owner", message.ownerNode());
    fields.put("leaseUntil", message.leaseUntil());
    fields.put("contentType", message.contentType());
    fields.put("headers", message.headers());
    Payload payload = Payload.of(message.payload(), Integer.MAX_VALUE);
    fields.put("payload", payload.text());
    fields.put("payloadEncoding", payload.encoding());
    fields.put("payloadBytes", message.payload().length);
    return fields;
  }

  /** Prints every field, then the error and the whole payload as indented blocks. */
  static void print(Output output, QueueMessage message) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("id", String.valueOf(message.id()));
    fields.put("queue", message.queue());
    fields.put("status", message.status().name());
    fields.put("key", orNone(message.key()));
    fields.put("priority", String.valueOf(message.priority()));
    fields.put("attempts", message.attempts() + " of " + message.maxAttempts());
    fields.put("created at", time(message.createdAt()));
    fields.put("available at", time(message.availableAt()));
    fields.put("finished at", time(message.finishedAt()));
    fields.put("owner", orNone(message.ownerNode()));
    fields.put("lease until", time(message.leaseUntil()));
    fields.put("content type", message.contentType());
    fields.put("headers", headers(message.headers()));
    output.fields(fields, "");
    output.line("error:");
    block(output, message.lastError() == null ? "(none)" : message.lastError());
    Payload payload = Payload.of(message.payload(), Integer.MAX_VALUE);
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

  static String time(@Nullable Instant time) {
    return time == null ? "(none)" : time.toString();
  }

  private static String orNone(@Nullable String value) {
    return value == null ? "(none)" : value;
  }
}
