package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.OutgoingMessage;
import io.tenure.cli.Cli.Result;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code tenure queue stats}, {@code tenure dlq list} and {@code tenure dlq show} against a real
 * store, seeded through the queue API and the claim/resolve SPI as consumers would leave it.
 */
abstract class QueueCommandsContract extends LiveStoreContract {

  @Test
  void stats_counts_every_status_per_queue_ordered_by_name() {
    deadLetters("orders", null, 3, "boom");
    enqueue("orders", null, 3);
    claimOnly("orders", 1);
    enqueue("emails", null, 1);

    Result stats = tenure("queue", "stats", "--json");

    assertThat(stats.exitCode()).as(stats.toString()).isZero();
    List<Map<String, Object>> queues = list(stats.json(), "queues");
    assertThat(queues).extracting(q -> q.get("name")).containsExactly("emails", "orders");
    assertThat(queues.get(1))
        .containsEntry("pending", 2L)
        .containsEntry("inflight", 1L)
        .containsEntry("dead", 3L)
        .containsEntry("done", 0L)
        .containsEntry("cancelled", 0L);
    assertThat((Long) queues.get(1).get("oldestPendingAgeMs")).isNotNegative();
  }

  @Test
  void stats_of_one_queue_and_as_text() {
    enqueue("orders", null, 2);
    enqueue("emails", null, 1);

    Map<String, Object> one = tenure("queue", "stats", "orders", "--json").json();
    Result text = tenure("queue", "stats");

    assertThat(list(one, "queues"))
        .singleElement()
        .satisfies(q -> assertThat(q).containsEntry("name", "orders"));
    assertThat(text.exitCode()).isZero();
    assertThat(text.out().lines().toList())
        .hasSize(3)
        .first()
        .asString()
        .matches("QUEUE +PENDING +INFLIGHT +DEAD +DONE +CANCELLED +OLDEST PENDING");
    assertThat(text.out()).containsPattern("(?m)^orders +2 +0 +0 +0 +0 +[0-9.]+m?s$");
  }

  @Test
  void stats_of_a_queue_without_messages_exits_4_and_names_the_known_ones() {
    enqueue("orders", null, 1);

    Result stats = tenure("queue", "stats", "ordres");

    assertOneErrorLine(stats, 4);
    assertThat(stats.err()).contains("'ordres'").contains("queues with messages: orders");
  }

  @Test
  void pause_and_resume_stop_and_restart_claims_and_say_whether_they_changed_anything() {
    enqueue("orders", null, 2);

    Result pause = tenure("queue", "pause", "orders");
    Result again = tenure("queue", "pause", "orders", "--json");

    assertThat(pause.exitCode()).as(pause.toString()).isZero();
    assertThat(pause.out()).isEqualTo("queue 'orders': paused." + System.lineSeparator());
    assertThat(again.json()).containsEntry("paused", true).containsEntry("changed", false);
    assertThat(claimOnly("orders", 10)).as("a paused queue claims nothing").isEmpty();

    assertThat(tenure("queue", "resume", "orders").out()).contains("resumed");
    assertThat(claimOnly("orders", 10)).hasSize(2);
  }

  @Test
  void limits_are_set_shown_with_their_use_and_lifted() {
    enqueue("orders", null, 5);

    Result set =
        tenure("queue", "limits", "orders", "--max-in-flight", "2", "--rate", "100/1s", "--json");
    assertThat(set.exitCode()).as(set.toString()).isZero();
    Map<String, Object> shown = list(set.json(), "queues").get(0);
    assertThat(shown).containsEntry("queue", "orders").containsEntry("paused", false);
    assertThat(shown.get("limits").toString()).contains("maxInFlight=2").contains("claims=100");

    assertThat(claimOnly("orders", 10)).as("the limit holds for the claim").hasSize(2);
    Result text = tenure("queue", "limits");
    assertThat(text.out())
        .containsPattern("(?m)^QUEUE +STATE +IN FLIGHT +PER GROUP +RATE +BUSIEST GROUPS$")
        .containsPattern("(?m)^orders +running +2 / 2 +- +2 / 100 per 1s +-$");

    assertThat(tenure("queue", "limits", "orders", "--none").exitCode()).isZero();
    assertThat(claimOnly("orders", 10)).hasSize(3);
  }

