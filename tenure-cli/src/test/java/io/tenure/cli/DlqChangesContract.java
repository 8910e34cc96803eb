package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.cli.Cli.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code tenure dlq replay} and {@code tenure dlq purge} against a real store: what they change, in
 * chunks, and that every refusal changes nothing.
 */
abstract class DlqChangesContract extends LiveStoreContract {

  @Test
  void replay_of_one_dead_letter_makes_it_pending_with_attempts_reset() {
    List<Long> ids = deadLetters("orders", null, 2, "boom");
    long id = ids.get(0);

    Result replay = tenure("dlq", "replay", "orders", "--id", String.valueOf(id), "--json");

    assertThat(replay.exitCode()).as(replay.toString()).isZero();
    assertThat(replay.json()).containsEntry("queue", "orders").containsEntry("replayed", 1L);
    QueueMessage message = message(id);
    long second = ids.get(1);
    Result text = tenure("dlq", "replay", "orders", "--id", String.valueOf(second));
    assertThat(text.out().strip())
        .isEqualTo(
            "replayed dead letter "
                + second
                + " of queue 'orders': pending again, attempts reset.");
    assertThat(message.status()).isEqualTo(MessageStatus.PENDING);
    assertThat(message.attempts()).isZero();
    assertThat(message.lastError()).isEqualTo("boom");
  }

  @Test
  void replay_of_a_message_that_is_not_dead_exits_3_and_changes_nothing() {
    long pending = enqueue("orders", null, 1).get(0);
    QueueMessage before = message(pending);
    Map<String, List<Long>> counts = counts();

    Result replay = tenure("dlq", "replay", "orders", "--id", String.valueOf(pending));

    assertOneErrorLine(replay, 3);
    assertThat(replay.err()).contains("message " + pending).contains("PENDING, not a dead letter");
    assertThat(message(pending)).isEqualTo(before);
    assertThat(counts()).isEqualTo(counts);
  }

  @Test
  void replay_of_an_unknown_message_or_one_of_another_queue_exits_4() {
    long other = deadLetters("emails", null, 1, "boom").get(0);
    enqueue("orders", null, 1);
    Map<String, List<Long>> counts = counts();

    Result elsewhere = tenure("dlq", "replay", "orders", "--id", String.valueOf(other));
    Result unknown = tenure("dlq", "replay", "orders", "--id", "987654321");

    assertOneErrorLine(elsewhere, 4);
    assertThat(elsewhere.err()).contains("queue 'orders' has no message " + other);
    assertOneErrorLine(unknown, 4);
    assertThat(counts()).isEqualTo(counts);
  }

  @Test
  void replay_by_filter_replays_only_the_matching_dead_letters() {
    List<Long> k1 = deadLetters("orders", "k1", 3, "timeout");
    List<Long> k2 = deadLetters("orders", "k2", 2, "timeout");

    Result replay = tenure("dlq", "replay", "orders", "--key", "k1");

    assertThat(replay.exitCode()).as(replay.toString()).isZero();
    assertThat(replay.out().strip())
        .isEqualTo(
            "replayed 3 dead letters of queue 'orders' (key k1): pending again, attempts reset.");
    assertThat(replay.err()).isEmpty(); // one chunk: no progress lines
    assertThat(k1)
        .allSatisfy(id -> assertThat(message(id).status()).isEqualTo(MessageStatus.PENDING));
    assertThat(k2).allSatisfy(id -> assertThat(message(id).status()).isEqualTo(MessageStatus.DEAD));
  }

  @Test
  void replay_all_works_in_chunks_with_progress_on_stderr_and_a_final_count() {
    int count = DeadLetters.CHUNK + 100;
    deadLetters("orders", null, count, "boom");

    Result replay = tenure("dlq", "replay", "orders", "--all", "--json");

    assertThat(replay.exitCode()).as(replay.toString()).isZero();
    assertThat(replay.json()).containsEntry("replayed", (long) count);
    assertThat(replay.errLines())
        .containsExactly("replayed 500 of ~" + count, "replayed " + count + " of ~" + count);
    assertThat(counts()).containsEntry("orders", List.of((long) count, 0L, 0L, 0L));
  }

  @Test
  void replay_when_nothing_matches_exits_4_and_says_so() {
    deadLetters("orders", "k1", 1, "boom");

    Result replay = tenure("dlq", "replay", "orders", "--key", "nobody");
    Result json =
        tenure("dlq", "replay", "orders", "--error-contains", "nothing like it", "--json");

    assertThat(replay.exitCode()).isEqualTo(4);
    assertThat(replay.out().strip())
        .isEqualTo("no dead letters in queue 'orders' (key nobody); nothing replayed.");
    assertThat(json.exitCode()).isEqualTo(4);
    assertThat(json.json()).containsEntry("replayed", 0L);
  }

