package io.tenure.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.NodeSettings;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.TenureNode;
import io.tenure.inmemory.InMemoryStore;
import io.tenure.internal.queue.ConsumerSpec;
import io.tenure.spi.StoreDescription;
import io.tenure.spi.TablePrefix;
import io.tenure.testing.CapturedLogs;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/** A node logs the configuration it runs with once, when it starts, with no secret in it. */
class EffectiveConfigurationTest {
  @Test
  void a_starting_node_logs_every_setting_once_at_info() {
    InMemoryStore store = InMemoryStore.create();
    Queue mail = Queue.on(store.queues(), "mail", QueuePolicy.defaults());
    TenureNode node =
        TenureNode.builder(store)
            .name("logged-config")
            .heartbeatInterval(Duration.ofMillis(700))
            .queueReclaim(Duration.ofSeconds(3), 42)
            .consumer(mail, 4, delivery -> {})
            .build();
    List<CapturedLogs.Line> lines;
    try (CapturedLogs.Recording recording = CapturedLogs.record()) {
      node.start();
      node.close();
      lines =
          recording.lines().stream()
              .filter(line -> line.message().startsWith("node logged-config ("))
              .filter(line -> line.message().contains(" starts: "))
              .toList();
    }
    assertThat(lines).hasSize(1);
    CapturedLogs.Line line = lines.get(0);
    assertThat(line.level()).isEqualTo(Level.INFO);
    assertThat(line.logger()).isEqualTo(DefaultTenureNode.class.getName());
    assertThat(line.message())
        .contains("node logged-config (" + node.nodeId() + ") starts: store memory ")
        .contains("heartbeat [interval=PT0.7S, selfFenceAfter=PT3S, staleAfter=PT5S]")
        .contains("leadership [leaseTtl=PT5S, renewInterval=PT1S, fenceAfter=PT4S")
        .contains("cleanup [defunctAfter=PT10M")
        .contains("agents [sweepInterval=PT1S")
        .contains(
            "queues [reclaimInterval=PT3S, reclaimPerTick=42, drainDeadline=PT10S,"
                + " pollMin=PT0.02S, pollMax=PT1S, wakeups=true, wakeHost=127.0.0.1]")
        .containsPattern("capabilities \\[wake:udp:127\\.0\\.0\\.1:[0-9]+\\]")
        .contains("consumers [mail x4]");
  }

  @Test
  void the_store_location_is_masked_even_if_the_provider_left_a_password_in_it() {
    InMemoryStore store = InMemoryStore.create();
    NodeSettings settings = TenureNode.builder(store).name("masked").build().settings();
    StoreDescription leaky =
        new StoreDescription(
            "postgresql",
            "PostgreSQL 17",
            "postgresql://app:hunter2@db:5432/app?password=hunter2&ssl=true",
            new TablePrefix("t_"),
            1,
            "microseconds",
            Duration.ofSeconds(2));
    Queue queue = Queue.on(store.queues(), "bulk", QueuePolicy.defaults());
    String line =
        EffectiveConfiguration.describe(
            settings, leaky, List.of(new ConsumerSpec(queue, 2, 50, deliveries -> {})));
    assertThat(line)
        .doesNotContain("hunter2")
        .contains("store postgresql postgresql://app:***@db:5432/app?password=***&ssl=true")
        .contains("consumers [bulk x2 batch 50]");
  }
}