  @Test
  void cancel_takes_a_pending_or_running_message_out_and_refuses_a_finished_or_unknown_one() {
    List<Long> ids = enqueue("orders", null, 2);
    long running = claimOnly("orders", 1).get(0).id();
    long pending = ids.get(0) == running ? ids.get(1) : ids.get(0);

    Result first = tenure("messages", "cancel", String.valueOf(pending));
    Result second = tenure("messages", "cancel", String.valueOf(running), "--json");
    Result again = tenure("messages", "cancel", String.valueOf(pending));
    Result unknown = tenure("messages", "cancel", "999999999");

    assertThat(first.exitCode()).as(first.toString()).isZero();
    assertThat(first.out()).contains("cancelled message " + pending).contains("was pending");
    assertThat(second.json()).containsEntry("id", running).containsEntry("cancelled", "RUNNING");
    assertOneErrorLine(again, 3);
    assertThat(again.err()).contains("is CANCELLED").contains("nothing changed");
    assertOneErrorLine(unknown, 4);
    Map<String, Object> stats = list(tenure("queue", "stats", "--json").json(), "queues").get(0);
    assertThat(stats).containsEntry("cancelled", 2L).containsEntry("pending", 0L);
  }

  @Test
  void delete_run_now_and_retry_act_on_one_message_and_refuse_what_its_status_does_not_allow() {
    long dead = deadLetters("orders", null, 1, "boom").get(0);
    long delayed =
        enqueue("orders", null, List.of(OutgoingMessage.text("later").delay(Duration.ofHours(1))))
            .get(0);
    long running = enqueue("orders", null, 1).get(0);
    assertThat(claimOnly("orders", 1)).extracting(m -> m.id()).containsExactly(running);

    Result runNow = tenure("messages", "run-now", String.valueOf(delayed));
    Result runAgain = tenure("messages", "run-now", String.valueOf(delayed), "--json");
    Result runDead = tenure("messages", "run-now", String.valueOf(dead));
    Result retryRunning = tenure("messages", "retry", String.valueOf(running));
    Result retry = tenure("messages", "retry", String.valueOf(dead), "--json");
    Result deleteRunning = tenure("messages", "delete", String.valueOf(running));
    Result delete = tenure("messages", "delete", String.valueOf(delayed));
    Result deleteJson = tenure("messages", "delete", String.valueOf(dead), "--json");

    assertThat(runNow.exitCode()).as(runNow.toString()).isZero();
    assertThat(runNow.out()).contains("message " + delayed + " is available now.");
    assertThat(runAgain.json())
        .containsEntry("id", delayed)
        .containsEntry("availableNow", true)
        .containsEntry("changed", false);
    assertOneErrorLine(runDead, 3);
    assertThat(runDead.err()).contains("is DEAD").contains("nothing changed");
    assertOneErrorLine(retryRunning, 3);
    assertThat(retryRunning.err()).contains("is INFLIGHT").contains("nothing changed");
    assertThat(retry.json()).containsEntry("id", dead).containsEntry("retried", true);
    assertOneErrorLine(deleteRunning, 3);
    assertThat(deleteRunning.err())
        .contains("is in flight; cancel it first (tenure messages cancel " + running + ")");
    assertThat(message(running).status()).isEqualTo(io.tenure.MessageStatus.INFLIGHT);
    assertThat(delete.out().strip()).isEqualTo("deleted message " + delayed + ".");
    assertThat(deleteJson.json()).containsEntry("id", dead).containsEntry("deleted", true);
    boolean stillThere = inStore(store -> store.queues().find(delayed).isPresent());
    assertThat(stillThere).as("deleted").isFalse();
    for (String action : List.of("delete", "run-now", "retry")) {
      assertOneErrorLine(tenure("messages", action, "999999999"), 4);
      assertOneErrorLine(tenure("messages", action, "0"), 2);
    }
  }

  @Test
  void a_retried_dead_letter_is_pending_again_with_its_error_and_no_attempts() {
    long dead = deadLetters("orders", "k1", 1, "java.io.IOException: timeout").get(0);

    Result retry = tenure("messages", "retry", String.valueOf(dead));

    assertThat(retry.exitCode()).as(retry.toString()).isZero();
    assertThat(retry.out().strip())
        .isEqualTo("retried message " + dead + ": pending again, available now, attempts reset.");
    io.tenure.QueueMessage stored = message(dead);
    assertThat(stored.status()).isEqualTo(io.tenure.MessageStatus.PENDING);
    assertThat(stored.attempts()).isZero();
    assertThat(stored.lastError()).isEqualTo("java.io.IOException: timeout");
  }