  @Test
  void replay_and_purge_of_a_queue_without_messages_exit_4_and_change_nothing() {
    deadLetters("orders", null, 2, "boom");
    Map<String, List<Long>> counts = counts();

    Result replay = tenure("dlq", "replay", "ordres", "--all");
    Result purge = tenure("dlq", "purge", "ordres", "--all", "--yes");

    assertOneErrorLine(replay, 4);
    assertThat(replay.err()).contains("no queue 'ordres'").contains("queues with messages: orders");
    assertOneErrorLine(purge, 4);
    assertThat(counts()).isEqualTo(counts);
  }

  @Test
  void purge_with_yes_deletes_the_matching_dead_letters_only() {
    deadLetters("orders", "k1", 2, "java.lang.NullPointerException");
    List<Long> kept = deadLetters("orders", "k2", 1, "timeout");
    long pending = enqueue("orders", null, 1).get(0);

    Result purge = tenure("dlq", "purge", "orders", "--error-contains", "NullPointer", "--yes");

    assertThat(purge.exitCode()).as(purge.toString()).isZero();
    assertThat(purge.out().strip())
        .isEqualTo("purged 2 dead letters from queue 'orders' (error containing \"NullPointer\").");
    assertThat(counts()).containsEntry("orders", List.of(1L, 0L, 1L, 0L));
    assertThat(message(kept.get(0)).status()).isEqualTo(MessageStatus.DEAD);
    assertThat(message(pending).status()).isEqualTo(MessageStatus.PENDING);
  }

  @Test
  void purge_all_works_in_chunks_with_progress_on_stderr() {
    int count = DeadLetters.CHUNK + 1;
    deadLetters("orders", null, count, "boom");
    enqueue("orders", null, 1);

    Result purge = tenure("dlq", "purge", "orders", "--all", "--yes", "--json");

    assertThat(purge.exitCode()).as(purge.toString()).isZero();
    assertThat(purge.json()).containsEntry("queue", "orders").containsEntry("purged", (long) count);
    assertThat(purge.errLines()).containsExactly("purged 500 of ~501", "purged 501 of ~501");
    assertThat(counts()).containsEntry("orders", List.of(1L, 0L, 0L, 0L));
  }

  @Test
  void purge_without_yes_and_without_a_terminal_exits_2_and_changes_nothing() {
    deadLetters("orders", null, 2, "boom");
    Map<String, List<Long>> counts = counts();

    Result purge = tenure(terminal(false, null), "dlq", "purge", "orders", "--all");

    assertOneErrorLine(purge, 2);
    assertThat(purge.err()).contains("--yes").contains("nothing purged");
    assertThat(counts()).isEqualTo(counts);
  }

  @Test
  void purge_on_a_terminal_asks_and_a_no_changes_nothing() {
    deadLetters("orders", null, 2, "boom");
    Map<String, List<Long>> counts = counts();
    List<String> asked = new ArrayList<>();

    Result purge = tenure(terminal(true, "n", asked), "dlq", "purge", "orders", "--all");

    assertOneErrorLine(purge, 2);
    assertThat(purge.err()).contains("not confirmed; nothing purged");
    assertThat(asked).containsExactly("Delete 2 dead letters from queue 'orders' for good? [y/N] ");
    assertThat(counts()).isEqualTo(counts);
  }

  @Test
  void purge_on_a_terminal_purges_after_a_yes() {
    deadLetters("orders", null, 2, "boom");

    Result purge = tenure(terminal(true, "y"), "dlq", "purge", "orders", "--all");

    assertThat(purge.exitCode()).as(purge.toString()).isZero();
    assertThat(purge.out().strip()).isEqualTo("purged 2 dead letters from queue 'orders'.");
    assertThat(counts()).doesNotContainKey("orders");
  }

  @Test
  void purge_when_nothing_matches_does_not_ask_and_exits_4() {
    deadLetters("orders", null, 1, "boom");
    List<String> asked = new ArrayList<>();

    Result purge = tenure(terminal(true, "y", asked), "dlq", "purge", "orders", "--key", "nobody");

    assertThat(purge.exitCode()).as(purge.toString()).isEqualTo(4);
    assertThat(purge.out().strip())
        .isEqualTo("no dead letters in queue 'orders' (key nobody); nothing purged.");
    assertThat(asked).isEmpty();
  }

  private static Consumer<CommandLine> terminal(boolean interactive, @Nullable String answer) {
    return terminal(interactive, answer, new ArrayList<>());
  }

  /**
   * Puts a terminal that answers {@code answer} and records the questions into the purge command.
   */
  private static Consumer<CommandLine> terminal(
      boolean interactive, @Nullable String answer, List<String> asked) {
    return commandLine -> {
      CommandLine purge = commandLine.getSubcommands().get("dlq").getSubcommands().get("purge");
      ((DlqPurgeCommand) purge.getCommand()).terminal =
          new DlqPurgeCommand.Terminal() {
            @Override
            public boolean interactive() {
              return interactive;
            }

            @Override
            public @Nullable String ask(String question) {
              asked.add(question);
              return answer;
            }
          };
    };
  }
}
