package io.tenure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.inmemory.InMemoryStore;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.EventStore;
import io.tenure.spi.LeaseStore;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.NewMessage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * Every duration a user or the runtime hands to Tenure is bounded by what every provider can store
 * and compute with ({@link Limits}): beyond the bound it is refused when it is given, naming the
 * setting, the value and the bound; the bound itself is accepted. Before, {@code
 * leaseTtl(P1000000000D)} was accepted and every elector tick then failed with {@code long
 * overflow}.
 */
class DurationBoundsTest {
  private static final InMemoryStore STORE = InMemoryStore.create();

  /** One duration setting: how to give it a value, its bound, and whether zero is a valid value. */
  record Setting(String name, Duration max, boolean zeroAllowed, Consumer<Duration> set) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static TenureNode.Builder node() {
    return TenureNode.builder(STORE);
  }

  private static final QueuePolicy POLICY = QueuePolicy.defaults();

  static List<Setting> settings() {
    Duration max = Limits.MAX_DURATION;
    Duration retention = Limits.MAX_RETENTION;
    return List.of(
        new Setting("heartbeatInterval", max, false, d -> node().heartbeatInterval(d)),
        new Setting("selfFenceAfter", max, false, d -> node().selfFenceAfter(d)),
        new Setting("staleAfter", max, false, d -> node().staleAfter(d)),
        new Setting("leaseTtl", max, false, d -> node().leaseTtl(d)),
        new Setting("renewInterval", max, false, d -> node().renewInterval(d)),
        new Setting("fenceAfter", max, false, d -> node().fenceAfter(d)),
        new Setting("acquireDelay", max, true, d -> node().acquireDelay(d)),
        new Setting("defunctAfter", max, false, d -> node().defunctAfter(d)),
        new Setting("event max age", retention, false, d -> node().eventRetention(10, d)),
        new Setting("agentSweepInterval", max, false, d -> node().agentSweepInterval(d)),
        new Setting(
            "agent start timeout", max, false, d -> node().agentTimeouts(d, Duration.ofSeconds(1))),
        new Setting(
            "agent stop timeout", max, false, d -> node().agentTimeouts(Duration.ofSeconds(1), d)),
        new Setting(
            "initialPlacementDelay quiet", max, true, d -> node().initialPlacementDelay(d, max)),
        new Setting(
            "initialPlacementDelay max",
            max,
            true,
            d -> node().initialPlacementDelay(Duration.ZERO, d)),
        new Setting("reclaim interval", max, false, d -> node().queueReclaim(d, 10)),
        new Setting("drain deadline", max, false, d -> node().drainDeadline(d)),
        new Setting("backoff base", max, false, d -> POLICY.withBackoff(d, 2, max, 0)),
        new Setting(
            "backoff cap", max, false, d -> POLICY.withBackoff(Duration.ofNanos(1), 2, d, 0)),
        new Setting("lease", max, false, d -> POLICY.withLease(d)),
        new Setting("done retention", retention, true, d -> POLICY.withRetention(d, Duration.ZERO)),
        new Setting(
            "dead-letter retention", retention, true, d -> POLICY.withRetention(Duration.ZERO, d)),
        new Setting("delay", max, true, d -> OutgoingMessage.text("x").delay(d)),
        // The SPI's own value types and checks: a store never sees a value beyond the bound either.
        new Setting(
            "delay",
            max,
            true,
            d -> new NewMessage("q", null, new byte[0], "text/plain", Map.of(), 0, 1, d, null)),
        new Setting("lease", max, false, d -> ClaimRequest.of("q", "n", 1, d)),
        new Setting("retry delay", max, true, d -> new io.tenure.spi.Resolution.Retry(d, "boom")),
        new Setting("reschedule delay", max, true, io.tenure.spi.Resolution.Reschedule::new),
        new Setting(
            "older than", retention, true, d -> new MessageQuery("q", null, null, null, d, 0, 1)),
        new Setting("a lease TTL", max, false, LeaseStore::checkTtl),
        new Setting("event max age", retention, false, d -> EventStore.checkTrim(1, d)),
        new Setting(
            "lease",
            max,
            false,
            d -> STORE.queues().extend(new io.tenure.spi.MessageClaim(1, "t"), d)));
  }

