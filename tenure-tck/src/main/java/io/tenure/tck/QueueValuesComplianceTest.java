package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.Limits;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.spi.EnqueueResult;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.NewMessage;
import io.tenure.spi.Resolution.Done;
import io.tenure.spi.Resolution.Reschedule;
import io.tenure.spi.Resolution.Retry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * SPEC §1.9: text every database stores as given and the longest durations allowed, through
 * enqueue, claim, resolve and retention, on every provider.
 */
public abstract class QueueValuesComplianceTest extends QueueKit {
  // ---- text every database stores as given (SPEC §1.9)

  @Test
  void
      text_that_is_not_well_formed_utf16_is_refused_before_it_reaches_the_store_and_nothing_is_enqueued() {
    // Each database rewrote a lone surrogate (to '?' or U+FFFD): the dedupe keys order\uD800 and
    // order\uDBFF were one key, and the second enqueue returned the first message's id.
    List<Long> stored = new ArrayList<>();
    List<String> refusals = new ArrayList<>();
    for (String bad : List.of("order\uD800", "order\uDBFF")) {
      refused(refusals, () -> stored.add(enqueue(deduped(QUEUE, bad))));
      refused(
          refusals,
          () ->
              stored.addAll(
                  Queue.on(queues, QUEUE, QueuePolicy.defaults())
                      .enqueueAll(
                          List.of(
                              OutgoingMessage.text("a"),
                              OutgoingMessage.text("b").dedupeKey(bad)))));
      refused(refusals, () -> stored.add(enqueue(keyed(bad, Duration.ZERO))));
      refused(
          refusals,
          () ->
              stored.add(
                  enqueue(
                      new NewMessage(
                          QUEUE,
                          null,
                          new byte[0],
                          "text/plain",
                          Map.of(bad, "v"),
                          0,
                          3,
                          Duration.ZERO,
                          null))));
      refused(refusals, () -> queues.list(new MessageQuery(QUEUE, null, bad, null, null, 0, 10)));
    }

    assertThat(stored).as("ids of messages enqueued with a lone surrogate").isEmpty();
    assertThat(refusals)
        .containsExactly(
            "dedupe key has an unpaired surrogate U+D800 at index 5",
            "dedupe key has an unpaired surrogate U+D800 at index 5",
            "ordering key has an unpaired surrogate U+D800 at index 5",
            "header name has an unpaired surrogate U+D800 at index 5",
            "ordering key has an unpaired surrogate U+D800 at index 5",
            "dedupe key has an unpaired surrogate U+DBFF at index 5",
            "dedupe key has an unpaired surrogate U+DBFF at index 5",
            "ordering key has an unpaired surrogate U+DBFF at index 5",
            "header name has an unpaired surrogate U+DBFF at index 5",
            "ordering key has an unpaired surrogate U+DBFF at index 5");
    assertThat(all(QUEUE)).isEmpty();
    assertThat(queues.stats()).isEmpty();
  }

  /** Runs a call that must be refused, and records the start of its message (up to the value). */
  private static void refused(List<String> refusals, Runnable call) {
    try {
      call.run();
    } catch (IllegalArgumentException e) {
      String message = String.valueOf(e.getMessage());
      refusals.add(message.contains(" (") ? message.substring(0, message.indexOf(" (")) : message);
    }
  }

