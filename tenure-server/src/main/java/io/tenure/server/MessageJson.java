package io.tenure.server;

import io.tenure.QueueMessage;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A queue message as the admin API and the launcher's {@code --json} show it (docs/ADMIN-API.md):
 * one vocabulary for both.
 */
public final class MessageJson {
  /** How much payload a listing shows per message. */
  public static final int LISTED_PAYLOAD = 4096;

  private MessageJson() {}

  /**
   * A payload as text: UTF-8 if the whole payload is valid UTF-8, else base64.
   *
   * @param text at most the bytes asked for (cut at a character boundary)
   * @param encoding {@code utf-8} or {@code base64}
   * @param truncated whether bytes were left out
   */
  public record Payload(String text, String encoding, boolean truncated) {
    public static Payload of(byte[] payload, int limit) {
      boolean truncated = payload.length > limit;
      @Nullable String text = utf8(payload);
      if (text == null) {
        return new Payload(
            Base64.getEncoder()
                .encodeToString(Arrays.copyOf(payload, Math.min(limit, payload.length))),
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
   * @return a dead letter as {@code GET /api/queues/{name}/dead} lists it, with {@code
   *     payloadBytes} added: the size of the whole payload
   */
  public static Map<String, @Nullable Object> listed(QueueMessage message) {
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
   * @return a message as {@code GET /api/queues/{name}/messages} lists it: the fields of {@link
   *     #listed} and where it stands ({@code status}, {@code group}, {@code priority}, {@code
   *     availableAt}, {@code owner}, {@code leaseUntil}, and its handler's last {@code progress}
   *     and {@code progressNote})
   */
  public static Map<String, @Nullable Object> browsed(QueueMessage message) {
    Map<String, @Nullable Object> fields = listed(message);
    fields.put("status", message.status());
    fields.put("group", message.group());
    fields.put("priority", message.priority());
    fields.put("availableAt", message.availableAt());
    fields.put("owner", message.ownerNode());
    fields.put("leaseUntil", message.leaseUntil());
    putProgress(fields, message);
    return fields;
  }

  private static void putProgress(Map<String, @Nullable Object> fields, QueueMessage message) {
    io.tenure.MessageProgress progress = message.progress();
    fields.put("progress", progress == null ? null : progress.fraction());
    fields.put("progressNote", progress == null ? null : progress.note());
  }

  /**
   * @return a message as {@code GET /api/messages/{id}} shows it, but with the whole payload and
   *     the headers
   */
  public static Map<String, @Nullable Object> shown(QueueMessage message) {
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    fields.put("id", message.id());
    fields.put("queue", message.queue());
    fields.put("status", message.status());
    fields.put("key", message.key());
    fields.put("group", message.group());
    fields.put("priority", message.priority());
    fields.put("attempts", message.attempts());
    fields.put("maxAttempts", message.maxAttempts());
    fields.put("error", message.lastError());
    fields.put("createdAt", message.createdAt());
    fields.put("availableAt", message.availableAt());
    fields.put("finishedAt", message.finishedAt());
    fields.put("owner", message.ownerNode());
    fields.put("leaseUntil", message.leaseUntil());
    fields.put("dedupeKey", message.dedupeKey());
    fields.put("dedupeWindow", message.dedupeWindow().toString());
    fields.put("timeout", message.timeout() == null ? null : message.timeout().toString());
    putProgress(fields, message);
    byte[] checkpoint = message.checkpoint();
    fields.put("checkpointBytes", checkpoint == null ? null : checkpoint.length);
    fields.put("contentType", message.contentType());
    fields.put("headers", new java.util.TreeMap<>(message.headers()));
    Payload payload = Payload.of(message.payload(), Integer.MAX_VALUE);
    fields.put("payload", payload.text());
    fields.put("payloadEncoding", payload.encoding());
    fields.put("payloadBytes", message.payload().length);
    return fields;
  }
}
