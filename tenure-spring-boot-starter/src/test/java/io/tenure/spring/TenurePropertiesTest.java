package io.tenure.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.AgentSettings;
import io.tenure.CleanupSettings;
import io.tenure.HeartbeatSettings;
import io.tenure.LeadershipSettings;
import io.tenure.OnTimeout;
import io.tenure.QueuePolicy;
import io.tenure.QueueSettings;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

/** The properties' defaults are the builder's, and refusals speak in the properties' names. */
class TenurePropertiesTest {
  @Test
  void the_node_and_consumer_defaults_are_the_builders_defaults() {
    TenureNodeProperties node = new TenureNodeProperties();
    assertThat(node.getHeartbeatInterval()).isEqualTo(HeartbeatSettings.DEFAULT_INTERVAL);
    assertThat(node.getSelfFenceAfter()).isEqualTo(HeartbeatSettings.DEFAULT_SELF_FENCE_AFTER);
    assertThat(node.getStaleAfter()).isEqualTo(HeartbeatSettings.DEFAULT_STALE_AFTER);
    assertThat(node.getLeaseTtl()).isEqualTo(LeadershipSettings.DEFAULT_LEASE_TTL);
    assertThat(node.getRenewInterval()).isEqualTo(LeadershipSettings.DEFAULT_RENEW_INTERVAL);
    assertThat(node.getFenceAfter()).isEqualTo(LeadershipSettings.DEFAULT_FENCE_AFTER);
    assertThat(node.getDefunctAfter()).isEqualTo(CleanupSettings.DEFAULT_DEFUNCT_AFTER);
    assertThat(node.getCleanupBatchSize()).isEqualTo(CleanupSettings.DEFAULT_BATCH_SIZE);
    assertThat(node.getCleanupMaxPerTick()).isEqualTo(CleanupSettings.DEFAULT_MAX_PER_TICK);
    assertThat(node.getEventsToKeep()).isEqualTo(CleanupSettings.DEFAULT_EVENTS_TO_KEEP);
    assertThat(node.getEventMaxAge()).isEqualTo(CleanupSettings.DEFAULT_EVENT_MAX_AGE);
    assertThat(node.getAgentSweepInterval()).isEqualTo(AgentSettings.DEFAULT_SWEEP_INTERVAL);
    assertThat(node.getMaxMovesPerPass()).isEqualTo(AgentSettings.DEFAULT_MAX_MOVES_PER_PASS);
    assertThat(node.getMaxReconciliationsPerTick())
        .isEqualTo(AgentSettings.DEFAULT_MAX_RECONCILIATIONS_PER_TICK);
    assertThat(node.getAgentStartTimeout()).isEqualTo(AgentSettings.DEFAULT_START_TIMEOUT);
    assertThat(node.getAgentStopTimeout()).isEqualTo(AgentSettings.DEFAULT_STOP_TIMEOUT);
    assertThat(node.getInitialPlacementQuiet())
        .isEqualTo(AgentSettings.DEFAULT_INITIAL_PLACEMENT_QUIET);
    assertThat(node.getInitialPlacementMaxDelay())
        .isEqualTo(AgentSettings.DEFAULT_INITIAL_PLACEMENT_MAX_DELAY);
    TenureConsumerProperties consumer = new TenureConsumerProperties();
    assertThat(consumer.getReclaimInterval()).isEqualTo(QueueSettings.DEFAULT_RECLAIM_INTERVAL);
    assertThat(consumer.getReclaimPerTick()).isEqualTo(QueueSettings.DEFAULT_RECLAIM_PER_TICK);
    assertThat(consumer.getDrainDeadline()).isEqualTo(QueueSettings.DEFAULT_DRAIN_DEADLINE);
    assertThat(consumer.getPollMin()).isEqualTo(QueueSettings.DEFAULT_POLL_MIN);
    assertThat(consumer.getPollMax()).isEqualTo(QueueSettings.DEFAULT_POLL_MAX);
    assertThat(consumer.isWakeups()).isTrue();
    assertThat(consumer.getWakeHost()).isEqualTo(QueueSettings.DEFAULT_WAKE_HOST);
  }