  @Provide
  Arbitrary<Setting> setting() {
    return Arbitraries.of(settings());
  }

  @Provide
  Arbitrary<Duration> beyond() {
    // Just past the larger bound, far past it, and up to the largest Duration there is.
    return Arbitraries.oneOf(
        Arbitraries.longs()
            .between(1, Long.MAX_VALUE)
            .map(nanos -> Limits.MAX_RETENTION.plusNanos(nanos)),
        Arbitraries.longs().between(1, Long.MAX_VALUE).map(Duration::ofSeconds),
        Arbitraries.just(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999)));
  }

  @Provide
  Arbitrary<Long> fraction() {
    return Arbitraries.longs().between(1, 1_000_000);
  }

  @Property(tries = 300)
  void every_setting_refuses_a_duration_beyond_its_bound_naming_the_setting_the_value_and_the_bound(
      @ForAll("setting") Setting setting, @ForAll("beyond") Duration tooLong) {
    Duration value = tooLong.compareTo(setting.max()) > 0 ? tooLong : setting.max().plusNanos(1);
    assertThatThrownBy(() -> setting.set().accept(value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            setting.name()
                + " must be at most "
                + setting.max().toDays()
                + " days ("
                + setting.max()
                + "), got "
                + value);
  }

  @Property(tries = 300)
  void every_setting_accepts_any_duration_up_to_its_bound(
      @ForAll("setting") Setting setting, @ForAll("fraction") long millionths) {
    Duration value = setting.max().dividedBy(1_000_000).multipliedBy(millionths);
    assertThatCode(() -> setting.set().accept(value)).doesNotThrowAnyException();
  }

  @Test
  void every_setting_accepts_its_bound_and_refuses_one_nanosecond_more() {
    for (Setting setting : settings()) {
      assertThatCode(() -> setting.set().accept(setting.max()))
          .as(setting.name())
          .doesNotThrowAnyException();
      assertThatThrownBy(() -> setting.set().accept(setting.max().plusNanos(1)))
          .as(setting.name())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("must be at most");
    }
  }

  @Test
  void every_setting_refuses_null_and_negative_and_zero_where_it_must_be_positive() {
    for (Setting setting : settings()) {
      if (!setting.name().equals("older than")) { // a query without it matches any age
        assertThatThrownBy(() -> setting.set().accept(null))
            .as(setting.name())
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith(setting.name());
      }
      assertThatThrownBy(() -> setting.set().accept(Duration.ofNanos(-1)))
          .as(setting.name())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith(setting.name());
      if (setting.zeroAllowed()) {
        assertThatCode(() -> setting.set().accept(Duration.ZERO))
            .as(setting.name())
            .doesNotThrowAnyException();
      } else {
        assertThatThrownBy(() -> setting.set().accept(Duration.ZERO))
            .as(setting.name())
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage(setting.name() + " must be positive, got PT0S");
      }
    }
  }

  @Test
  void the_lease_ttl_of_the_report_is_refused_when_it_is_set_not_on_every_elector_tick() {
    assertThatThrownBy(() -> node().leaseTtl(Duration.parse("P1000000000D")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "leaseTtl must be at most 365 days (PT8760H), got PT24000000000H (1000000000 days)");
  }

  @Test
  void a_node_with_its_lease_at_the_bound_builds_and_the_bounds_are_what_the_docs_say() {
    assertThat(Limits.MAX_DURATION).isEqualTo(Duration.ofDays(365));
    assertThat(Limits.MAX_RETENTION).isEqualTo(Duration.ofDays(3650));
    TenureNode node =
        node()
            .leaseTtl(Limits.MAX_DURATION)
            .fenceAfter(Limits.MAX_DURATION.minusSeconds(1))
            .staleAfter(Limits.MAX_DURATION)
            .selfFenceAfter(Limits.MAX_DURATION.minusSeconds(1))
            .eventRetention(10, Limits.MAX_RETENTION)
            .build();
    assertThat(node.settings().leaseTtl()).isEqualTo(Limits.MAX_DURATION);
  }
}
