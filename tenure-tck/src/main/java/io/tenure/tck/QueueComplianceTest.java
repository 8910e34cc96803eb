package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.AgentUri;
import io.tenure.Limits;
import io.tenure.MessageStatus;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.QueueStats;
import io.tenure.spi.AgentGuard;
import io.tenure.spi.AgentStore;
import io.tenure.spi.AssignmentWrite;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.EnqueueResult;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.NewMessage;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Resolution;
import io.tenure.spi.Resolution.DeadLetter;
import io.tenure.spi.Resolution.Done;
import io.tenure.spi.Resolution.Outcome;
import io.tenure.spi.Resolution.Release;
import io.tenure.spi.Resolution.Reschedule;
import io.tenure.spi.Resolution.Retry;
import io.tenure.spi.ResolveResult;
import io.tenure.spi.Store;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC §6: the durable queue's storage rules (claims, resolves, reclaim, dead letters), on every
 * provider.
 */
public abstract class QueueComplianceTest extends FixtureSupport {
  private static final String QUEUE = "orders";
  private static final String OTHER = "billing";
  private static final AgentUri EXCLUSIVE = AgentUri.parse("queue://orders");
  private static final Duration LEASE = Duration.ofMinutes(5);
  private static final Duration SHORT = Duration.ofMillis(200);
  private static final Duration LATER = Duration.ofHours(1);

  /** Rounding between the store's time precision and Java's. */
  /** Deeper than any claim's window of the queue's front (JDBC: max(4 x claim, 1,000) rows). */
  private static final int DEEP = 5000;

  private static final Duration SLACK = Duration.ofMillis(10);

  private Store store;
  private QueueStore queues;
  private AgentStore agents;
  private final String a = UUID.randomUUID().toString();
  private final String b = UUID.randomUUID().toString();
  private LeaderFence fence;

  @BeforeEach
  void openStore() {
    store = freshStore();
    queues = store.queues();
    agents = store.agents();
    String leader = UUID.randomUUID().toString();
    fence = new LeaderFence(leader, store.leases().acquire(leader, LEASE).orElseThrow().epoch());
  }

  // ---- helpers

  private static NewMessage message(
      String queue,
      @Nullable String key,
      int priority,
      int maxAttempts,
      Duration delay,
      @Nullable String dedupeKey) {
    return new NewMessage(
        queue,
        key,
        new byte[] {1, 2, 3},
        "text/plain",
        Map.of(),
        priority,
        maxAttempts,
        delay,
        dedupeKey);
  }

  private static NewMessage message(String queue) {
    return message(queue, null, 0, 3, Duration.ZERO, null);
  }

  private static NewMessage keyed(@Nullable String key, Duration delay) {
    return message(QUEUE, key, 0, 3, delay, null);
  }

  private static NewMessage attempts(int maxAttempts) {
    return message(QUEUE, null, 0, maxAttempts, Duration.ZERO, null);
  }

  private static NewMessage deduped(String queue, String dedupeKey) {
    return message(queue, null, 0, 3, Duration.ZERO, dedupeKey);
  }

  private long enqueue(NewMessage message) {
    return queues.enqueue(List.of(message)).get(0).id();
  }

  private List<Long> enqueueMany(int count, @Nullable String key) {
    List<NewMessage> batch = Collections.nCopies(count, keyed(key, Duration.ZERO));
    return queues.enqueue(batch).stream().map(EnqueueResult::id).toList();
  }

  private List<QueueMessage> claim(String node, int max, Duration lease) {
    return queues.claim(ClaimRequest.of(QUEUE, node, max, lease));
  }

  private List<QueueMessage> claim(int max) {
    return claim(a, max, LEASE);
  }

  private List<Long> claimedIds(int max) {
    return claim(max).stream().map(QueueMessage::id).toList();
  }

  private QueueMessage claimOne(Duration lease) {
    List<QueueMessage> claimed = claim(a, 1, lease);
    assertThat(claimed).as("one message to claim").hasSize(1);
    return claimed.get(0);
  }

  private QueueMessage claimOne() {
    return claimOne(LEASE);
  }

  /** Enqueues one message and claims it: it must be the only one available. */
  private QueueMessage enqueueAndClaim(NewMessage message) {
    long id = enqueue(message);
    QueueMessage claimed = queues.claim(ClaimRequest.of(message.queue(), a, 1, LEASE)).get(0);
    assertThat(claimed.id()).isEqualTo(id);
    return claimed;
  }

  private ResolveResult resolve(QueueMessage message, Outcome outcome) {
    return resolve(message.claim(), outcome);
  }

  private ResolveResult resolve(MessageClaim claim, Outcome outcome) {
    return queues.resolve(List.of(new Resolution(claim, outcome)), null);
  }

  private ResolveResult resolve(QueueMessage message, Outcome outcome, AgentGuard guard) {
    return queues.resolve(List.of(new Resolution(message.claim(), outcome)), guard);
  }

  private void resolveApplied(QueueMessage message, Outcome outcome) {
    assertThat(resolve(message, outcome).applied()).containsExactly(message.id());
  }

  private long deadLetter(String queue, @Nullable String key, String error) {
    QueueMessage claimed = enqueueAndClaim(message(queue, key, 0, 3, Duration.ZERO, null));
    resolveApplied(claimed, new DeadLetter(error));
    return claimed.id();
  }

  private QueueMessage stored(long id) {
    return queues.find(id).orElseThrow(() -> new AssertionError("message " + id + " is missing"));
  }

  private List<QueueMessage> all(String queue) {
    return queues.list(new MessageQuery(queue, null, null, null, null, 0, 10_000));
  }

  private static MessageQuery dead(
      @Nullable String key, @Nullable String errorContains, @Nullable Duration olderThan) {
    return new MessageQuery(QUEUE, MessageStatus.DEAD, key, errorContains, olderThan, 0, 100);
  }

  private List<Long> ids(MessageQuery query) {
    return queues.list(query).stream().map(QueueMessage::id).toList();
  }

  /**
   * {@code actual} is {@code offset} after the database's now, taken between {@code before} and
   * this call.
   */
  private void assertFromNow(@Nullable Instant actual, Duration offset, Instant before) {
    assertThat(actual)
        .isBetween(before.plus(offset).minus(SLACK), store.now().plus(offset).plus(SLACK));
  }

  private static void assertPendingUnclaimed(QueueMessage message, int attempts) {
    assertThat(message.status()).isEqualTo(MessageStatus.PENDING);
    assertThat(message.ownerNode()).isNull();
    assertThat(message.claimToken()).isNull();
    assertThat(message.leaseUntil()).isNull();
    assertThat(message.attempts()).isEqualTo(attempts);
  }