  @Test
  void a_queues_properties_change_only_what_they_set_and_a_bad_policy_names_the_queue() {
    TenureQueueProperties queue = new TenureQueueProperties();
    assertThat(queue.policy("emails")).isEqualTo(QueuePolicy.defaults());
    queue.setMaxAttempts(3);
    queue.setBackoffCap(Duration.ofMinutes(1));
    queue.setPayloadLimit(DataSize.ofKilobytes(64));
    queue.setTimeout(Duration.ofSeconds(30));
    queue.setOnTimeout(OnTimeout.DEAD_LETTER);
    QueuePolicy policy = queue.policy("emails");
    assertThat(policy.maxAttempts()).isEqualTo(3);
    assertThat(policy.backoffCap()).isEqualTo(Duration.ofMinutes(1));
    assertThat(policy.backoffBase()).isEqualTo(QueuePolicy.defaults().backoffBase());
    assertThat(policy.payloadLimit()).isEqualTo(64 * 1024);
    assertThat(policy.timeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(policy.onTimeout()).isEqualTo(OnTimeout.DEAD_LETTER);
    queue.setBackoffBase(Duration.ofMinutes(5));
    assertThatThrownBy(() -> queue.policy("emails"))
        .hasMessageStartingWith("tenure.queues.emails: backoff cap must not be shorter");
  }

  @Test
  void a_setter_refuses_a_value_out_of_range_naming_the_property() {
    assertThatThrownBy(() -> new TenureNodeProperties().setStaleAfter(Duration.ZERO))
        .hasMessageStartingWith("tenure.node.stale-after must be positive");
    assertThatThrownBy(() -> new TenureConsumerProperties().setConcurrency(1001))
        .hasMessage("tenure.consumer.concurrency must be 1 to 1000, got 1001");
    assertThatThrownBy(() -> new TenureProperties().setPoolSize(0))
        .hasMessage("tenure.pool-size must be 1 to 200, got 0");
    assertThatThrownBy(() -> new TenureAdminProperties().setPort(70_000))
        .hasMessage("tenure.admin.port must be 0 to 65535, got 70000");
  }

  @Test
  void the_builders_words_become_the_properties_names() {
    assertThat(
            NodeConfigurer.inPropertyTerms(
                "renewInterval + statementTimeout (PT1S + PT1S) must be less than fenceAfter, got"
                    + " PT2S and PT2S"))
        .isEqualTo(
            "tenure.node.renew-interval + the store's statement timeout (PT1S + PT1S) must be less"
                + " than tenure.node.fence-after, got PT2S and PT2S");
    assertThat(NodeConfigurer.inPropertyTerms("selfFenceAfter must be less than staleAfter"))
        .isEqualTo("tenure.node.self-fence-after must be less than tenure.node.stale-after");
    assertThat(NodeConfigurer.inPropertyTerms("drain deadline must be positive, got PT0S"))
        .isEqualTo("tenure.consumer.drain-deadline must be positive, got PT0S");
  }

  /**
   * Every property the metadata lists is in docs/SPRING.md's table (by its full name, or by its
   * last part in a row that groups several), and none is a switch that could turn a guard off.
   */
  @Test
  void every_property_is_documented_and_none_turns_a_guard_off() throws Exception {
    String json;
    try (InputStream in =
        getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    java.nio.file.Path dir = java.nio.file.Path.of("").toAbsolutePath();
    while (!java.nio.file.Files.exists(dir.resolve("docs/SPRING.md"))) {
      dir = dir.getParent();
    }
    String docs = java.nio.file.Files.readString(dir.resolve("docs/SPRING.md"));
    // The "properties" array only; "groups" lists tenure.admin, tenure.node and the like.
    String section = json.substring(json.indexOf("\"properties\""));
    java.util.regex.Matcher names =
        java.util.regex.Pattern.compile("\"name\": \"(tenure\\.[a-z.-]+)\"").matcher(section);
    java.util.List<String> properties = new java.util.ArrayList<>();
    while (names.find()) {
      properties.add(names.group(1));
    }
    // A map's values are not in the metadata: each queue property by its setter.
    assertThat(properties.remove("tenure.queues")).isTrue();
    for (java.lang.reflect.Method setter : TenureQueueProperties.class.getDeclaredMethods()) {
      if (setter.getName().startsWith("set")) {
        String field = setter.getName().substring(3);
        properties.add(
            "tenure.queues.NAME."
                + (Character.toLowerCase(field.charAt(0)) + field.substring(1))
                    .replaceAll("([A-Z])", "-$1")
                    .toLowerCase(java.util.Locale.ROOT));
      }
    }
    assertThat(properties).hasSizeGreaterThan(30);
    for (String property : properties) {
      String last = property.substring(property.lastIndexOf('.') + 1);
      assertThat(docs.contains("`" + property + "`") || docs.contains("`" + last + "`"))
          .as("%s is documented in docs/SPRING.md", property)
          .isTrue();
      assertThat(property).doesNotContain("unsafe").doesNotContain("skip");
    }
  }

  /** The processor must run (JDK 23+ runs none it is not named): IDEs complete from this file. */
  @Test
  void the_configuration_metadata_is_generated_with_the_defaults() throws Exception {
    try (InputStream in =
        getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("spring-configuration-metadata.json on the class path").isNotNull();
      String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(json)
          .contains("\"name\": \"tenure.node.heartbeat-interval\"")
          .contains("\"name\": \"tenure.consumer.drain-deadline\"")
          .contains("\"name\": \"tenure.consumer.wake-host\"")
          .contains("\"name\": \"tenure.consumer.poll-max\"")
          .contains("\"name\": \"tenure.admin.port\"")
          .contains("\"defaultValue\": \"1s\"");
    }
  }
}
