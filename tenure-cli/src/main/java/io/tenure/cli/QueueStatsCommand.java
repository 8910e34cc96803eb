package io.tenure.cli;

import io.tenure.Queue;
import io.tenure.QueueStats;
import io.tenure.spi.Store;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tenure queue stats}: pending, in flight, dead, done and oldest age, per queue. */
@Command(
    name = "stats",
    description = {
      "Show each queue's message counts and the age of its oldest pending message.",
      "Pending, in-flight, dead, done and cancelled messages, and how long the oldest available pending"
          + " message has waited.",
      "Counts are cluster-wide, read from the store in one statement. A queue exists here while"
          + " it has at least one message; naming one that has none exits 4."
    })
final class QueueStatsCommand extends StoreCommand {
  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "QUEUE",
      description = "Only this queue. Default: every queue with messages.")
  @Nullable String queue;

  @Override
  void checkArguments() {
    if (queue != null) {
      Queue.checkName(queue);
    }
  }

  @Override
  int run(Store store, Output output) {
    List<QueueStats> stats =
        queue == null ? store.queues().stats() : List.of(DeadLetters.requireQueue(store, queue));
    if (output.json()) {
      output.object(Map.of("queues", stats.stream().map(QueueStatsCommand::json).toList()));
    } else if (stats.isEmpty()) {
      output.line("no queue has messages.");
    } else {
      output.table(
          List.of("QUEUE", "PENDING", "INFLIGHT", "DEAD", "DONE", "CANCELLED", "OLDEST PENDING"),
          stats.stream().map(QueueStatsCommand::row).toList());
    }
    return ExitCodes.OK;
  }

  /**
   * The counts of {@code GET /api/queues} (docs/ADMIN-API.md); the rate and consumers are a node's.
   */
  private static Map<String, @Nullable Object> json(QueueStats stats) {
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    fields.put("name", stats.queue());
    fields.put("pending", stats.pending());
    fields.put("inflight", stats.inflight());
    fields.put("dead", stats.dead());
    fields.put("done", stats.done());
    fields.put("cancelled", stats.cancelled());
    Duration age = stats.oldestPendingAge();
    fields.put("oldestPendingAgeMs", age == null ? null : age.toMillis());
    return fields;
  }

  private static List<String> row(QueueStats stats) {
    return List.of(
        stats.queue(),
        String.valueOf(stats.pending()),
        String.valueOf(stats.inflight()),
        String.valueOf(stats.dead()),
        String.valueOf(stats.done()),
        String.valueOf(stats.cancelled()),
        age(stats.oldestPendingAge()));
  }

  /**
   * @return e.g. {@code 40ms}, {@code 12.3s}, {@code 4m 05s}, {@code 3h 02m}; {@code -} if none
   */
  static String age(@Nullable Duration age) {
    if (age == null) {
      return "-";
    }
    if (age.toMillis() < 1000) {
      return age.toMillis() + "ms";
    }
    if (age.toSeconds() < 60) {
      return String.format(Locale.ROOT, "%.1fs", age.toMillis() / 1000.0);
    }
    if (age.toMinutes() < 60) {
      return "%dm %02ds".formatted(age.toMinutes(), age.toSecondsPart());
    }
    if (age.toHours() < 48) {
      return "%dh %02dm".formatted(age.toHours(), age.toMinutesPart());
    }
    return "%dd %02dh".formatted(age.toDays(), age.toHoursPart());
  }
}
