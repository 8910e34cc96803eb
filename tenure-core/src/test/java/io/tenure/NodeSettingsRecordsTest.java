package io.tenure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.inmemory.InMemoryStore;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The settings records check themselves as the builder does: a record built by hand cannot hold
 * what the builder refuses, and it refuses in the builder's words.
 */
class NodeSettingsRecordsTest {
  private static final Duration S1 = Duration.ofSeconds(1);
  private static final Duration S2 = Duration.ofSeconds(2);
  private static final Duration S3 = Duration.ofSeconds(3);

  @Test
  void a_heartbeat_record_refuses_a_broken_order_naming_both_values() {
    assertThatThrownBy(() -> new HeartbeatSettings(S3, S3, Duration.ofSeconds(5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("heartbeatInterval must be less than selfFenceAfter, got PT3S and PT3S");
    assertThatThrownBy(() -> new HeartbeatSettings(S1, S3, S2))
        .hasMessage("selfFenceAfter must be less than staleAfter, got PT3S and PT2S");
    assertThatThrownBy(() -> new HeartbeatSettings(Duration.ZERO, S2, S3))
        .hasMessage("heartbeatInterval must be positive, got PT0S");
  }

  @Test
  void a_leadership_record_counts_the_statement_timeout_against_the_trust_window() {
    assertThatThrownBy(
            () -> new LeadershipSettings(Duration.ofSeconds(5), S1, S3, S2, true, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "renewInterval + statementTimeout (PT1S + PT2S) must be less than fenceAfter, got PT3S"
                + " and PT3S");
    assertThatThrownBy(() -> new LeadershipSettings(S3, S1, S3, Duration.ZERO, true, Duration.ZERO))
        .hasMessage("fenceAfter must be less than leaseTtl, got PT3S and PT3S");
  }

  @Test
  void the_other_records_refuse_what_their_setters_refuse() {
    assertThatThrownBy(() -> new QueueSettings(S1, 0, S1))
        .hasMessage("reclaims per tick must be at least 1, got 0");
    assertThatThrownBy(() -> new CleanupSettings(S1, 10, 5, 1, S1))
        .hasMessageContaining("cleanup batch size must be 1 to 1000");
    assertThatThrownBy(() -> new AgentSettings(S1, 0, 0, S1, S1, S2, S1))
        .hasMessage(
            "initialPlacementDelay max must be at least its quiet period, got quiet PT2S and max"
                + " PT1S");
    NodeSettings defaults = TenureNode.builder(InMemoryStore.create()).build().settings();
    assertThatThrownBy(
            () ->
                new NodeSettings(
                    "n",
                    "",
                    Set.of("bad capability"),
                    defaults.heartbeat(),
                    defaults.leadership(),
                    defaults.cleanup(),
                    defaults.agents(),
                    defaults.queues()))
        .hasMessageContaining("capability must be 1 to 64");
  }

  @Test
  void the_builder_fills_each_record_and_the_flat_accessors_read_them() {
    NodeSettings settings =
        TenureNode.builder(InMemoryStore.create())
            .cleanup(10, 20)
            .agentCaps(3, 4)
            .queueReclaim(S2, 7)
            .drainDeadline(S3)
            .build()
            .settings();
    assertThat(settings.cleanup())
        .isEqualTo(
            new CleanupSettings(
                CleanupSettings.DEFAULT_DEFUNCT_AFTER,
                10,
                20,
                CleanupSettings.DEFAULT_EVENTS_TO_KEEP,
                CleanupSettings.DEFAULT_EVENT_MAX_AGE));
    assertThat(settings.maxMovesPerPass()).isEqualTo(3);
    assertThat(settings.agents().maxReconciliationsPerTick()).isEqualTo(4);
    assertThat(settings.queues()).isEqualTo(new QueueSettings(S2, 7, S3));
    assertThat(settings.heartbeatInterval()).isEqualTo(settings.heartbeat().interval());
  }

  @Test
  void an_agent_family_may_not_take_the_scheme_of_exclusive_queues_when_there_are_any() {
    InMemoryStore store = InMemoryStore.create();
    Queue queue = Queue.on(store.queues(), "ordered", QueuePolicy.defaults());
    AgentFamily squatter =
        AgentFamily.of(
            "queue",
            Set.of(),
            uri -> {
              throw new UnsupportedOperationException();
            });
    assertThat(TenureNode.builder(store).agentFamily(squatter).build().settings().capabilities())
        .contains("queue");
    assertThatThrownBy(
            () ->
                TenureNode.builder(store)
                    .agentFamily(squatter)
                    .exclusiveConsumer(queue, d -> {})
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "an agent family for scheme 'queue' is registered; it is reserved for exclusive queues");
    assertThat(
            TenureNode.builder(store)
                .exclusiveConsumer(queue, d -> {})
                .build()
                .settings()
                .capabilities())
        .contains("queue");
  }
}
