package io.tenure.jdbc.internal;

import io.tenure.DedupeWindow;
import io.tenure.MessageProgress;
import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A message row as a {@link QueueMessage}: the columns of {@link StandardQueueSql#COLUMNS}, the
 * status by its {@link MessageStatus} name (the same enum the statements' status literals come
 * from), times by the dialect, headers by {@link #encode}/{@link #decode}.
 */
final class MessageRows {
  private final Dialect dialect;

  MessageRows(Dialect dialect) {
    this.dialect = dialect;
  }

  QueueMessage message(ResultSet rows) throws SQLException {
    return new QueueMessage(
        rows.getLong("id"),
        rows.getString("queue"),
        rows.getString("msg_key"),
        rows.getBytes("payload"),
        rows.getString("content_type"),
        decode(rows.getString("headers")),
        rows.getInt("priority"),
        rows.getInt("attempts"),
        rows.getInt("max_attempts"),
        dialect.getInstant(rows, "available_at"),
        MessageStatus.valueOf(rows.getString("status")),
        rows.getString("owner_node"),
        rows.getString("claim_token"),
        dialect.getInstantOrNull(rows, "lease_until"),
        rows.getString("last_error"),
        dialect.getInstant(rows, "created_at"),
        dialect.getInstantOrNull(rows, "finished_at"),
        rows.getString("dedupe_key"),
        rows.getString("msg_group"),
        durationOrNull(rows, "timeout_us"),
        new DedupeWindow(durationOrNull(rows, "unique_for_us")),
        progress(rows),
        rows.getBytes("checkpoint"));
  }

  private static @Nullable Duration durationOrNull(ResultSet rows, String column)
      throws SQLException {
    long micros = rows.getLong(column);
    return rows.wasNull() ? null : Duration.ofNanos(Math.multiplyExact(micros, 1000L));
  }

  private static @Nullable MessageProgress progress(ResultSet rows) throws SQLException {
    double fraction = rows.getDouble("progress");
    return rows.wasNull() ? null : new MessageProgress(fraction, rows.getString("progress_note"));
  }

  /** Headers as text: one {@code name=value} per line, both URL-encoded, sorted by name. */
  static String encode(Map<String, String> headers) {
    StringBuilder text = new StringBuilder();
    new TreeMap<>(headers)
        .forEach(
            (name, value) ->
                text.append(text.isEmpty() ? "" : "\n")
                    .append(URLEncoder.encode(name, StandardCharsets.UTF_8))
                    .append('=')
                    .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
    return text.toString();
  }

  /** The headers {@link #encode} wrote; none for a null or empty text. */
  static Map<String, String> decode(@Nullable String text) {
    Map<String, String> headers = new LinkedHashMap<>();
    if (text == null || text.isEmpty()) {
      return headers;
    }
    for (String line : text.split("\n")) {
      int equals = line.indexOf('=');
      headers.put(
          URLDecoder.decode(line.substring(0, equals), StandardCharsets.UTF_8),
          URLDecoder.decode(line.substring(equals + 1), StandardCharsets.UTF_8));
    }
    return headers;
  }
}
