package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.MessageStatus;
import io.tenure.QueueControl;
import io.tenure.QueueLimits;
import io.tenure.QueueMessage;
import io.tenure.RateLimit;
import io.tenure.spi.AgentGuard;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.NewMessage;
import io.tenure.spi.QueueControlStore;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Resolution.Done;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC §12.1 and §12.2, rules C1 to C7 of {@link QueueControlStore}: pause, cluster-wide limits on
 * messages in flight per queue and per group, and rates, applied inside every claim.
 */
public abstract class QueueControlComplianceTest extends QueueKit {
  QueueControlStore controls;

  @BeforeEach
  void openControls() {
    controls = queues.controls();
  }

  static NewMessage grouped(@Nullable String group) {
    return message(QUEUE).withGroup(group);
  }

  List<Long> enqueueGrouped(int count, @Nullable String group) {
    List<Long> ids = new ArrayList<>();
    for (int from = 0; from < count; from += QueueStore.MAX_BATCH) {
      int n = Math.min(QueueStore.MAX_BATCH, count - from);
      queues.enqueue(Collections.nCopies(n, grouped(group))).forEach(r -> ids.add(r.id()));
    }
    return ids;
  }

  static Map<String, Long> byGroup(List<QueueMessage> messages) {
    return messages.stream()
        .collect(
            Collectors.groupingBy(m -> m.group() == null ? "-" : m.group(), Collectors.counting()));
  }

  // ---- C7: reads

  @Test
  void a_queue_never_controlled_reads_as_free_and_reading_creates_nothing() {
    QueueControl control = controls.read(QUEUE);

    assertThat(control.paused()).isFalse();
    assertThat(control.limits()).isEqualTo(QueueLimits.none());
    assertThat(control.inFlight()).isZero();
    assertThat(control.updatedAt()).isNull();
    assertThat(controls.list()).isEmpty();
    assertThat(controls.pause(QUEUE, false)).as("resuming a queue never paused").isFalse();
    assertThat(controls.list()).as("nothing written").isEmpty();
  }

  @Test
  void a_message_group_round_trips_through_enqueue_claim_and_find() {
    long id = enqueue(grouped("tenant-7"));

    assertThat(stored(id).group()).isEqualTo("tenant-7");
    assertThat(claimOne().group()).isEqualTo("tenant-7");
    assertThat(enqueue(grouped(null))).isPositive();
    assertThat(claimOne().group()).isNull();
  }

  // ---- C1: pause

  @Test
  void a_paused_queue_claims_nothing_and_its_claimed_messages_still_finish() {
    List<Long> ids = enqueueMany(3, null);
    QueueMessage running = claimOne();

    assertThat(controls.pause(QUEUE, true)).isTrue();
    assertThat(controls.pause(QUEUE, true)).as("already paused").isFalse();
    assertThat(claim(10)).isEmpty();
    assertThat(controls.read(QUEUE).paused()).isTrue();
    resolveApplied(running, new Done(false));

    assertThat(controls.pause(QUEUE, false)).isTrue();
    assertThat(claimedIds(10)).containsExactlyElementsOf(ids.subList(1, 3));
  }

  @Test
  void a_pause_is_seen_by_another_store_of_the_same_database() {
    TablePrefix prefix = freshPrefix();
    Store first = fixture.open(prefix);
    Store second = fixture.open(prefix);
    first.queues().enqueue(List.of(message(QUEUE), message(QUEUE)));

    assertThat(second.queues().controls().pause(QUEUE, true)).isTrue();
    assertThat(first.queues().claim(ClaimRequest.of(QUEUE, a, 10, LEASE))).isEmpty();
    assertThat(first.queues().controls().read(QUEUE).paused()).isTrue();

    assertThat(second.queues().controls().pause(QUEUE, false)).isTrue();
    assertThat(first.queues().claim(ClaimRequest.of(QUEUE, a, 10, LEASE))).hasSize(2);
  }

  // ---- C2: in flight per queue

  @Test
  void a_claim_takes_only_what_the_in_flight_limit_leaves() {
    enqueueMany(10, null);
    controls.limit(QUEUE, QueueLimits.none().withMaxInFlight(3));

    assertThat(claim(2)).hasSize(2);
    List<QueueMessage> third = claim(10);
    assertThat(third).hasSize(1);
    assertThat(claim(10)).isEmpty();
    assertThat(controls.read(QUEUE).inFlight()).isEqualTo(3);

    resolveApplied(third.get(0), new Done(false));
    assertThat(claim(10)).hasSize(1);

    controls.limit(QUEUE, QueueLimits.none().withMaxInFlight(1));
    QueueMessage oneDone = claimOneInFlight();
    resolveApplied(oneDone, new Done(false));
    assertThat(claim(10)).as("2 still in flight over a limit of 1").isEmpty();

    controls.limit(QUEUE, QueueLimits.none());
    assertThat(claim(10)).as("limit lifted").hasSize(6);
  }