  @Test
  void supplementary_characters_round_trip_exactly_and_keys_that_differ_in_one_stay_distinct() {
    String grinning = "order-\uD83D\uDE00"; // U+1F600
    String beaming = "order-\uD83D\uDE01"; // U+1F601: differs from it only in the low surrogate
    String longest =
        "\uD840\uDC00".repeat(127) + "x"; // U+20000 x 127: 255 UTF-16 units, 128 characters
    List<String> keys = List.of(grinning, beaming, longest);
    String contentType = "text/plain; note=\uD83D\uDE00";
    List<EnqueueResult> results =
        queues.enqueue(
            keys.stream()
                .map(
                    key ->
                        new NewMessage(
                            QUEUE,
                            key,
                            key.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                            contentType,
                            Map.of(key, key),
                            0,
                            3,
                            Duration.ZERO,
                            key))
                .toList());

    assertThat(results).extracting(EnqueueResult::inserted).containsOnly(true);
    assertThat(results).extracting(EnqueueResult::id).doesNotHaveDuplicates();
    for (int i = 0; i < keys.size(); i++) {
      String key = keys.get(i);
      QueueMessage stored = stored(results.get(i).id());
      assertThat(stored.key()).isEqualTo(key);
      assertThat(stored.dedupeKey()).isEqualTo(key);
      assertThat(stored.headers()).containsExactly(Map.entry(key, key));
      assertThat(stored.contentType()).isEqualTo(contentType);
      assertThat(stored.payload()).isEqualTo(key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      assertThat(queues.enqueue(List.of(deduped(QUEUE, key))))
          .as("dedupe by " + key)
          .containsExactly(new EnqueueResult(results.get(i).id(), false));
      assertThat(queues.list(new MessageQuery(QUEUE, null, key, null, null, 0, 10)))
          .extracting(QueueMessage::id)
          .containsExactly(results.get(i).id());
    }
    assertThat(claimedIds(10)).as("three keys, one head each").hasSize(3);
  }

  // ---- the longest durations allowed (SPEC §1.9)

  @Test
  void a_claim_with_the_longest_lease_allowed_holds_extends_and_snoozes_on_the_database_clock() {
    Duration longest = Limits.MAX_DURATION;
    enqueue(message(QUEUE));
    Instant before = store.now();
    QueueMessage claimed = claimOne(longest);
    assertFromNow(claimed.leaseUntil(), longest, before);

    Instant beforeExtend = store.now();
    assertThat(queues.extend(claimed.claim(), longest)).isTrue();
    assertFromNow(stored(claimed.id()).leaseUntil(), longest, beforeExtend);
    assertThatThrownBy(() -> queues.extend(claimed.claim(), longest.plusNanos(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most 365 days");
    assertThat(queues.reclaimExpired(100, REPEND_ALL)).isZero();

    Instant beforeSnooze = store.now();
    resolveApplied(stored(claimed.id()), new Reschedule(longest));
    assertFromNow(stored(claimed.id()).availableAt(), longest, beforeSnooze);
    assertThat(claim(10)).isEmpty();
  }

  @Test
  void a_message_delayed_or_retried_by_the_longest_time_allowed_waits_that_long() {
    Duration longest = Limits.MAX_DURATION;
    Instant before = store.now();
    long delayed = enqueue(keyed(null, longest));
    assertFromNow(stored(delayed).availableAt(), longest, before);
    long retried = enqueue(message(QUEUE));
    QueueMessage claimed = claimOne();
    assertThat(claimed.id()).isEqualTo(retried);

    Instant beforeRetry = store.now();
    resolveApplied(claimed, new Retry(longest, "later"));
    assertFromNow(stored(retried).availableAt(), longest, beforeRetry);
    assertThat(claim(10)).isEmpty();
    assertThat(queues.stats()).singleElement().satisfies(s -> assertThat(s.pending()).isEqualTo(2));
  }

  @Test
  void retention_and_age_filters_at_the_longest_retention_allowed_work() {
    long dead = deadLetter(QUEUE, null, "poison");
    QueueMessage done = enqueueAndClaim(message(QUEUE));
    resolveApplied(done, new Done(true));
    Duration longest = Limits.MAX_RETENTION;

    assertThat(queues.deleteExpired(QUEUE, longest, longest, 100)).isZero();
    assertThat(ids(dead(null, null, longest))).isEmpty();
    assertThat(ids(dead(null, null, Duration.ZERO))).containsExactly(dead);
    assertThat(queues.replay(dead(null, null, longest))).isZero();
    assertThat(queues.purge(dead(null, null, longest))).isZero();
    assertThat(all(QUEUE)).extracting(QueueMessage::id).containsExactly(dead, done.id());
  }
}
