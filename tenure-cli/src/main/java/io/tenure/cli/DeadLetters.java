package io.tenure.cli;

import io.tenure.QueueMessage;
import io.tenure.QueueStats;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Store;
import java.io.PrintWriter;
import java.util.List;
import java.util.function.IntUnaryOperator;
import java.util.stream.Collectors;

/** What the dead-letter commands share: finding the queue, counting, and working in chunks. */
final class DeadLetters {
  /** Messages per replay or purge call: small transactions, and progress a person can follow. */
  static final int CHUNK = 500;

  /** Rows per page when counting by listing (the store has no count of a filtered query). */
  private static final int COUNT_PAGE = 10_000;

  private DeadLetters() {}

  /**
   * @return the queue's numbers
   * @throws CommandFailure with {@link ExitCodes#NOT_FOUND} if the queue has no message at all:
   *     queues are not declared in the store, so a queue without messages is most likely a typo
   */
  static QueueStats requireQueue(Store store, String queue) {
    List<QueueStats> all = store.queues().stats();
    return all.stream()
        .filter(stats -> stats.queue().equals(queue))
        .findFirst()
        .orElseThrow(() -> new CommandFailure(ExitCodes.NOT_FOUND, unknown(queue, all)));
  }

  private static String unknown(String queue, List<QueueStats> all) {
    String known =
        all.isEmpty()
            ? "no queue has messages"
            : "queues with messages: "
                + all.stream().map(QueueStats::queue).limit(20).collect(Collectors.joining(", "));
    return "no queue '" + queue + "' in this store (it has no messages); " + known;
  }

  /**
   * @return how many dead letters of the queue match the filter now
   */
  static long count(QueueStore queues, QueueStats stats, DeadLetterFilter filter) {
    if (!filter.any()) {
      return stats.dead();
    }
    long count = 0;
    long afterId = 0;
    while (true) {
      List<QueueMessage> page = queues.list(filter.query(stats.queue(), afterId, COUNT_PAGE));
      count += page.size();
      if (page.size() < COUNT_PAGE) {
        return count;
      }
      afterId = page.getLast().id();
    }
  }

  /**
   * Applies {@code step} (replay or purge of up to its argument's matching dead letters, returning
   * how many it changed) in chunks until {@code expected} are done or fewer match than asked. Never
   * more than {@code expected} in total, so a run ends even if replayed messages die again at once
   * (one that does may be replayed again in place of a later one: the store replays the oldest
   * matches and has no "up to this id" filter), and a purge removes no more than the count the user
   * was asked about.
   *
   * @param verb {@code replayed} or {@code purged}, for the progress lines
   * @param progress where runs longer than one chunk report after each chunk
   * @return how many were changed
   */
  static long inChunks(long expected, IntUnaryOperator step, String verb, PrintWriter progress) {
    long done = 0;
    while (done < expected) {
      int asked = (int) Math.min(CHUNK, expected - done);
      int changed = step.applyAsInt(asked);
      done += changed;
      if (expected > CHUNK) {
        progress.println(verb + " " + done + " of ~" + expected);
        progress.flush();
      }
      if (changed < asked) {
        break; // fewer match than counted: a consumer, retention or another operator was first
      }
    }
    return done;
  }

  /** The query for one chunk. */
  static MessageQuery chunk(String queue, DeadLetterFilter filter, int limit) {
    return filter.query(queue, 0, limit);
  }

  /**
   * @return {@code "queue 'orders'"} plus the filters, for a sentence
   */
  static String describe(String queue, DeadLetterFilter filter) {
    String filters = filter.describe();
    return "queue '" + queue + "'" + (filters.isEmpty() ? "" : " (" + filters + ")");
  }

  /**
   * @return e.g. {@code 1 dead letter}, {@code 3 dead letters}
   */
  static String deadLetters(long count) {
    return count + (count == 1 ? " dead letter" : " dead letters");
  }
}
