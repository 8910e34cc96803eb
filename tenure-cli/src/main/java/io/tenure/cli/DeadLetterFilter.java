package io.tenure.cli;

import io.tenure.MessageStatus;
import io.tenure.spi.MessageQuery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * The dead-letter filters the store offers ({@link MessageQuery}): key, error text and age. Every
 * filter given must match.
 */
final class DeadLetterFilter {
  @Option(names = "--key", paramLabel = "K", description = "Only messages with this ordering key.")
  @Nullable String key;

  @Option(
      names = "--error-contains",
      paramLabel = "S",
      description = "Only messages whose last error contains this text (case-sensitive).")
  @Nullable String errorContains;

  @Option(
      names = "--older-than",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "Only messages enqueued at least this long ago, by the database clock: 30m, 2h, PT24H.")
  @Nullable Duration olderThan;

  /**
   * @throws IllegalArgumentException naming the option if a filter is empty or negative
   */
  void check() {
    if (key != null && key.isEmpty()) {
      throw new IllegalArgumentException("--key must not be empty");
    }
    if (errorContains != null && errorContains.isEmpty()) {
      throw new IllegalArgumentException("--error-contains must not be empty");
    }
    if (olderThan != null && olderThan.isNegative()) {
      throw new IllegalArgumentException("--older-than must not be negative, got " + olderThan);
    }
  }

  /**
   * @return true if at least one filter was given
   */
  boolean any() {
    return key != null || errorContains != null || olderThan != null;
  }

  /**
   * @return the dead letters of {@code queue} that match, oldest first, at most {@code limit}
   */
  MessageQuery query(String queue, long afterId, int limit) {
    return new MessageQuery(
        queue, MessageStatus.DEAD, key, errorContains, olderThan, afterId, limit);
  }

  /**
   * @return the filters for a sentence, e.g. {@code key customer-7, error containing "timeout"};
   *     empty if none
   */
  String describe() {
    List<String> parts = new ArrayList<>();
    if (key != null) {
      parts.add("key " + key);
    }
    if (errorContains != null) {
      parts.add("error containing \"" + errorContains + "\"");
    }
    if (olderThan != null) {
      parts.add("enqueued at least " + QueueStatsCommand.age(olderThan) + " ago");
    }
    return String.join(", ", parts);
  }
}
