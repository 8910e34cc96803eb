package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.ConsumerStats;
import io.tenure.MessageHandler;
import io.tenure.OutgoingMessage;
import io.tenure.QueuePolicy;
import io.tenure.Schedule;
import io.tenure.Tenure;
import io.tenure.TenureNode;
import io.tenure.TenureNodeBuilder;
import io.tenure.WakeStats;
import io.tenure.spi.TablePrefix;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Wake-ups (docs/QUEUE.md, "Wake-ups"; issue 20 §2) on real storage, two nodes in one JVM, each on
 * its own store as two processes would be: an enqueue through one wakes the consumer on the other
 * long before its poll; a datagram that is not a wake-up changes nothing; a node without wake-ups
 * advertises none and is polled. The consumer polls every 60 s, and the bounds are 10 s, so
 * scheduling cannot pass or fail a test: only a wake-up brings a message in within them.
 */
public abstract class QueueWakeupComplianceTest extends FixtureSupport {
  private static final Duration LONG_POLL = Duration.ofSeconds(60);
  private static final Duration BOUND = Duration.ofSeconds(10);

  private TablePrefix prefix;
  private final List<AutoCloseable> open = new ArrayList<>();

  @BeforeEach
  void freshCluster() {
    prefix = freshPrefix();
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    open.clear();
  }

  private Tenure tenure(String name, FaultyStore store) {
    return track(Tenure.on(store, name));
  }

  private <T extends AutoCloseable> T track(T closeable) {
    open.add(closeable);
    return closeable;
  }

  private TenureNode start(TenureNodeBuilder builder, String name) {
    TenureNode node = FastTimings.node(builder, name).build();
    track(node);
    node.start();
    return node;
  }

  /** Waits until both claimers made their first claim: from then on only a wake-up or a poll. */
  private static void claimersIdle(FaultyStore store) {
    Await.until(BOUND, "both claimers claimed once", () -> store.queueFaults().claims() >= 2);
  }

  @Test
  void an_enqueue_on_one_node_wakes_the_consumer_on_another_long_before_its_poll()
      throws Exception {
    FaultyStore storeA = new FaultyStore(fixture.open(prefix));
    FaultyStore storeB = new FaultyStore(fixture.open(prefix));
    Tenure a = tenure("a", storeA);
    Tenure b = tenure("b", storeB);
    CountDownLatch handled = new CountDownLatch(1);
    TenureNode nodeA = start(a.node(), "a");
    TenureNode nodeB =
        start(
            b.node()
                .queuePolling(LONG_POLL, LONG_POLL)
                .consumer(b.queue("wake", QueuePolicy.defaults()), 1, d -> handled.countDown()),
            "b");
    claimersIdle(storeB);

    a.queue("wake", QueuePolicy.defaults()).enqueue(OutgoingMessage.text("look now"));

    assertThat(handled.await(BOUND.toSeconds(), TimeUnit.SECONDS))
        .as("handled on b within %s though it polls every %s", BOUND, LONG_POLL)
        .isTrue();
    Await.until(BOUND, "a counted its send", () -> nodeA.wakeStats().sent() >= 1);
    // Where the store notifies too (PostgreSQL, in memory) the message may be handled before the
    // datagram is read: wait for the datagram, not for the handling.
    Await.until(BOUND, "b read the wake-up", () -> nodeB.wakeStats().woken() >= 1);
    WakeStats atB = nodeB.wakeStats();
    assertThat(atB.enabled()).isTrue();
    assertThat(atB.received()).isGreaterThanOrEqualTo(1);
    assertThat(atB.woken()).isGreaterThanOrEqualTo(1);
    assertThat(atB.dropped()).isZero();
  }