  private AgentGuard ownExclusiveQueue(String node) {
    assertThat(agents.place(EXCLUSIVE, node, fence)).isEqualTo(AssignmentWrite.APPLIED);
    return new AgentGuard(EXCLUSIVE, node, agents.claim(EXCLUSIVE, node).orElseThrow());
  }

  /** The owner lets the agent go and claims it again: the old guard's epoch is stale. */
  private AgentGuard reclaimAgent(AgentGuard guard) {
    assertThat(agents.release(EXCLUSIVE, guard.nodeId())).isTrue();
    AgentGuard next =
        new AgentGuard(
            EXCLUSIVE, guard.nodeId(), agents.claim(EXCLUSIVE, guard.nodeId()).orElseThrow());
    assertThat(next.epoch()).isGreaterThan(guard.epoch());
    return next;
  }

  private List<QueueMessage> claimStrict(AgentGuard guard, int max) {
    return queues.claim(new ClaimRequest(QUEUE, guard.nodeId(), max, LEASE, true, guard));
  }

  // ---- enqueue and claim

  @Test
  void
      a_claim_takes_the_message_in_flight_for_its_owner_with_a_token_one_attempt_and_a_lease_from_now() {
    long id = enqueue(message(QUEUE));
    Instant before = store.now();

    QueueMessage claimed = claimOne();

    assertThat(claimed.id()).isEqualTo(id);
    assertThat(claimed.status()).isEqualTo(MessageStatus.INFLIGHT);
    assertThat(claimed.ownerNode()).isEqualTo(a);
    assertThat(claimed.claimToken()).isNotBlank();
    assertThat(claimed.attempts()).isEqualTo(1);
    assertFromNow(claimed.leaseUntil(), LEASE, before);
    assertThat(stored(id)).as("returned as stored").isEqualTo(claimed);
    assertThat(claim(10)).as("claimed once").isEmpty();
  }

  @Test
  void done_without_keep_deletes_the_message() {
    QueueMessage claimed = enqueueAndClaim(message(QUEUE));

    resolveApplied(claimed, new Done(false));

    assertThat(queues.find(claimed.id())).isEmpty();
    assertThat(claim(10)).isEmpty();
  }

  @Test
  void done_with_keep_keeps_it_done_with_its_finish_time_and_it_is_never_claimed_again() {
    QueueMessage claimed = enqueueAndClaim(message(QUEUE));
    Instant before = store.now();

    resolveApplied(claimed, new Done(true));

    QueueMessage done = stored(claimed.id());
    assertThat(done.status()).isEqualTo(MessageStatus.DONE);
    assertFromNow(done.finishedAt(), Duration.ZERO, before);
    assertThat(done.claimToken()).isNull();
    assertThat(claim(10)).isEmpty();
  }

  @Test
  void a_batch_enqueue_returns_increasing_ids_in_list_order() {
    List<EnqueueResult> results =
        queues.enqueue(List.of(message(QUEUE), message(OTHER), message(QUEUE)));

    assertThat(results).extracting(EnqueueResult::inserted).containsExactly(true, true, true);
    List<Long> ids = results.stream().map(EnqueueResult::id).toList();
    assertThat(ids).isSorted().doesNotHaveDuplicates();
    assertThat(all(QUEUE)).extracting(QueueMessage::id).containsExactly(ids.get(0), ids.get(2));
    assertThat(enqueue(message(QUEUE))).isGreaterThan(ids.get(2));
  }

  @Test
  void every_field_of_a_message_round_trips_exactly() {
    byte[] everyByte = new byte[256];
    IntStream.range(0, 256).forEach(i -> everyByte[i] = (byte) i);
    Map<String, String> headers = Map.of("trace", "Grüße, 日本, ✓", "empty", "");
    NewMessage empty =
        new NewMessage(
            QUEUE,
            "customer-42",
            new byte[0],
            "application/json; charset=utf-8",
            headers,
            7,
            4,
            Duration.ZERO,
            "order-42");
    NewMessage binary =
        new NewMessage(
            QUEUE, null, everyByte, "application/octet-stream", Map.of(), -3, 1, LATER, null);
    Instant before = store.now();

    List<EnqueueResult> results = queues.enqueue(List.of(empty, binary));

    QueueMessage first = stored(results.get(0).id());
    assertThat(first.queue()).isEqualTo(QUEUE);
    assertThat(first.key()).isEqualTo("customer-42");
    assertThat(first.payload()).isEmpty();
    assertThat(first.contentType()).isEqualTo("application/json; charset=utf-8");
    assertThat(first.headers()).isEqualTo(headers);
    assertThat(first.priority()).isEqualTo(7);
    assertThat(first.maxAttempts()).isEqualTo(4);
    assertThat(first.dedupeKey()).isEqualTo("order-42");
    assertPendingUnclaimed(first, 0);
    assertThat(first.lastError()).isNull();
    assertThat(first.finishedAt()).isNull();
    assertFromNow(first.createdAt(), Duration.ZERO, before);
    assertFromNow(first.availableAt(), Duration.ZERO, before);
    QueueMessage second = stored(results.get(1).id());
    assertThat(second.payload()).isEqualTo(everyByte);
    assertThat(second.key()).isNull();
    assertThat(second.headers()).isEmpty();
    assertThat(second.priority()).isEqualTo(-3);
    assertThat(second.dedupeKey()).isNull();
    assertFromNow(second.availableAt(), LATER, before);
  }