  @Test
  void messages_list_filters_by_group() {
    List<Long> tenantA =
        enqueue(
            "orders",
            null,
            List.of(
                OutgoingMessage.text("a1").group("tenant-a"),
                OutgoingMessage.text("b1").group("tenant-b"),
                OutgoingMessage.text("a2").group("tenant-a")));
    enqueue("orders", null, 1);

    Map<String, Object> listed =
        tenure("messages", "list", "orders", "--group", "tenant-a", "--json").json();
    Result none = tenure("messages", "list", "orders", "--group", "nobody");
    Result empty = tenure("messages", "list", "orders", "--group", "");
    Result surrogate = tenure("messages", "list", "orders", "--group", "t\uD800x");

    assertThat(list(listed, "messages"))
        .extracting(m -> m.get("id"))
        .containsExactly(tenantA.get(0), tenantA.get(2));
    assertThat(list(listed, "messages"))
        .allSatisfy(m -> assertThat(m).containsEntry("group", "tenant-a"));
    assertThat(none.exitCode()).isZero();
    assertThat(none.out().strip()).isEqualTo("no messages in queue 'orders' (group nobody).");
    assertOneErrorLine(empty, 2);
    assertThat(empty.err()).contains("--group must not be empty");
    assertOneErrorLine(surrogate, 2);
    assertThat(surrogate.err())
        .contains("--group")
        .contains("unpaired surrogate U+D800 at index 1");
  }

  @Test
  void messages_list_shows_every_status_a_page_at_a_time_and_show_reads_one() {
    List<Long> ids = enqueue("orders", null, 3);
    long running = claimOnly("orders", 1).get(0).id();

    Map<String, Object> all = tenure("messages", "list", "orders", "--json").json();
    Result inFlight = tenure("messages", "list", "orders", "--status", "INFLIGHT");
    Result page = tenure("messages", "list", "orders", "--limit", "2");
    Result show = tenure("messages", "show", String.valueOf(running), "--json");
    Result bad = tenure("messages", "list", "orders", "--status", "RUNNING");

    assertThat(list(all, "messages")).extracting(m -> m.get("id")).containsExactlyElementsOf(ids);
    assertThat(inFlight.out())
        .containsPattern(
            "(?m)^ID +STATUS +KEY +GROUP +ATTEMPTS +OWNER +LEASE UNTIL +PROGRESS +ERROR$")
        .containsPattern("(?m)^" + running + " +INFLIGHT ");
    assertThat(page.out()).contains("the next page: --after " + ids.get(1));
    assertThat(show.json()).containsEntry("id", running).containsEntry("status", "INFLIGHT");
    assertOneErrorLine(bad, 2);
    assertThat(bad.err()).contains("RUNNING");
  }

  @Test
  void list_shows_dead_letters_oldest_first_in_the_admin_api_shape() {
    List<Long> dead = deadLetters("orders", "k1", 3, "java.io.IOException: timeout\n\tat x");
    enqueue("orders", null, 1); // pending: never listed

    Result list = tenure("dlq", "list", "orders", "--json");

    assertThat(list.exitCode()).as(list.toString()).isZero();
    assertThat(list.json()).containsEntry("queue", "orders");
    List<Map<String, Object>> messages = list(list.json(), "messages");
    assertThat(messages).extracting(m -> m.get("id")).containsExactlyElementsOf(dead);
    assertThat(messages.get(0))
        .containsEntry("key", "k1")
        .containsEntry("attempts", 1L)
        .containsEntry("maxAttempts", 10L)
        .containsEntry("error", "java.io.IOException: timeout\n\tat x")
        .containsEntry("contentType", "text/plain; charset=utf-8")
        .containsEntry("payload", "message 0")
        .containsEntry("payloadEncoding", "utf-8")
        .containsKeys("createdAt", "finishedAt");
    assertThat(Instant.parse((String) messages.get(0).get("finishedAt")))
        .isAfterOrEqualTo(Instant.parse((String) messages.get(0).get("createdAt")));
  }

  @Test
  void list_filters_by_key_error_text_and_age_and_stops_at_the_limit() {
    List<Long> k1 = deadLetters("orders", "k1", 3, "timeout talking to billing");
    List<Long> k2 = deadLetters("orders", "k2", 2, "java.lang.NullPointerException");

    assertThat(ids(tenure("dlq", "list", "orders", "--key", "k2", "--json"))).isEqualTo(k2);
    assertThat(ids(tenure("dlq", "list", "orders", "--error-contains", "billing", "--json")))
        .isEqualTo(k1);
    assertThat(ids(tenure("dlq", "list", "orders", "--limit", "2", "--json")))
        .isEqualTo(k1.subList(0, 2));
    assertThat(ids(tenure("dlq", "list", "orders", "--older-than", "1h", "--json"))).isEmpty();
    assertThat(ids(tenure("dlq", "list", "orders", "--older-than", "0s", "--json"))).hasSize(5);
    assertThat(
            ids(
                tenure(
                    "dlq", "list", "orders", "--key", "k1", "--error-contains", "Null", "--json")))
        .isEmpty();
  }

