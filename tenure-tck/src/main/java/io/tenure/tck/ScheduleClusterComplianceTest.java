package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.MissedSlots;
import io.tenure.OutgoingMessage;
import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.Schedule;
import io.tenure.ScheduleInfo;
import io.tenure.Schedules;
import io.tenure.Tenure;
import io.tenure.TenureNode;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC §10 with real nodes, each on its own store of one database: the leader fires a schedule's
 * slots, and through a crash of the leader every slot between the first and the last fired is
 * enqueued exactly once (a catch-up policy, so the successor fires what fell while no one led).
 */
public abstract class ScheduleClusterComplianceTest extends FixtureSupport {
  private static final Duration BOUND = Duration.ofSeconds(30);
  private static final Duration SECOND = Duration.ofSeconds(1);

  private TablePrefix prefix;
  private Store observer;
  private final List<TenureNode> nodes = new ArrayList<>();

  @BeforeEach
  void sharedDatabase() {
    prefix = freshPrefix();
    observer = fixture.open(prefix);
  }

  @AfterEach
  void stopNodes() {
    nodes.forEach(TenureNode::close); // closing twice does nothing
    nodes.clear(); // one instance runs every test of the class
  }

  private TenureNode started(Store store, String name) {
    TenureNode node = FastTimings.node(TenureNode.builder(store), name).build();
    node.start();
    nodes.add(node);
    return node;
  }

  /** Declares, through the public API, an every-second schedule on queue {@code ticks}. */
  private void declareEverySecond(MissedSlots missed) {
    Tenure tenure = Tenure.on(observer, "kit");
    tenure.queue("ticks", QueuePolicy.defaults());
    Schedules schedules = tenure.schedules();
    assertThat(
            schedules.declare(
                Schedule.every("tick", SECOND)
                    .enqueue("ticks", OutgoingMessage.text("tick"))
                    .missedSlots(missed)
                    .missedAfter(Duration.ZERO)))
        .isEqualTo(Schedules.Declared.CREATED);
  }

  private List<QueueMessage> ticks() {
    return observer.queues().list(new MessageQuery("ticks", null, null, null, null, 0, 10_000));
  }

  private ScheduleInfo tick() {
    return observer.schedules().read("tick").orElseThrow();
  }

  /** The slot each message was enqueued for, from its dedupe key. */
  private static List<Instant> slots(List<QueueMessage> messages) {
    return messages.stream()
        .map(
            m -> {
              String key = m.dedupeKey();
              long micros = Long.parseLong(key.substring(key.indexOf('@') + 1));
              return Instant.EPOCH.plus(Duration.ofNanos(micros * 1000));
            })
        .sorted()
        .toList();
  }

  /** No slot twice, and none missing between the first and the last. */
  private static void assertEverySlotOnce(List<Instant> slots) {
    assertThat(slots).doesNotHaveDuplicates();
    for (int i = 1; i < slots.size(); i++) {
      assertThat(Duration.between(slots.get(i - 1), slots.get(i)))
          .as("slots %s and %s", slots.get(i - 1), slots.get(i))
          .isEqualTo(SECOND);
    }
  }

  @Test
  void the_leader_fires_each_slot_of_a_schedule_once() {
    declareEverySecond(MissedSlots.catchUp(100));
    started(fixture.open(prefix), "a");
    started(fixture.open(prefix), "b");

    Await.until(BOUND, "four slots fired", () -> tick().fired() >= 4);
    nodes.forEach(TenureNode::close); // nothing fires while the counts are read

    List<QueueMessage> sent = ticks();
    assertThat(sent).hasSizeGreaterThanOrEqualTo(4);
    assertEverySlotOnce(slots(sent));
    assertThat(tick().fired()).isEqualTo(sent.size());
    assertThat(nodes.stream().mapToLong(n -> n.scheduleStats().fired()).sum())
        .isEqualTo(sent.size());
  }

  @Test
  void through_a_crash_of_the_leader_every_slot_is_enqueued_exactly_once() {
    declareEverySecond(MissedSlots.catchUp(100));
    List<FaultyStore> stores = new ArrayList<>();
    for (String name : List.of("a", "b")) {
      FaultyStore store = new FaultyStore(fixture.open(prefix));
      stores.add(store);
      started(store, name);
    }
    Await.until(BOUND, "two slots fired", () -> tick().fired() >= 2);
    TenureNode leader = nodes.stream().filter(TenureNode::isLeader).findFirst().orElseThrow();
    long firedBefore = tick().fired();

    stores.get(nodes.indexOf(leader)).crash();

    TenureNode survivor = nodes.get(1 - nodes.indexOf(leader));
    Await.until(BOUND, "the survivor leads", survivor::isLeader);
    Await.until(BOUND, "the survivor fires", () -> survivor.scheduleStats().fired() >= 2);
    nodes.forEach(TenureNode::close);

    List<QueueMessage> sent = ticks();
    assertEverySlotOnce(slots(sent));
    assertThat(tick().fired()).isEqualTo(sent.size()).isGreaterThan(firedBefore);
    assertThat(tick().skipped()).isZero();
  }
}