  @Test
  void a_repeated_dedupe_key_returns_the_first_id_and_stores_one_row() {
    NewMessage original = deduped(QUEUE, "order-7");
    NewMessage repeat =
        new NewMessage(
            QUEUE, "k", new byte[] {9}, "text/other", Map.of(), 5, 1, Duration.ZERO, "order-7");

    List<EnqueueResult> batch = queues.enqueue(List.of(original, repeat));
    long id = batch.get(0).id();

    assertThat(batch).containsExactly(new EnqueueResult(id, true), new EnqueueResult(id, false));
    assertThat(queues.enqueue(List.of(repeat))).containsExactly(new EnqueueResult(id, false));
    assertThat(all(QUEUE))
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.id()).isEqualTo(id);
              assertThat(m.payload()).as("the first one is kept").isEqualTo(original.payload());
            });
  }

  @Test
  void a_dedupe_key_holds_whatever_the_status_until_its_message_is_deleted() {
    QueueMessage claimed = enqueueAndClaim(deduped(QUEUE, "order-8"));

    assertThat(queues.enqueue(List.of(deduped(QUEUE, "order-8"))))
        .containsExactly(new EnqueueResult(claimed.id(), false));
    resolveApplied(claimed, new Done(false));

    EnqueueResult again = queues.enqueue(List.of(deduped(QUEUE, "order-8"))).get(0);
    assertThat(again.inserted()).isTrue();
    assertThat(again.id()).isGreaterThan(claimed.id());
  }

  @Test
  void the_same_dedupe_key_in_another_queue_is_another_message() {
    EnqueueResult here = queues.enqueue(List.of(deduped(QUEUE, "order-9"))).get(0);
    EnqueueResult there = queues.enqueue(List.of(deduped(OTHER, "order-9"))).get(0);

    assertThat(there.inserted()).isTrue();
    assertThat(there.id()).isNotEqualTo(here.id());
    assertThat(all(OTHER)).extracting(QueueMessage::id).containsExactly(there.id());
  }

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
    assertThat(queues.reclaimExpired(100)).isZero();

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

  @Test
  void a_delayed_message_is_not_claimed_before_its_time_and_one_without_delay_is() {
    enqueue(keyed(null, LATER));
    long now = enqueue(keyed(null, Duration.ZERO));

    assertThat(claimedIds(10)).containsExactly(now);
  }

  @Test
  void a_higher_priority_is_claimed_first_then_the_oldest() {
    long low = enqueue(message(QUEUE, null, 0, 3, Duration.ZERO, null));
    long high = enqueue(message(QUEUE, null, 5, 3, Duration.ZERO, null));
    long middle = enqueue(message(QUEUE, null, 1, 3, Duration.ZERO, null));
    long high2 = enqueue(message(QUEUE, null, 5, 3, Duration.ZERO, null));

    assertThat(claimedIds(2)).containsExactly(high, high2);
    assertThat(claimedIds(1)).containsExactly(middle);
    assertThat(claimedIds(1)).containsExactly(low);
  }

  // ---- FIFO per key

  @Test
  void a_key_is_blocked_while_its_head_is_in_flight_and_free_once_it_is_done() {
    long head = enqueue(keyed("k", Duration.ZERO));
    long next = enqueue(keyed("k", Duration.ZERO));
    long other = enqueue(keyed("j", Duration.ZERO));
    QueueMessage claimed = claimOne();
    assertThat(claimed.id()).isEqualTo(head);

    assertThat(claimedIds(10)).containsExactly(other);

    resolveApplied(claimed, new Done(false));
    assertThat(claimedIds(10)).containsExactly(next);
  }

  @Test
  void a_key_is_blocked_while_its_head_waits_for_a_later_time_but_other_keys_are_not() {
    enqueue(keyed("k", LATER));
    enqueue(keyed("k", Duration.ZERO));
    long unkeyed = enqueue(keyed(null, Duration.ZERO));
    long other = enqueue(keyed("j", Duration.ZERO));

    assertThat(claimedIds(10)).containsExactlyInAnyOrder(unkeyed, other);
  }

  @Test
  void a_failed_head_keeps_blocking_its_key_and_the_order_survives_the_retry() {
    long head = enqueue(keyed("k", Duration.ZERO));
    long next = enqueue(keyed("k", Duration.ZERO));
    resolveApplied(claimOne(), new Retry(SHORT, "try again"));

    assertThat(claim(10)).as("the second waits for the head's retry").isEmpty();
    DatabaseClock.awaitPast(store, stored(head).availableAt());

    QueueMessage retried = claimOne();
    assertThat(retried.id()).isEqualTo(head);
    assertThat(retried.attempts()).isEqualTo(2);
    assertThat(claim(10)).isEmpty();
    resolveApplied(retried, new Done(false));
    assertThat(claimedIds(10)).containsExactly(next);
  }

  @Test
  void one_claim_never_takes_two_messages_of_one_key() {
    List<Long> k = enqueueMany(3, "k");
    List<Long> j = enqueueMany(2, "j");
    List<Long> unkeyed = enqueueMany(2, null);

    assertThat(claimedIds(10))
        .containsExactlyInAnyOrder(k.get(0), j.get(0), unkeyed.get(0), unkeyed.get(1));
  }

  /**
   * A deep queue must not hide its claimable rows: a claim looks at a bounded window of the queue's
   * front, then at each key's head, so neither a busy key's backlog nor a mass of delayed messages
   * in front keeps the rest waiting (SPEC §6.2, "never stranded").
   */
  @Test
  void a_key_behind_a_deep_backlog_of_a_busy_key_is_claimed_while_the_busy_head_is_in_flight() {
    long busyHead = enqueueMany(1, "busy").get(0);
    for (int i = 0; i < DEEP / QueueStore.MAX_BATCH; i++) {
      enqueueMany(QueueStore.MAX_BATCH, "busy");
    }
    List<Long> j = enqueueMany(2, "j");
    long l = enqueueMany(1, "l").get(0);
    assertThat(claimOne().id()).isEqualTo(busyHead);

    assertThat(claimedIds(10))
        .as("the heads of j and l, behind %d blocked rows of busy", DEEP)
        .containsExactlyInAnyOrder(j.get(0), l);
    assertThat(claim(10)).as("every key now has its head in flight").isEmpty();
  }

  /**
   * One claim that takes from both steps: the window's claimable rows, then key heads behind the
   * backlog, never a row twice and never more than asked (PostgreSQL runs both steps in one
   * statement).
   */
  @Test
  void
      a_claim_that_takes_from_the_window_and_from_the_key_heads_takes_each_row_once_up_to_its_limit() {
    long busyHead = enqueueMany(1, "busy").get(0);
    long m = enqueueMany(1, "m").get(0);
    for (int i = 0; i < DEEP / QueueStore.MAX_BATCH; i++) {
      enqueueMany(QueueStore.MAX_BATCH, "busy");
    }
    List<Long> j = enqueueMany(2, "j");
    long l = enqueueMany(1, "l").get(0);
    assertThat(claimOne().id()).isEqualTo(busyHead);

    assertThat(claimedIds(2))
        .as("m from the window, then the first key head behind it")
        .containsExactlyInAnyOrder(m, j.get(0));
    assertThat(claimedIds(10)).containsExactly(l);
  }

  /**
   * A replayed dead letter keeps its id, so it can be older than the message of its key in flight:
   * it is no head while that one runs (one message per key in flight, SPEC §6.2), and it runs next,
   * before the key's younger messages.
   */
  @Test
  void a_replayed_message_waits_while_its_key_has_a_message_in_flight_then_runs_in_its_old_place() {
    long first = enqueue(keyed("k", Duration.ZERO));
    long second = enqueue(keyed("k", Duration.ZERO));
    long third = enqueue(keyed("k", Duration.ZERO));
    QueueMessage head = claimOne();
    assertThat(head.id()).isEqualTo(first);
    resolveApplied(head, new DeadLetter("poison"));
    QueueMessage inFlight = claimOne();
    assertThat(inFlight.id()).isEqualTo(second);
    assertThat(queues.replay(first)).isTrue();
    long other = enqueue(keyed("j", Duration.ZERO));

    assertThat(claimedIds(10)).as("k has %d in flight", second).containsExactly(other);

    resolveApplied(inFlight, new Done(false));
    assertThat(claimedIds(10)).as("the replayed message, before %d", third).containsExactly(first);
  }

  /**
   * The same behind more blocked rows than a claim's window, where only the key heads step can
   * reach the replayed message: that step, too, takes no head of a key with a message in flight.
   */
  @Test
  void a_replayed_message_behind_a_deep_backlog_waits_while_its_key_has_a_message_in_flight() {
    long busyHead = enqueueMany(1, "busy").get(0);
    for (int i = 0; i < DEEP / QueueStore.MAX_BATCH; i++) {
      enqueueMany(QueueStore.MAX_BATCH, "busy");
    }
    long first = enqueue(keyed("k", Duration.ZERO));
    long second = enqueue(keyed("k", Duration.ZERO));
    assertThat(claimOne().id()).isEqualTo(busyHead);
    QueueMessage head = claimOne();
    assertThat(head.id()).isEqualTo(first);
    resolveApplied(head, new DeadLetter("poison"));
    QueueMessage inFlight = claimOne();
    assertThat(inFlight.id()).isEqualTo(second);
    assertThat(queues.replay(dead("k", null, null))).isEqualTo(1);
    long other = enqueue(keyed("l", Duration.ZERO));

    assertThat(claimedIds(10))
        .as("behind %d blocked rows of busy, k has %d in flight", DEEP, second)
        .containsExactly(other);

    resolveApplied(inFlight, new Done(false));
    assertThat(claimedIds(10)).as("the replayed message").containsExactly(first);
  }

  @Test
  void an_available_message_behind_a_deep_backlog_of_delayed_ones_is_claimed() {
    for (int i = 0; i < DEEP / QueueStore.MAX_BATCH; i++) {
      queues.enqueue(Collections.nCopies(QueueStore.MAX_BATCH, keyed(null, LATER)));
    }
    long now = enqueue(keyed(null, Duration.ZERO));
    long keyedNow = enqueue(keyed("k", Duration.ZERO));

    assertThat(claimedIds(10)).containsExactlyInAnyOrder(now, keyedNow);
  }

  // ---- resolves

  @Test
  void a_retry_is_pending_later_with_its_error_and_attempts_kept() {
    QueueMessage claimed = enqueueAndClaim(attempts(3));
    Instant before = store.now();

    resolveApplied(claimed, new Retry(Duration.ofMinutes(10), "boom"));

    QueueMessage retry = stored(claimed.id());
    assertPendingUnclaimed(retry, 1);
    assertFromNow(retry.availableAt(), Duration.ofMinutes(10), before);
    assertThat(retry.lastError()).isEqualTo("boom");
    assertThat(retry.finishedAt()).isNull();
    assertThat(claim(10)).isEmpty();
  }

  /**
   * The consumer decides retry or dead (SPEC §6.3); the store applies what it is told: a retry on
   * the last attempt re-pends, and only a dead letter makes the message dead.
   */
  @Test
  void a_retry_on_the_last_attempt_is_applied_as_told_and_a_dead_letter_is_dead() {
    enqueue(attempts(2));
    resolveApplied(claimOne(), new Retry(Duration.ZERO, "first"));
    QueueMessage last = claimOne();
    assertThat(last.attempts()).isEqualTo(2);

    resolveApplied(last, new Retry(Duration.ZERO, "second"));

    QueueMessage again = stored(last.id());
    assertPendingUnclaimed(again, 2);
    assertThat(again.lastError()).isEqualTo("second");
    assertThat(again.finishedAt()).isNull();
    QueueMessage past = claimOne();
    assertThat(past.attempts()).isEqualTo(3);
    Instant before = store.now();

    resolveApplied(past, new DeadLetter("third"));

    QueueMessage dead = stored(last.id());
    assertThat(dead.status()).isEqualTo(MessageStatus.DEAD);
    assertThat(dead.lastError()).isEqualTo("third");
    assertThat(dead.attempts()).isEqualTo(3);
    assertThat(dead.ownerNode()).isNull();
    assertThat(dead.claimToken()).isNull();
    assertFromNow(dead.finishedAt(), Duration.ZERO, before);
    assertThat(claim(10)).isEmpty();
  }

  @Test
  void a_dead_letter_is_dead_at_once_whatever_attempts_are_left() {
    QueueMessage claimed = enqueueAndClaim(attempts(10));
    Instant before = store.now();

    resolveApplied(claimed, new DeadLetter("poison"));

    QueueMessage dead = stored(claimed.id());
    assertThat(dead.status()).isEqualTo(MessageStatus.DEAD);
    assertThat(dead.lastError()).isEqualTo("poison");
    assertThat(dead.attempts()).isEqualTo(1);
    assertFromNow(dead.finishedAt(), Duration.ZERO, before);
    assertThat(claim(10)).isEmpty();
  }

  @Test
  void a_release_gives_the_attempt_back_and_keeps_the_available_time() {
    long id = enqueue(attempts(3));
    Instant availableAt = stored(id).availableAt();
    DatabaseClock.awaitPast(store, availableAt);

    resolveApplied(claimOne(), new Release());

    QueueMessage released = stored(id);
    assertPendingUnclaimed(released, 0);
    assertThat(released.availableAt()).isEqualTo(availableAt);
    assertThat(claimOne().attempts()).isEqualTo(1);
  }

  @Test
  void a_reschedule_gives_the_attempt_back_and_snoozes_from_now() {
    QueueMessage claimed = enqueueAndClaim(attempts(3));
    Instant before = store.now();

    resolveApplied(claimed, new Reschedule(Duration.ofMinutes(10)));

    QueueMessage snoozed = stored(claimed.id());
    assertPendingUnclaimed(snoozed, 0);
    assertFromNow(snoozed.availableAt(), Duration.ofMinutes(10), before);
    assertThat(claim(10)).isEmpty();
  }

  @Test
  void a_resolve_whose_claim_was_lost_changes_nothing_and_reports_the_id() {
    QueueMessage first = enqueueAndClaim(message(QUEUE));
    resolveApplied(first, new Release());
    QueueMessage current = claimOne();
    long missing = current.id() + 1_000_000;

    MessageClaim madeUp = new MessageClaim(current.id(), "made-up");
    for (MessageClaim lost : List.of(madeUp, first.claim(), new MessageClaim(missing, "x"))) {
      ResolveResult result = resolve(lost, new Done(false));

      assertThat(result).isEqualTo(new ResolveResult(List.of(), List.of(lost.id()), false));
      assertThat(result.allApplied()).isFalse();
    }
    assertThat(stored(current.id())).isEqualTo(current);
    assertThat(queues.find(missing)).isEmpty();
  }

  @Test
  void a_batch_with_one_lost_claim_changes_nothing_and_reports_exactly_that_id() {
    enqueueMany(3, null);
    List<QueueMessage> claimed = claim(3);

    ResolveResult result =
        queues.resolve(
            List.of(
                new Resolution(claimed.get(0).claim(), new Done(false)),
                new Resolution(new MessageClaim(claimed.get(1).id(), "made-up"), new Done(true)),
                new Resolution(claimed.get(2).claim(), new Retry(Duration.ZERO, "boom"))),
            null);

    assertThat(result).isEqualTo(new ResolveResult(List.of(), List.of(claimed.get(1).id()), false));
    assertThat(all(QUEUE)).containsExactlyElementsOf(claimed);
  }

  @Test
  void a_batch_of_done_and_released_messages_with_one_lost_claim_changes_nothing() {
    // Done and release are the common outcomes; a store may write them on a shorter path, which
    // must stay all or nothing: here the lost claim is in the middle of the batch.
    enqueueMany(4, null);
    List<QueueMessage> claimed = claim(4);

    ResolveResult result =
        queues.resolve(
            List.of(
                new Resolution(claimed.get(0).claim(), new Done(false)),
                new Resolution(claimed.get(1).claim(), new Done(true)),
                new Resolution(new MessageClaim(claimed.get(2).id(), "made-up"), new Done(false)),
                new Resolution(claimed.get(3).claim(), new Release())),
            null);

    assertThat(result).isEqualTo(new ResolveResult(List.of(), List.of(claimed.get(2).id()), false));
    assertThat(all(QUEUE)).containsExactlyElementsOf(claimed);
  }

  @Test
  void a_batch_whose_claims_all_hold_is_applied_entirely() {
    enqueueMany(3, null);
    List<QueueMessage> claimed = claim(3);
    List<Long> ids = claimed.stream().map(QueueMessage::id).toList();

    ResolveResult result =
        queues.resolve(
            List.of(
                new Resolution(claimed.get(0).claim(), new Done(true)),
                new Resolution(claimed.get(1).claim(), new Release()),
                new Resolution(claimed.get(2).claim(), new DeadLetter("poison"))),
            null);

    assertThat(result.allApplied()).isTrue();
    assertThat(result.applied()).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(result.lost()).isEmpty();
    assertThat(all(QUEUE))
        .extracting(QueueMessage::status)
        .containsExactly(MessageStatus.DONE, MessageStatus.PENDING, MessageStatus.DEAD);
  }

  @Test
  void an_empty_batch_or_one_naming_a_message_twice_is_refused_and_changes_nothing() {
    QueueMessage claimed = enqueueAndClaim(message(QUEUE));
    List<Resolution> twice =
        List.of(
            new Resolution(claimed.claim(), new Done(false)),
            new Resolution(claimed.claim(), new Release()));

    assertThatThrownBy(() -> queues.resolve(List.of(), null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> queues.resolve(twice, null))
        .isInstanceOf(IllegalArgumentException.class);

    assertThat(stored(claimed.id())).isEqualTo(claimed);
  }

  @Test
  void extending_a_held_claim_moves_its_lease_forward_and_a_lost_claim_is_not_extended() {
    QueueMessage claimed = enqueueAndClaim(message(QUEUE));
    Instant before = store.now();

    assertThat(queues.extend(claimed.claim(), Duration.ofMinutes(30))).isTrue();

    QueueMessage extended = stored(claimed.id());
    assertFromNow(extended.leaseUntil(), Duration.ofMinutes(30), before);
    assertThat(extended.claimToken()).isEqualTo(claimed.claimToken());
    assertThat(queues.extend(new MessageClaim(claimed.id(), "made-up"), Duration.ofHours(2)))
        .isFalse();
    assertThat(stored(claimed.id())).isEqualTo(extended);
  }

  // ---- reclaim

  @Test
  void an_expired_claim_is_reclaimed_and_its_late_owner_can_no_longer_resolve_it() {
    enqueue(attempts(3));
    QueueMessage claimed = claimOne(SHORT);
    DatabaseClock.awaitPast(store, claimed.leaseUntil());

    assertThat(queues.reclaimExpired(100)).isEqualTo(1);

    QueueMessage reclaimed = stored(claimed.id());
    assertPendingUnclaimed(reclaimed, 1);
    assertThat(resolve(claimed, new Done(false)).lost()).containsExactly(claimed.id());
    assertThat(stored(claimed.id())).isEqualTo(reclaimed);
    assertThat(claimOne().attempts()).isEqualTo(2);
  }

  @Test
  void a_claim_whose_lease_has_not_expired_is_left_alone() {
    QueueMessage claimed = enqueueAndClaim(message(QUEUE));

    assertThat(queues.reclaimExpired(100)).isZero();

    assertThat(stored(claimed.id())).isEqualTo(claimed);
  }

  @Test
  void an_expired_claim_at_max_attempts_becomes_a_dead_letter() {
    enqueue(attempts(1));
    QueueMessage claimed = claimOne(SHORT);
    DatabaseClock.awaitPast(store, claimed.leaseUntil());

    assertThat(queues.reclaimExpired(100)).isEqualTo(1);

    QueueMessage dead = stored(claimed.id());
    assertThat(dead.status()).isEqualTo(MessageStatus.DEAD);
    assertThat(dead.claimToken()).isNull();
    assertThat(dead.finishedAt()).isNotNull();
  }

  @Test
  void a_reclaim_changes_at_most_its_limit_and_leaves_the_rest_to_the_next_call() {
    enqueueMany(5, null);
    List<QueueMessage> claimed = claim(a, 5, SHORT);
    claimed.forEach(m -> DatabaseClock.awaitPast(store, m.leaseUntil()));

    assertThat(IntStream.range(0, 4).map(call -> queues.reclaimExpired(2)))
        .containsExactly(2, 2, 1, 0);

    assertThat(all(QUEUE)).allSatisfy(m -> assertPendingUnclaimed(m, 1));
  }

  // ---- races

  @Test
  void eight_claimers_racing_over_a_backlog_take_each_message_exactly_once() {
    List<Long> ids = enqueueMany(200, null);
    List<String> nodes = IntStream.range(0, 8).mapToObj(i -> "claimer-" + i).toList();
    List<Callable<List<QueueMessage>>> claimers = new ArrayList<>();
    nodes.forEach(node -> claimers.add(() -> drain(node)));

    List<List<QueueMessage>> results = Race.run(claimers);

    List<Long> claimed = results.stream().flatMap(List::stream).map(QueueMessage::id).toList();
    assertThat(claimed).containsExactlyInAnyOrderElementsOf(ids);
    for (int i = 0; i < nodes.size(); i++) {
      String node = nodes.get(i);
      assertThat(results.get(i))
          .allSatisfy(m -> assertThat(stored(m.id()).ownerNode()).isEqualTo(node));
    }
    assertThat(all(QUEUE)).allSatisfy(m -> assertThat(m.attempts()).isEqualTo(1));
  }

  private List<QueueMessage> drain(String node) {
    List<QueueMessage> taken = new ArrayList<>();
    for (List<QueueMessage> batch = claim(node, 10, LEASE);
        !batch.isEmpty();
        batch = claim(node, 10, LEASE)) {
      taken.addAll(batch);
    }
    return taken;
  }

  @Test
  void eight_claimers_racing_over_one_key_take_only_its_head_between_them() {
    List<Long> ids = enqueueMany(20, "k");
    List<Callable<List<QueueMessage>>> claimers = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String node = "claimer-" + i;
      claimers.add(() -> claim(node, 10, LEASE));
    }

    List<List<QueueMessage>> results = Race.run(claimers);

    assertThat(results.stream().flatMap(List::stream).map(QueueMessage::id))
        .containsExactly(ids.get(0));
    assertThat(all(QUEUE)).filteredOn(m -> m.status() == MessageStatus.INFLIGHT).hasSize(1);
  }

  // ---- exclusive queues (SPEC §6.9)

  @Test
  void an_exclusive_claim_with_a_stale_guard_takes_nothing_and_changes_nothing() {
    enqueueMany(3, null);
    AgentGuard first = ownExclusiveQueue(a);
    AgentGuard current = reclaimAgent(first);
    List<QueueMessage> before = all(QUEUE);

    assertThat(claimStrict(first, 10)).as("an older epoch").isEmpty();
    assertThat(claimStrict(new AgentGuard(EXCLUSIVE, b, current.epoch()), 10))
        .as("another node")
        .isEmpty();
    AgentGuard noRow = new AgentGuard(AgentUri.parse("queue://none"), a, current.epoch());
    assertThat(claimStrict(noRow, 10)).as("no row").isEmpty();

    assertThat(all(QUEUE)).isEqualTo(before);
    assertThat(claimStrict(current, 1)).as("the current guard").hasSize(1);
  }

  @Test
  void an_exclusive_claim_by_a_node_that_lost_the_agent_to_another_takes_nothing() {
    enqueue(message(QUEUE));
    AgentGuard old = ownExclusiveQueue(a);
    agents.release(EXCLUSIVE, a);
    AgentGuard successor = ownExclusiveQueue(b);

    assertThat(claimStrict(old, 10)).isEmpty();
    assertThat(claimStrict(successor, 10)).hasSize(1);
  }

  @Test
  void an_exclusive_claim_with_the_current_guard_takes_the_oldest_message_whatever_its_priority() {
    long head = enqueue(message(QUEUE, null, 0, 3, Duration.ZERO, null));
    enqueue(
        message(
            QUEUE,
            null,
            9,
            3,
            Duration.ZERO,
            null)); // strict order is id order: priority does not overtake
    AgentGuard guard = ownExclusiveQueue(a);

    assertThat(claimStrict(guard, 1)).extracting(QueueMessage::id).containsExactly(head);
  }

  @Test
  void an_exclusive_queue_claims_nothing_while_its_head_is_in_flight_or_waits_for_a_retry() {
    enqueue(keyed("k", Duration.ZERO));
    enqueue(keyed("j", Duration.ZERO));
    AgentGuard guard = ownExclusiveQueue(a);
    QueueMessage head = claimStrict(guard, 1).get(0);

    assertThat(claimStrict(guard, 10)).as("head in flight").isEmpty();
    assertThat(resolve(head, new Retry(LATER, "later"), guard).allApplied()).isTrue();
    assertThat(claimStrict(guard, 10)).as("head waits for its retry").isEmpty();
  }

  /**
   * A replayed dead letter keeps its id, so it can be older than the message in flight: the queue
   * still runs one message at a time, and the replayed one runs next, before the younger ones.
   */
  @Test
  void an_exclusive_queue_claims_nothing_while_a_message_is_in_flight_even_an_older_replayed_one() {
    long first = enqueue(message(QUEUE));
    long second = enqueue(message(QUEUE));
    long third = enqueue(message(QUEUE));
    AgentGuard guard = ownExclusiveQueue(a);
    QueueMessage head = claimStrict(guard, 1).get(0);
    assertThat(head.id()).isEqualTo(first);
    assertThat(resolve(head, new DeadLetter("poison"), guard).allApplied()).isTrue();
    QueueMessage inFlight = claimStrict(guard, 1).get(0);
    assertThat(inFlight.id()).isEqualTo(second);
    assertThat(queues.replay(first)).isTrue();

    assertThat(claimStrict(guard, 10)).as("%d in flight", second).isEmpty();

    assertThat(resolve(inFlight, new Done(false), guard).allApplied()).isTrue();
    assertThat(claimStrict(guard, 10)).extracting(QueueMessage::id).containsExactly(first, third);
  }

  /**
   * SPEC §6.9: a finish refused by a stale guard puts the message back for the successor with its
   * attempt given back. The handler succeeded (or gave up on it) on an attempt the refusal undoes:
   * charged, a message at its last attempt would be dead at its successor's first lease lapse.
   */
  @Test
  void
      a_finish_with_a_stale_guard_applies_nothing_and_puts_the_message_back_with_its_attempt_given_back() {
    AgentGuard guard = ownExclusiveQueue(a);
    List<Outcome> finishes = List.of(new Done(false), new Done(true), new DeadLetter("poison"));
    for (Outcome finish : finishes) {
      long id = enqueue(attempts(1)); // one attempt: the claim spends the last one
      QueueMessage claimed = claimStrict(guard, 1).get(0);
      AgentGuard stale = guard;
      guard = reclaimAgent(guard);

      ResolveResult result = resolve(claimed, finish, stale);

      assertThat(result).as("%s", finish).isEqualTo(new ResolveResult(List.of(), List.of(), true));
      QueueMessage back = stored(id);
      assertPendingUnclaimed(back, 0);
      assertThat(back.lastError()).as("%s", finish).isNull();
      assertThat(back.availableAt()).as("%s", finish).isEqualTo(claimed.availableAt());
      QueueMessage successor = claimStrict(guard, 1).get(0);
      assertThat(successor.id()).as("the new owner takes it").isEqualTo(id);
      assertThat(successor.attempts())
          .as("%s: its one attempt is the successor's", finish)
          .isEqualTo(1);
      assertThat(resolve(successor, new Done(false), guard).allApplied()).isTrue();
    }
  }

  /**
   * SPEC §1.5, §6.9: a retry (a failure with attempts left) is a re-pend, never fenced: it lands
   * under a stale guard with its error and its backoff, so the successor neither retries at once
   * nor loses the error. The guard is reported refused, the re-pend as applied.
   */
  @Test
  void a_retry_under_a_stale_guard_lands_with_its_error_and_backoff() {
    AgentGuard guard = ownExclusiveQueue(a);
    long id = enqueue(attempts(3));
    QueueMessage claimed = claimStrict(guard, 1).get(0);
    AgentGuard stale = guard;
    guard = reclaimAgent(guard);
    Instant before = store.now();

    ResolveResult result = resolve(claimed, new Retry(LATER, "boom"), stale);

    assertThat(result).isEqualTo(new ResolveResult(List.of(id), List.of(), true));
    QueueMessage retry = stored(id);
    assertPendingUnclaimed(retry, 1);
    assertThat(retry.lastError()).isEqualTo("boom");
    assertFromNow(retry.availableAt(), LATER, before);
    assertThat(claimStrict(guard, 1)).as("the successor waits for the retry").isEmpty();
  }

  @Test
  void a_stale_guard_with_a_lost_claim_in_the_batch_still_puts_the_held_message_back() {
    enqueueMany(1, null);
    AgentGuard guard = ownExclusiveQueue(a);
    QueueMessage held = claimStrict(guard, 1).get(0);
    AgentGuard stale = guard;
    reclaimAgent(guard);
    MessageClaim madeUp = new MessageClaim(held.id() + 1_000, "no-such-claim");

    ResolveResult result =
        queues.resolve(
            List.of(
                new Resolution(held.claim(), new Done(false)),
                new Resolution(madeUp, new Done(false))),
            stale);

    assertThat(result).isEqualTo(new ResolveResult(List.of(), List.of(madeUp.id()), true));
    assertPendingUnclaimed(stored(held.id()), 0);
  }

  @Test
  void a_non_terminal_resolve_with_a_stale_guard_is_applied() {
    enqueueMany(2, null);
    AgentGuard guard = ownExclusiveQueue(a);
    QueueMessage first = claimStrict(guard, 1).get(0);
    AgentGuard stale = guard;
    guard = reclaimAgent(guard);

    ResolveResult release = resolve(first, new Release(), stale);
    QueueMessage again = claimStrict(guard, 1).get(0);
    ResolveResult snooze = resolve(again, new Reschedule(LATER), stale);

    assertThat(release).isEqualTo(new ResolveResult(List.of(first.id()), List.of(), false));
    assertThat(snooze).isEqualTo(new ResolveResult(List.of(again.id()), List.of(), false));
    assertThat(stored(again.id()).availableAt()).isAfter(store.now());
  }

  // ---- dead letters (SPEC §6.7)

  @Test
  void dead_letters_are_listed_per_queue_in_id_order() {
    long first = deadLetter(QUEUE, null, "one");
    deadLetter(OTHER, null, "elsewhere");
    long second = deadLetter(QUEUE, null, "two");
    enqueue(message(QUEUE));
    enqueueAndClaim(message(OTHER));

    assertThat(ids(MessageQuery.dead(QUEUE, 100))).containsExactly(first, second);
    assertThat(ids(new MessageQuery(QUEUE, MessageStatus.DEAD, null, null, null, first, 100)))
        .containsExactly(second);
    assertThat(ids(MessageQuery.dead(QUEUE, 1))).containsExactly(first);
  }

  @Test
  void dead_letters_are_filtered_by_key_error_and_age() {
    long timeout = deadLetter(QUEUE, "k", "timeout after 30s");
    long refused = deadLetter(QUEUE, "j", "connection refused");
    long other = deadLetter(QUEUE, "k", "bad request");
    DatabaseClock.awaitPast(store, stored(other).createdAt());

    assertThat(ids(dead("k", null, null))).containsExactly(timeout, other);
    assertThat(ids(dead(null, "refused", null))).containsExactly(refused);
    assertThat(ids(dead("k", "refused", null))).isEmpty();
    assertThat(ids(dead(null, null, LATER))).as("none an hour old").isEmpty();
    assertThat(ids(dead(null, null, Duration.ZERO))).containsExactly(timeout, refused, other);
  }

  @Test
  void replaying_a_dead_letter_makes_it_pending_now_with_no_attempts_and_claimable() {
    long id = deadLetter(QUEUE, null, "poison");
    Instant before = store.now();

    assertThat(queues.replay(id)).isTrue();

    QueueMessage replayed = stored(id);
    assertPendingUnclaimed(replayed, 0);
    assertThat(replayed.lastError()).isEqualTo("poison");
    assertFromNow(replayed.availableAt(), Duration.ZERO, before);
    assertThat(claimOne().id()).isEqualTo(id);
  }

  @Test
  void replaying_a_message_that_is_not_dead_changes_nothing() {
    long pending = enqueue(message(QUEUE));
    QueueMessage before = stored(pending);
    QueueMessage inflight = enqueueAndClaim(message(OTHER));

    assertThat(queues.replay(pending)).isFalse();
    assertThat(queues.replay(inflight.id())).isFalse();
    assertThat(queues.replay(inflight.id() + 1_000_000)).isFalse();

    assertThat(stored(pending)).isEqualTo(before);
    assertThat(stored(inflight.id())).isEqualTo(inflight);
  }

  @Test
  void replay_and_purge_by_query_touch_only_matching_dead_letters() {
    long k1 = deadLetter(QUEUE, "k", "boom");
    long k2 = deadLetter(QUEUE, "k", "boom");
    long j = deadLetter(QUEUE, "j", "boom");
    long elsewhere = deadLetter(OTHER, "k", "boom");
    long pending = enqueue(keyed("j", LATER));
    // The query's status is ignored: replay and purge touch DEAD rows only, whatever it says.
    MessageQuery keyK = new MessageQuery(QUEUE, MessageStatus.PENDING, "k", null, null, 0, 100);
    MessageQuery keyJ = new MessageQuery(QUEUE, null, "j", null, null, 0, 100);

    assertThat(queues.replay(keyK)).isEqualTo(2);
    assertThat(queues.purge(keyJ)).isEqualTo(1);

    assertThat(List.of(stored(k1).status(), stored(k2).status()))
        .containsOnly(MessageStatus.PENDING);
    assertThat(queues.find(j)).isEmpty();
    assertThat(stored(pending).status()).isEqualTo(MessageStatus.PENDING);
    assertThat(stored(elsewhere).status()).isEqualTo(MessageStatus.DEAD);
    assertThat(queues.replay(keyK)).isZero();
    assertThat(queues.purge(keyJ)).isZero();
  }

  @Test
  void retention_deletes_only_done_and_dead_messages_finished_long_enough_ago() {
    QueueMessage done1 = enqueueAndClaim(message(QUEUE));
    resolveApplied(done1, new Done(true));
    QueueMessage done2 = enqueueAndClaim(message(QUEUE));
    resolveApplied(done2, new Done(true));
    long dead = deadLetter(QUEUE, null, "poison");
    long elsewhere = deadLetter(OTHER, null, "poison");
    QueueMessage inflight = enqueueAndClaim(message(QUEUE));
    long pending = enqueue(message(QUEUE));
    DatabaseClock.awaitPast(store, stored(dead).finishedAt());

    assertThat(queues.deleteExpired(QUEUE, LATER, LATER, 100)).isZero();
    assertThat(queues.deleteExpired(QUEUE, Duration.ZERO, LATER, 1))
        .as("capped by the limit")
        .isEqualTo(1);
    assertThat(queues.deleteExpired(QUEUE, Duration.ZERO, LATER, 100)).isEqualTo(1);
    assertThat(all(QUEUE))
        .extracting(QueueMessage::id)
        .containsExactly(dead, inflight.id(), pending);
    assertThat(queues.deleteExpired(QUEUE, LATER, Duration.ZERO, 100)).isEqualTo(1);

    assertThat(all(QUEUE)).extracting(QueueMessage::id).containsExactly(inflight.id(), pending);
    assertThat(all(OTHER)).extracting(QueueMessage::id).containsExactly(elsewhere);
  }

  // ---- stats

  @Test
  void stats_count_each_status_per_queue_and_the_age_of_the_oldest_available_message() {
    enqueueMany(3, null);
    List<QueueMessage> claimed = claim(3);
    resolveApplied(claimed.get(1), new DeadLetter("poison"));
    resolveApplied(claimed.get(2), new Done(true));
    long available = enqueue(message(QUEUE));
    enqueue(keyed(null, LATER));
    enqueue(message(OTHER, null, 0, 3, LATER, null));
    DatabaseClock.awaitPast(store, stored(available).availableAt());

    List<QueueStats> stats = queues.stats();

    assertThat(stats).extracting(QueueStats::queue).containsExactly(OTHER, QUEUE);
    QueueStats billing = stats.get(0);
    assertThat(counts(billing)).containsExactly(1L, 0L, 0L, 0L);
    assertThat(billing.oldestPendingAge()).as("nothing available").isNull();
    QueueStats orders = stats.get(1);
    assertThat(counts(orders)).containsExactly(2L, 1L, 1L, 1L);
    assertThat(orders.oldestPendingAge()).isPositive().isLessThan(Duration.ofMinutes(1));
  }

  /** Stats may find the queues status by status (PostgreSQL and SQLite: one partial index each). */
  @Test
  void stats_list_a_queue_whatever_the_status_of_its_only_messages() {
    claimOneOf("only-inflight");
    resolveApplied(claimOneOf("only-dead"), new DeadLetter("poison"));
    resolveApplied(claimOneOf("only-done"), new Done(true));
    resolveApplied(claimOneOf("only-deleted"), new Done(false));

    List<QueueStats> stats = queues.stats();

    assertThat(stats)
        .extracting(QueueStats::queue)
        .containsExactly("only-dead", "only-done", "only-inflight");
    assertThat(stats.stream().map(QueueComplianceTest::counts).toList())
        .containsExactly(List.of(0L, 0L, 1L, 0L), List.of(0L, 0L, 0L, 1L), List.of(0L, 1L, 0L, 0L));
  }

  private QueueMessage claimOneOf(String queue) {
    long id = enqueue(message(queue));
    QueueMessage claimed = queues.claim(ClaimRequest.of(queue, a, 1, LEASE)).get(0);
    assertThat(claimed.id()).isEqualTo(id);
    return claimed;
  }

  /**
   * @return pending, in flight, dead, done
   */
  private static List<Long> counts(QueueStats stats) {
    return List.of(stats.pending(), stats.inflight(), stats.dead(), stats.done());
  }

  // ---- transactional outbox (SPEC §6.1)

  @Test
  void
      an_outbox_enqueue_follows_the_callers_transaction_and_a_store_without_transactions_refuses_it()
          throws SQLException {
    Optional<Connection> opened = fixture.openConnection();
    // Not an assumption: a skipped kit test fails CI, and a JDBC fixture that forgot openConnection
    // lands in the refusal branch, whose connection fails the test on first use.
    if (opened.isEmpty()) {
      assertThatThrownBy(() -> queues.enqueue(unusableConnection(), List.of(message(QUEUE))))
          .isInstanceOf(UnsupportedOperationException.class);
      assertThat(all(QUEUE)).isEmpty();
      return;
    }
    try (Connection transaction = opened.get()) {
      transaction.setAutoCommit(false);
      queues.enqueue(transaction, List.of(message(QUEUE)));
      assertThat(transaction.isClosed() || transaction.getAutoCommit())
          .as("left open, in its transaction")
          .isFalse();
      transaction.rollback();
      assertThat(all(QUEUE))
          .as("rolled back")
          .isEmpty(); // SQLite may hand the rolled-back id out again
      long committed = queues.enqueue(transaction, List.of(message(QUEUE))).get(0).id();
      transaction.commit();

      assertThat(all(QUEUE)).extracting(QueueMessage::id).containsExactly(committed);
      assertThat(claimOne().id()).isEqualTo(committed);
    }
  }

  // ---- wake-ups (SPEC §6.5)

  @Test
  void listeners_hear_committed_enqueues_and_a_rolled_back_outbox_notifies_nobody()
      throws Exception {
    List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
    Optional<AutoCloseable> subscription = queues.listen(heard::add);
    if (subscription.isEmpty()) {
      // This provider has no notifications (SQLite, MariaDB): its consumers poll. PostgreSQL and
      // the in-memory store must notify.
      assertThat(store.describe().provider()).isNotIn("postgresql", "memory");
      return;
    }
    try (AutoCloseable listening = subscription.get()) {
      // The subscription may connect in the background: probe until it hears.
      Await.until(
          Duration.ofSeconds(10),
          "the listener hears an enqueue",
          () -> {
            queues.enqueue(List.of(message("probe")));
            return heard.contains("probe");
          });
      Optional<Connection> opened = fixture.openConnection();
      if (opened.isPresent()) {
        try (Connection transaction = opened.get()) {
          transaction.setAutoCommit(false);
          queues.enqueue(transaction, List.of(message("rolled-back")));
          transaction.rollback();
        }
      }
      queues.enqueue(List.of(message("committed")));

      // Notifications arrive in commit order: once the later one is heard, an earlier one would be.
      Await.until(
          Duration.ofSeconds(10),
          "the committed enqueue is heard",
          () -> heard.contains("committed"));
      assertThat(heard).doesNotContain("rolled-back");
    }
  }

  private static Connection unusableConnection() {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              throw new AssertionError(
                  "the fixture gave no JDBC connection, so the store must refuse an outbox enqueue;"
                      + " a JDBC provider's fixture must implement StoreFixture.openConnection()");
            });
  }
}