  private QueueMessage claimOneInFlight() {
    return all(QUEUE).stream()
        .filter(m -> m.status() == MessageStatus.INFLIGHT)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void eight_claimers_racing_never_exceed_the_in_flight_limit() {
    enqueueMany(200, null);
    controls.limit(QUEUE, QueueLimits.none().withMaxInFlight(5));
    List<Callable<List<QueueMessage>>> claimers = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String node = "claimer-" + i;
      claimers.add(() -> drain(node, 3));
    }

    List<List<QueueMessage>> results = Race.run(claimers);

    assertThat(results.stream().mapToInt(List::size).sum()).isEqualTo(5);
    assertThat(all(QUEUE)).filteredOn(m -> m.status() == MessageStatus.INFLIGHT).hasSize(5);
  }

  @Test
  void claimers_that_claim_and_finish_at_once_never_hold_more_than_the_limit() {
    enqueueMany(120, null);
    controls.limit(QUEUE, QueueLimits.none().withMaxInFlight(3));
    AtomicInteger held = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    AtomicInteger finished = new AtomicInteger();
    List<Callable<Integer>> workers = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      String node = "worker-" + i;
      workers.add(
          () -> {
            int done = 0;
            while (finished.get() < 120) { // Race's timeout bounds a hang
              List<QueueMessage> batch = claim(node, 2, LEASE);
              if (batch.isEmpty()) {
                Thread.yield();
                continue;
              }
              // Counted after the claim committed and uncounted before the resolve commits: the
              // count never exceeds what is really in flight.
              most.accumulateAndGet(held.addAndGet(batch.size()), Math::max);
              held.addAndGet(-batch.size());
              for (QueueMessage m : batch) {
                resolveApplied(m, new Done(false));
                done++;
                finished.incrementAndGet();
              }
            }
            return done;
          });
    }

    int done = Race.run(workers).stream().mapToInt(Integer::intValue).sum();

