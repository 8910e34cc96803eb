package io.tenure.internal;

import io.tenure.AgentSettings;
import io.tenure.CleanupSettings;
import io.tenure.HeartbeatSettings;
import io.tenure.LeadershipSettings;
import io.tenure.NodeSettings;
import io.tenure.QueueSettings;
import java.time.Duration;
import java.util.Set;

/**
 * The node settings the runtime's unit tests build by hand (they drive one part, not a whole node),
 * with each concern's usual test values; a test changes only the concern it is about.
 */
public final class TestSettings {
  /** Heartbeat every 500 ms, self-fence after 2 s, stale after 5 s. */
  public static final HeartbeatSettings HEARTBEAT =
      new HeartbeatSettings(Duration.ofMillis(500), Duration.ofSeconds(2), Duration.ofSeconds(5));

  /** A 5 s lease renewed every second, fenced after 4 s, promotable at once. */
  public static final LeadershipSettings LEADERSHIP =
      new LeadershipSettings(
          Duration.ofSeconds(5),
          Duration.ofSeconds(1),
          Duration.ofSeconds(4),
          Duration.ZERO,
          true,
          Duration.ZERO);

  public static final CleanupSettings CLEANUP =
      new CleanupSettings(Duration.ofMinutes(10), 50, 200, 100, Duration.ofDays(1));

  /** Sweep every second, caps 20 and 50, start and stop deadlines of 10 s, no quiet periods. */
  public static final AgentSettings AGENTS = agents(Duration.ofSeconds(10));

  private String name = "n";
  private Set<String> capabilities = Set.of();
  private HeartbeatSettings heartbeat = HEARTBEAT;
  private LeadershipSettings leadership = LEADERSHIP;
  private CleanupSettings cleanup = CLEANUP;
  private AgentSettings agents = AGENTS;

  private TestSettings() {}

  /** Settings named "n", no capabilities, every concern at its test value. */
  public static TestSettings node() {
    return new TestSettings();
  }

  /** The test agent settings with {@code startStop} as both the start and the stop deadline. */
  public static AgentSettings agents(Duration startStop) {
    return new AgentSettings(
        Duration.ofSeconds(1), 20, 50, startStop, startStop, Duration.ZERO, Duration.ZERO);
  }

  public TestSettings name(String name) {
    this.name = name;
    return this;
  }

  public TestSettings capabilities(String... capabilities) {
    this.capabilities = Set.of(capabilities);
    return this;
  }

  public TestSettings heartbeat(HeartbeatSettings heartbeat) {
    this.heartbeat = heartbeat;
    return this;
  }

  public TestSettings leadership(LeadershipSettings leadership) {
    this.leadership = leadership;
    return this;
  }

  public TestSettings cleanup(CleanupSettings cleanup) {
    this.cleanup = cleanup;
    return this;
  }

  public TestSettings agents(AgentSettings agents) {
    this.agents = agents;
    return this;
  }

  public NodeSettings build() {
    return new NodeSettings(
        name, "", capabilities, heartbeat, leadership, cleanup, agents, QueueSettings.DEFAULTS);
  }
}