  @Test
  void list_as_text_is_a_table_with_a_sentence_and_a_hint_when_the_limit_is_reached() {
    List<Long> ids = deadLetters("orders", null, 2, "first line\nsecond line");

    Result all = tenure("dlq", "list", "orders");
    Result limited = tenure("dlq", "list", "orders", "--limit", "1");
    Result none = tenure("dlq", "list", "orders", "--key", "nobody");

    assertThat(all.out().lines().toList())
        .hasSize(4)
        .startsWith("2 dead letters in queue 'orders', oldest first:");
    assertThat(all.out()).containsPattern("(?m)^ID +KEY +ATTEMPTS +DIED AT +ERROR$");
    assertThat(all.out()).containsPattern("(?m)^" + ids.get(0) + " +- +1/10 +\\S+ +first line$");
    assertThat(limited.out()).contains("the first 1; there may be more");
    assertThat(none.exitCode()).isZero();
    assertThat(none.out().strip()).isEqualTo("no dead letters in queue 'orders' (key nobody).");
  }

  @Test
  void list_of_a_queue_without_messages_exits_4() {
    enqueue("orders", null, 1);

    assertOneErrorLine(tenure("dlq", "list", "emails"), 4);
  }

  @Test
  void show_prints_a_utf8_payload_as_text_with_headers_and_times() {
    String text = "{\"order\": 7,\n \"note\": \"café\"}";
    long id =
        enqueue(
                "orders",
                "k1",
                List.of(
                    OutgoingMessage.text(text)
                        .header("trace", "abc")
                        .contentType("application/json")))
            .get(0);
    killPending("orders", "java.lang.IllegalStateException: no stock\n\tat Orders.handle");

    Result show = tenure("dlq", "show", String.valueOf(id));
    Map<String, Object> json = tenure("dlq", "show", String.valueOf(id), "--json").json();

    assertThat(show.exitCode()).as(show.toString()).isZero();
    assertThat(show.out())
        .containsPattern("(?m)^status +DEAD$")
        .containsPattern("(?m)^content type +application/json$")
        .containsPattern("(?m)^headers +trace=abc$")
        .containsPattern("(?m)^attempts +1 of 10$")
        .contains("error:\n  java.lang.IllegalStateException: no stock\n      at Orders.handle\n")
        .contains(
            "payload ("
                + text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length
                + " bytes, utf-8):")
        .contains("  {\"order\": 7,\n   \"note\": \"café\"}");
    assertThat(json)
        .containsEntry("id", id)
        .containsEntry("queue", "orders")
        .containsEntry("status", "DEAD")
        .containsEntry("key", "k1")
        .containsEntry("headers", Map.of("trace", "abc"))
        .containsEntry("payload", text)
        .containsEntry("payloadEncoding", "utf-8")
        .containsEntry("owner", null)
        .containsKeys("createdAt", "availableAt", "finishedAt", "leaseUntil", "priority");
  }

  @Test
  void show_prints_a_payload_that_is_not_utf8_as_base64() {
    byte[] bytes = {(byte) 0xff, (byte) 0xfe, 0, 1, 2};
    long id = enqueue("orders", null, List.of(OutgoingMessage.of(bytes))).get(0);

    Result show = tenure("dlq", "show", String.valueOf(id));
    Map<String, Object> json = tenure("dlq", "show", String.valueOf(id), "--json").json();

    String base64 = Base64.getEncoder().encodeToString(bytes);
    assertThat(show.out()).contains("payload (5 bytes, base64):\n  " + base64 + "\n");
    assertThat(show.out()).containsPattern("(?m)^status +PENDING$");
    assertThat(json).containsEntry("payload", base64).containsEntry("payloadEncoding", "base64");
  }

  @Test
  void show_of_an_unknown_id_exits_4() {
    Result show = tenure("dlq", "show", "987654321");

    assertOneErrorLine(show, 4);
    assertThat(show.err()).contains("no message 987654321");
  }

  private static List<Object> ids(Result result) {
    assertThat(result.exitCode()).as(result.toString()).isZero();
    return list(result.json(), "messages").stream().map(m -> m.get("id")).toList();
  }
}