    assertThat(most.get()).isLessThanOrEqualTo(3);
    assertThat(done).isEqualTo(120);
  }

  private List<QueueMessage> drain(String node, int max) {
    List<QueueMessage> taken = new ArrayList<>();
    for (List<QueueMessage> batch = claim(node, max, LEASE);
        !batch.isEmpty();
        batch = claim(node, max, LEASE)) {
      taken.addAll(batch);
    }
    return taken;
  }

  // ---- C3: in flight per group

  @Test
  void a_full_group_is_passed_over_and_the_groups_behind_it_are_claimed() {
    List<Long> busy = enqueueGrouped(1200, "busy");
    long quiet = enqueue(grouped("quiet"));
    long loose = enqueue(grouped(null));
    controls.limit(QUEUE, QueueLimits.none().withMaxInFlightPerGroup(1));

    List<QueueMessage> first = claim(10);

    assertThat(first).extracting(QueueMessage::id).containsExactly(busy.get(0), quiet, loose);
    assertThat(claim(10)).as("each group at its limit; the ungrouped one taken").isEmpty();
    assertThat(all(QUEUE))
        .filteredOn(m -> m.status() == MessageStatus.PENDING)
        .as("what a claim gave back is pending with no attempt charged")
        .allSatisfy(m -> assertPendingUnclaimed(m, 0));
    assertThat(controls.read(QUEUE).groupsInFlight()).containsEntry("busy", 1);

    resolveApplied(first.get(0), new Done(false));
    assertThat(claimedIds(10)).containsExactly(busy.get(1));
  }

  @Test
  void eight_claimers_racing_never_exceed_a_group_limit() {
    List<NewMessage> batch = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      batch.add(grouped("g" + (i % 4)));
    }
    queues.enqueue(batch);
    controls.limit(QUEUE, QueueLimits.none().withMaxInFlightPerGroup(2));
    List<Callable<List<QueueMessage>>> claimers = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String node = "claimer-" + i;
      claimers.add(() -> drain(node, 3));
    }

    List<QueueMessage> claimed = Race.run(claimers).stream().flatMap(List::stream).toList();

    assertThat(byGroup(claimed))
        .containsExactlyInAnyOrderEntriesOf(Map.of("g0", 2L, "g1", 2L, "g2", 2L, "g3", 2L));
  }

  @Test
  void a_strict_queue_stops_at_the_first_message_its_group_limit_refuses() {
    AgentGuard guard = ownExclusiveQueue(a);
    long first = enqueue(grouped("x"));
    enqueue(grouped("x"));
    enqueue(grouped("y"));
    controls.limit(QUEUE, QueueLimits.none().withMaxInFlightPerGroup(1));

    assertThat(claimStrict(guard, 3)).extracting(QueueMessage::id).containsExactly(first);
    assertThat(all(QUEUE))
        .filteredOn(m -> m.status() == MessageStatus.PENDING)
        .allSatisfy(m -> assertPendingUnclaimed(m, 0))
        .hasSize(2);
  }

  // ---- C4: rate

  @Test
  void a_rate_limit_admits_its_count_per_period_and_then_nothing_until_the_period_passes() {
    enqueueMany(10, null);
    controls.limit(QUEUE, QueueLimits.none().withRate(RateLimit.of(3, Duration.ofHours(1))));

    assertThat(claim(2)).hasSize(2);
    assertThat(claim(10)).hasSize(1);
    assertThat(claim(10)).isEmpty();
    assertThat(controls.read(QUEUE).claimsInWindow()).isEqualTo(3);
  }

  /**
   * The window slides on the database clock: once a claim's period has passed, it counts no more.
   */
  @Test
  void claims_older_than_the_rate_period_no_longer_count() {
    enqueueMany(10, null);
    Duration per = Duration.ofMillis(500);
    controls.limit(QUEUE, QueueLimits.none().withRate(RateLimit.of(3, per)));

    assertThat(claim(10)).hasSize(3);
    DatabaseClock.awaitPast(store, store.now().plus(per));

    assertThat(claim(10)).hasSize(3);
  }

  @Test
  void a_per_group_rate_limits_each_group_apart() {
    enqueueGrouped(5, "a");
    enqueueGrouped(5, "b");
    enqueueGrouped(3, null);
    controls.limit(QUEUE, QueueLimits.none().withRate(RateLimit.perGroup(2, Duration.ofHours(1))));

    List<QueueMessage> claimed = claim(20);

    assertThat(byGroup(claimed))
        .containsExactlyInAnyOrderEntriesOf(Map.of("a", 2L, "b", 2L, "-", 2L));
    assertThat(claim(20)).isEmpty();
  }

  // ---- C5, C6

  @Test
  void limits_keep_the_key_order_and_the_priority_order() {
    long head = enqueue(keyed("k", Duration.ZERO));
    long second = enqueue(keyed("k", Duration.ZERO));
    long high = enqueue(message(QUEUE, null, 9, 3, Duration.ZERO, null));
    long low = enqueue(message(QUEUE, null, 0, 3, Duration.ZERO, null));
    controls.limit(QUEUE, QueueLimits.none().withMaxInFlight(2));

    List<QueueMessage> first = claim(10);
    assertThat(first).extracting(QueueMessage::id).containsExactly(high, head);
    first.forEach(m -> resolveApplied(m, new Done(false)));

    assertThat(claimedIds(10)).containsExactly(second, low);
  }

  @Test
  void setting_limits_or_a_pause_changes_no_message_and_no_other_queue() {
    enqueueMany(3, null);
    claimOne();
    long other = enqueue(message(OTHER));
    List<QueueMessage> before = all(QUEUE);

    controls.limit(QUEUE, QueueLimits.none().withMaxInFlight(1).withMaxInFlightPerGroup(1));
    controls.pause(QUEUE, true);

    assertThat(all(QUEUE)).containsExactlyElementsOf(before);
    assertThat(queues.claim(ClaimRequest.of(OTHER, a, 10, LEASE)))
        .extracting(QueueMessage::id)
        .containsExactly(other);
    assertThat(controls.list()).extracting(QueueControl::queue).containsExactly(QUEUE);
    QueueControl control = controls.read(QUEUE);
    assertThat(control.paused()).isTrue();
    assertThat(control.limits())
        .isEqualTo(QueueLimits.none().withMaxInFlight(1).withMaxInFlightPerGroup(1));
    assertThat(control.updatedAt()).isNotNull();
  }

  @Test
  void limits_survive_a_pause_and_a_pause_survives_new_limits() {
    controls.limit(QUEUE, QueueLimits.none().withMaxInFlight(4));
    controls.pause(QUEUE, true);
    controls.limit(
        QUEUE,
        QueueLimits.none().withMaxInFlight(5).withRate(RateLimit.of(7, Duration.ofMinutes(1))));

    QueueControl control = controls.read(QUEUE);
    assertThat(control.paused()).isTrue();
    assertThat(control.limits().maxInFlight()).isEqualTo(5);
    assertThat(control.limits().rate()).isEqualTo(RateLimit.of(7, Duration.ofMinutes(1)));

    controls.pause(QUEUE, false);
    assertThat(controls.read(QUEUE).limits().maxInFlight()).isEqualTo(5);
  }
}
