package io.tenure.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.DurationHistogram;
import io.tenure.Limits;
import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * What the consumer's histograms measure: a handler call on the injected ticker, and a claimed
 * message's wait from its available time to the claim on the database clock (the claim's time is
 * its lease's end less the lease, SPI rule Q10).
 */
class ConsumerTimingsTest {
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final Instant T = Instant.parse("2030-01-01T00:00:00Z");

  private final AtomicLong now = new AtomicLong(1_000);
  private final ConsumerTimings timings = new ConsumerTimings(now::get, LEASE);

  @Test
  void the_pickup_runs_from_the_available_time_to_the_claims_database_time() {
    QueueMessage claimed = message(T, T.plusSeconds(40).plus(LEASE));

    assertThat(ConsumerTimings.pickupNanos(claimed, LEASE))
        .hasValue(Duration.ofSeconds(40).toNanos());
    assertThat(ConsumerTimings.pickupNanos(message(T, T.plus(LEASE)), LEASE))
        .as("claimed the moment it became available")
        .hasValue(0);
  }

  @Test
  void a_claim_time_before_the_available_time_counts_as_zero_and_a_huge_wait_as_the_retention() {
    assertThat(ConsumerTimings.pickupNanos(message(T, T.plus(LEASE).minusNanos(1_000)), LEASE))
        .hasValue(0);
    Instant ancient = T.minus(Limits.MAX_RETENTION).minusSeconds(1);
    assertThat(ConsumerTimings.pickupNanos(message(ancient, T.plus(LEASE)), LEASE))
        .hasValue(Limits.MAX_RETENTION.toNanos());
    Instant justInside = T.minus(Limits.MAX_RETENTION);
    assertThat(ConsumerTimings.pickupNanos(message(justInside, T.plus(LEASE)), LEASE))
        .hasValue(Limits.MAX_RETENTION.toNanos());
  }

  @Test
  void a_message_without_a_lease_is_not_a_claim_and_is_not_counted() {
    assertThat(ConsumerTimings.pickupNanos(message(T, null), LEASE))
        .isEqualTo(OptionalLong.empty());

    timings.claimed(List.of(message(T, null)));

    assertThat(timings.pickupLatency().count()).isZero();
  }

  @Test
  void each_message_of_a_claim_counts_its_own_wait() {
    timings.claimed(
        List.of(
            message(T, T.plusMillis(20).plus(LEASE)), message(T, T.plusSeconds(90).plus(LEASE))));

    DurationHistogram pickup = timings.pickupLatency();

    assertThat(pickup.count()).isEqualTo(2);
    assertThat(pickup.sum()).isEqualTo(Duration.ofMillis(90_020));
    assertThat(countAtMost(pickup, Duration.ofMillis(25))).isEqualTo(1);
    assertThat(countAtMost(pickup, Duration.ofMinutes(1))).isEqualTo(1);
    assertThat(countAtMost(pickup, Duration.ofMinutes(2))).isEqualTo(2);
    assertThat(timings.handlerDuration().count()).as("no handler ran").isZero();
  }

  @Test
  void a_handler_call_counts_from_its_start_to_its_return_on_the_ticker() {
    long started = timings.handlerStarts();
    now.addAndGet(Duration.ofMillis(300).toNanos());
    timings.handlerReturned(started);
    long again = timings.handlerStarts();
    now.addAndGet(Duration.ofSeconds(2).toNanos());
    timings.handlerReturned(again);

    DurationHistogram handler = timings.handlerDuration();

    assertThat(started).isEqualTo(1_000);
    assertThat(handler.count()).isEqualTo(2);
    assertThat(handler.sum()).isEqualTo(Duration.ofMillis(2_300));
    assertThat(countAtMost(handler, Duration.ofMillis(250))).isZero();
    assertThat(countAtMost(handler, Duration.ofMillis(500))).isEqualTo(1);
    assertThat(countAtMost(handler, Duration.ofMillis(2_500))).isEqualTo(2);
    assertThat(timings.pickupLatency().count()).as("nothing claimed").isZero();
  }

  static long countAtMost(DurationHistogram histogram, Duration bound) {
    return histogram.counts().get(histogram.bounds().indexOf(bound));
  }

  private static QueueMessage message(Instant availableAt, @Nullable Instant leaseUntil) {
    return new QueueMessage(
        7,
        "jobs",
        null,
        new byte[0],
        "text/plain",
        Map.of(),
        0,
        1,
        10,
        availableAt,
        leaseUntil == null ? MessageStatus.PENDING : MessageStatus.INFLIGHT,
        leaseUntil == null ? null : "node-1",
        leaseUntil == null ? null : "token",
        leaseUntil,
        null,
        T.minusSeconds(3600),
        null,
        null,
        null);
  }
}
