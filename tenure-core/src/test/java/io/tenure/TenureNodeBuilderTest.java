package io.tenure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.inmemory.InMemoryStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Bad settings are refused at once, naming the values, and nothing is written. */
class TenureNodeBuilderTest {
  private final InMemoryStore store = InMemoryStore.create();

  private TenureNodeBuilder builder() {
    return TenureNode.builder(store);
  }

  @Test
  void the_defaults_are_consistent_and_named() {
    NodeSettings settings = builder().build().settings();
    assertThat(settings.heartbeatInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(settings.staleAfter()).isEqualTo(Duration.ofSeconds(5));
    assertThat(settings.leaseTtl()).isEqualTo(Duration.ofSeconds(5));
    assertThat(settings.renewInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(settings.heartbeatInterval()).isLessThan(settings.selfFenceAfter());
    assertThat(settings.selfFenceAfter()).isLessThan(settings.staleAfter());
    assertThat(settings.fenceAfter()).isLessThan(settings.leaseTtl());
  }

  @Test
  void zero_and_negative_durations_are_refused_naming_the_setting() {
    assertThatThrownBy(() -> builder().heartbeatInterval(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("heartbeatInterval must be positive, got PT0S");
    assertThatThrownBy(() -> builder().leaseTtl(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("leaseTtl")
        .hasMessageContaining("PT-1S");
    assertThatThrownBy(() -> builder().renewInterval(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("renewInterval");
    assertThatThrownBy(() -> builder().acquireDelay(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("acquireDelay");
  }

  @Test
  void
      the_initial_placement_delay_defaults_to_500_ms_quiet_within_5_s_and_bad_values_are_refused_naming_it() {
    NodeSettings settings = builder().build().settings();
    assertThat(settings.initialPlacementQuiet()).isEqualTo(Duration.ofMillis(500));
    assertThat(settings.initialPlacementMaxDelay()).isEqualTo(Duration.ofSeconds(5));
    assertThat(
            builder()
                .initialPlacementDelay(Duration.ZERO, Duration.ZERO)
                .build()
                .settings()
                .initialPlacementQuiet())
        .isZero();

    assertThatThrownBy(
            () -> builder().initialPlacementDelay(Duration.ofMillis(-1), Duration.ofSeconds(5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("initialPlacementDelay quiet must not be null or negative, got PT-0.001S");
    assertThatThrownBy(() -> builder().initialPlacementDelay(Duration.ofSeconds(1), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("initialPlacementDelay");
    assertThatThrownBy(
            () -> builder().initialPlacementDelay(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "initialPlacementDelay max must be at least its quiet period, got quiet PT2S and max PT1S");
  }

  @Test
  void heartbeat_self_fence_and_staleness_must_increase_and_the_message_names_both_values() {
    assertThatThrownBy(() -> builder().heartbeatInterval(Duration.ofSeconds(3)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("heartbeatInterval must be less than selfFenceAfter, got PT3S and PT3S");
    assertThatThrownBy(() -> builder().selfFenceAfter(Duration.ofSeconds(6)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("selfFenceAfter must be less than staleAfter, got PT6S and PT5S");
  }

  @Test
  void renew_plus_statement_timeout_must_be_below_fence_after_which_must_be_below_the_ttl() {
    assertThatThrownBy(() -> builder().renewInterval(Duration.ofSeconds(4)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "renewInterval + statementTimeout (PT4S + PT0S) must be less than fenceAfter")
        .hasMessageContaining("PT4S and PT4S");
    assertThatThrownBy(() -> builder().fenceAfter(Duration.ofSeconds(5)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fenceAfter must be less than leaseTtl, got PT5S and PT5S");
  }

  @Test
  void names_capabilities_and_addresses_are_checked() {
    assertThatThrownBy(() -> builder().capability("orders projection"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'orders projection'");
    assertThatThrownBy(() -> builder().capability("a,b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("commas");
    assertThatThrownBy(() -> builder().name("api 1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'api 1'");
    assertThatThrownBy(() -> builder().name("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> builder().address("http://a b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("whitespace");
    assertThatThrownBy(() -> builder().cleanup(0, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("got 0 and 10");
  }

  @Test
  void a_refused_node_writes_nothing() {
    assertThatThrownBy(() -> builder().fenceAfter(Duration.ofSeconds(9)).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(store.membership().read().version()).isZero();
    assertThat(store.membership().read().nodes()).isEmpty();
  }
}
