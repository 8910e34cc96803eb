package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.DedupeWindow;
import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.spi.EnqueueResult;
import io.tenure.spi.NewMessage;
import io.tenure.spi.Resolution.DeadLetter;
import io.tenure.spi.Resolution.Done;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * SPEC §12.6, rules Q6a, Q6b and Q29a of {@link io.tenure.spi.QueueStore}: a dedupe key is held as
 * long as the window of the message holding it says, and the next enqueue after that is a new
 * message, exactly one however many race for it.
 */
public abstract class QueueUniqueComplianceTest extends QueueKit {
  private static final Duration HOUR = Duration.ofHours(1);

  private static NewMessage unique(String dedupeKey, DedupeWindow window) {
    return deduped(QUEUE, dedupeKey).withDedupeWindow(window);
  }

  private EnqueueResult enqueueResult(NewMessage message) {
    return queues.enqueue(List.of(message)).get(0);
  }

  /** Claims {@code id} (the queue's only available message) and finishes it with {@code done}. */
  private void claimAndFinish(long id, boolean dead) {
    QueueMessage claimed = claimOne();
    assertThat(claimed.id()).isEqualTo(id);
    resolveApplied(claimed, dead ? new DeadLetter("failed") : new Done(true));
  }

  @Test
  void a_key_held_while_active_is_held_pending_and_in_flight_and_free_once_finished() {
    long first = enqueue(unique("k", DedupeWindow.whileActive()));
    assertThat(enqueueResult(unique("k", DedupeWindow.whileActive())))
        .as("pending")
        .isEqualTo(new EnqueueResult(first, false));
    QueueMessage running = claimOne();
    assertThat(enqueueResult(unique("k", DedupeWindow.whileActive())))
        .as("in flight")
        .isEqualTo(new EnqueueResult(first, false));
    resolveApplied(running, new Done(true));

    EnqueueResult second = enqueueResult(unique("k", DedupeWindow.whileActive()));

    assertThat(second.inserted()).as("done: the key is free").isTrue();
    assertThat(stored(first).dedupeKey()).as("the old message gave its key up").isNull();
    assertThat(stored(first).status()).isEqualTo(MessageStatus.DONE);
    assertThat(stored(second.id()).dedupeKey()).isEqualTo("k");
    assertThat(enqueueResult(unique("k", DedupeWindow.whileActive())))
        .isEqualTo(new EnqueueResult(second.id(), false));
  }

  @Test
  void a_dead_or_cancelled_message_held_while_active_frees_its_key() {
    long dead = enqueue(unique("dead", DedupeWindow.whileActive()));
    claimAndFinish(dead, true);
    long cancelled = enqueue(unique("cancelled", DedupeWindow.whileActive()));
    queues.cancel(cancelled);

    assertThat(enqueueResult(unique("dead", DedupeWindow.whileActive())).inserted()).isTrue();
    assertThat(enqueueResult(unique("cancelled", DedupeWindow.whileActive())).inserted()).isTrue();
    assertThat(stored(dead).status()).isEqualTo(MessageStatus.DEAD);
    assertThat(stored(dead).dedupeKey()).isNull();
    assertThat(stored(cancelled).dedupeKey()).isNull();
  }

  @Test
  void a_key_held_after_finish_stays_taken_for_its_window_then_is_free() {
    long hour = enqueue(unique("hour", DedupeWindow.afterFinish(HOUR)));
    claimAndFinish(hour, false);
    long brief = enqueue(unique("brief", DedupeWindow.afterFinish(SHORT)));
    claimAndFinish(brief, false);

    assertThat(enqueueResult(unique("hour", DedupeWindow.afterFinish(HOUR))))
        .as("an hour after its finish has not passed")
        .isEqualTo(new EnqueueResult(hour, false));
    Instant finished = Objects.requireNonNull(stored(brief).finishedAt());
    DatabaseClock.awaitPast(store, finished.plus(SHORT));
    EnqueueResult next = enqueueResult(unique("brief", DedupeWindow.afterFinish(SHORT)));

    assertThat(next.inserted()).as("its window passed").isTrue();
    assertThat(stored(brief).dedupeKey()).isNull();
    assertThat(stored(hour).dedupeKey()).isEqualTo("hour");
  }

  @Test
  void the_stored_messages_window_decides_never_the_new_ones() {
    long kept = enqueue(deduped(QUEUE, "kept")); // until deleted
    claimAndFinish(kept, false);
    long active = enqueue(unique("active", DedupeWindow.whileActive()));
    claimAndFinish(active, false);

    assertThat(enqueueResult(unique("kept", DedupeWindow.whileActive())))
        .as("held until deleted, whatever the newcomer asks")
        .isEqualTo(new EnqueueResult(kept, false));
    assertThat(enqueueResult(deduped(QUEUE, "active")).inserted())
        .as("its window passed, whatever the newcomer's")
        .isTrue();
  }