  @Test
  void a_schedule_triggered_through_one_tenure_wakes_the_consumer_on_another_node()
      throws Exception {
    Tenure a = tenure("a", new FaultyStore(fixture.open(prefix)));
    FaultyStore storeB = new FaultyStore(fixture.open(prefix));
    Tenure b = tenure("b", storeB);
    CountDownLatch handled = new CountDownLatch(1);
    TenureNode nodeB =
        start(
            b.node()
                .queuePolling(LONG_POLL, LONG_POLL)
                .consumer(b.queue("ticks", QueuePolicy.defaults()), 1, d -> handled.countDown()),
            "b");
    claimersIdle(storeB);
    a.queue("ticks", QueuePolicy.defaults());
    // Its first slot is a day away: only the trigger enqueues.
    a.schedules()
        .declare(
            Schedule.every("daily", Duration.ofDays(1))
                .startingAt(java.time.Instant.now().plus(Duration.ofDays(1)))
                .enqueue("ticks", OutgoingMessage.text("now")));

    a.schedules().trigger("daily");

    assertThat(handled.await(BOUND.toSeconds(), TimeUnit.SECONDS))
        .as("handled on b within %s though it polls every %s", BOUND, LONG_POLL)
        .isTrue();
    Await.until(BOUND, "b read the wake-up", () -> nodeB.wakeStats().woken() >= 1);
  }

  @Test
  void a_datagram_that_is_not_a_wake_up_or_names_another_queue_changes_nothing() throws Exception {
    FaultyStore storeA = new FaultyStore(fixture.open(prefix));
    FaultyStore storeB = new FaultyStore(fixture.open(prefix));
    Tenure a = tenure("a", storeA);
    Tenure b = tenure("b", storeB);
    MessageHandler handler = d -> {};
    TenureNode nodeB =
        start(
            b.node()
                .queuePolling(LONG_POLL, LONG_POLL)
                .consumer(b.queue("mine", QueuePolicy.defaults()), 1, handler),
            "b");
    claimersIdle(storeB);
    int claims = storeB.queueFaults().claims();

    try (DatagramSocket out = new DatagramSocket()) {
      InetSocketAddress to = wakeAddress(nodeB);
      for (String junk :
          List.of("", "GET / HTTP/1.1", "TNWK\u0001\u0004MINE", "TNWK\u0002\u0004mine")) {
        byte[] data = junk.getBytes(StandardCharsets.ISO_8859_1);
        out.send(new DatagramPacket(data, data.length, to));
      }
    }
    // A well-formed wake-up, for a queue b does not consume.
    a.queue("theirs", QueuePolicy.defaults()).enqueue(OutgoingMessage.text("not for b"));

    Await.until(
        BOUND,
        "b read the four datagrams and the wake-up",
        () -> nodeB.wakeStats().dropped() >= 4 && nodeB.wakeStats().received() >= 1);
    WakeStats atB = nodeB.wakeStats();
    assertThat(atB.dropped()).isEqualTo(4);
    assertThat(atB.woken()).as("no consumer of 'theirs' on b").isZero();
    assertThat(storeB.queueFaults().claims()).as("no claim made").isEqualTo(claims);
    assertThat(nodeB.consumerStats()).extracting(ConsumerStats::handled).containsExactly(0L);
  }

  @Test
  void a_node_without_wake_ups_advertises_none_counts_none_and_is_polled() throws Exception {
    FaultyStore storeA = new FaultyStore(fixture.open(prefix));
    FaultyStore storeB = new FaultyStore(fixture.open(prefix));
    Tenure a = tenure("a", storeA);
    Tenure b = tenure("b", storeB);
    CountDownLatch handled = new CountDownLatch(1);
    TenureNode nodeB =
        start(
            b.node()
                .wakeups(false, "127.0.0.1")
                .queuePolling(Duration.ofMillis(50), Duration.ofMillis(200))
                .consumer(b.queue("polled", QueuePolicy.defaults()), 1, d -> handled.countDown()),
            "b");

    a.queue("polled", QueuePolicy.defaults()).enqueue(OutgoingMessage.text("found by a poll"));

    assertThat(handled.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(nodeB.settings().capabilities()).noneMatch(c -> c.startsWith("wake:"));
    assertThat(storeA.membership().read().nodes())
        .allSatisfy(n -> assertThat(n.capabilities()).noneMatch(c -> c.startsWith("wake:")));
    assertThat(nodeB.wakeStats()).isEqualTo(WakeStats.off(nodeB.wakeStats().sent()));
  }

  private static InetSocketAddress wakeAddress(TenureNode node) {
    String capability =
        node.settings().capabilities().stream()
            .filter(c -> c.startsWith("wake:udp:"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no wake-up capability on " + node.nodeId()));
    String hostPort = capability.substring("wake:udp:".length());
    int colon = hostPort.lastIndexOf(':');
    return new InetSocketAddress(
        hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
  }
}