  @Test
  void a_dedupe_window_round_trips_and_a_key_in_another_queue_is_apart() {
    long id = enqueue(unique("k", DedupeWindow.afterFinish(Duration.ofMinutes(90))));
    long other = enqueue(deduped(OTHER, "k").withDedupeWindow(DedupeWindow.whileActive()));

    assertThat(stored(id).dedupeWindow())
        .isEqualTo(DedupeWindow.afterFinish(Duration.ofMinutes(90)));
    assertThat(stored(other).dedupeWindow()).isEqualTo(DedupeWindow.whileActive());
    assertThat(stored(enqueue(message(QUEUE))).dedupeWindow())
        .isEqualTo(DedupeWindow.untilDeleted());
    claimAndFinish(id, false);
    assertThat(enqueueResult(deduped(OTHER, "k"))).isEqualTo(new EnqueueResult(other, false));
  }

  @Test
  void a_batch_naming_a_passed_key_twice_inserts_it_once() {
    long old = enqueue(unique("k", DedupeWindow.whileActive()));
    claimAndFinish(old, false);

    List<EnqueueResult> results =
        queues.enqueue(
            List.of(
                unique("k", DedupeWindow.whileActive()),
                message(QUEUE),
                unique("k", DedupeWindow.whileActive())));

    assertThat(results.get(0).inserted()).isTrue();
    assertThat(results.get(2)).isEqualTo(new EnqueueResult(results.get(0).id(), false));
    assertThat(all(QUEUE).stream().filter(m -> "k".equals(m.dedupeKey())))
        .extracting(QueueMessage::id)
        .containsExactly(results.get(0).id());
  }

  /** Q6b: the key is taken in the enqueue's transaction, so only one racer can take it. */
  @Test
  void eight_enqueuers_racing_for_a_passed_key_insert_one_message() {
    for (int round = 0; round < 10; round++) {
      String key = "race-" + round;
      long old = enqueue(unique(key, DedupeWindow.whileActive()));
      claimAndFinish(old, false);
      List<Callable<EnqueueResult>> racers = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        racers.add(() -> enqueueResult(unique(key, DedupeWindow.whileActive())));
      }

      List<EnqueueResult> results = Race.run(racers);

      assertThat(results.stream().filter(EnqueueResult::inserted)).as("round " + round).hasSize(1);
      assertThat(results.stream().map(EnqueueResult::id).distinct()).hasSize(1);
      long holders = all(QUEUE).stream().filter(m -> key.equals(m.dedupeKey())).count();
      assertThat(holders).as("one message holds the key").isEqualTo(1);
      // Leave nothing available for the next round's claim.
      queues.cancel(results.get(0).id());
    }
  }

  @Test
  void a_rolled_back_outbox_enqueue_leaves_the_key_with_its_old_message() throws SQLException {
    long old = enqueue(unique("k", DedupeWindow.whileActive()));
    claimAndFinish(old, false);
    Optional<Connection> opened = fixture.openConnection();
    if (opened.isEmpty()) {
      // The in-memory store has no transactions to roll back (its refusal is tested with Q9).
      assertThat(enqueueResult(unique("k", DedupeWindow.whileActive())).inserted()).isTrue();
      return;
    }
    try (Connection transaction = opened.get()) {
      transaction.setAutoCommit(false);
      EnqueueResult inside =
          queues.enqueue(transaction, List.of(unique("k", DedupeWindow.whileActive()))).get(0);
      assertThat(inside.inserted()).isTrue();
      transaction.rollback();
    }

    assertThat(stored(old).dedupeKey()).as("given back by the rollback").isEqualTo("k");
    EnqueueResult after = enqueueResult(unique("k", DedupeWindow.whileActive()));
    assertThat(after.inserted()).isTrue();
    assertThat(stored(old).dedupeKey()).isNull();
  }

  @Test
  void retention_keeps_a_finished_message_until_its_dedupe_window_has_passed() {
    long held = enqueue(unique("held", DedupeWindow.afterFinish(HOUR)));
    claimAndFinish(held, false);
    long active = enqueue(unique("active", DedupeWindow.whileActive()));
    claimAndFinish(active, false);
    long plain = enqueue(deduped(QUEUE, "plain"));
    claimAndFinish(plain, false);
    long brief = enqueue(unique("brief", DedupeWindow.afterFinish(SHORT)));
    claimAndFinish(brief, true);
    DatabaseClock.awaitPast(store, Objects.requireNonNull(stored(brief).finishedAt()).plus(SHORT));

    int deleted = queues.deleteExpired(QUEUE, Duration.ZERO, Duration.ZERO, 100);

    assertThat(deleted).isEqualTo(3);
    assertThat(all(QUEUE)).extracting(QueueMessage::id).containsExactly(held);
  }
}
