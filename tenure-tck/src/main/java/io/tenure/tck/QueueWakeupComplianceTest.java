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

  /**
   * An operator's action that makes a message claimable wakes the consumer as an enqueue does: a
   * retry and a replay of a dead letter, a run-now of a delayed message, and a resume. Each message
   * fails its first delivery (one attempt: a dead letter) and is handled by its second. Before each
   * action both of b's claimers are parked in their 60 s wait, so only a wake-up sent after the
   * action can bring its message in within the bound.
   */
  @Test
  void a_retry_a_replay_a_run_now_and_a_resume_through_one_tenure_wake_the_consumer_on_another()
      throws Exception {
    Tenure a = tenure("a", new FaultyStore(fixture.open(prefix)));
    FaultyStore storeB = new FaultyStore(fixture.open(prefix));
    Tenure b = tenure("b", storeB);
    QueuePolicy once = QueuePolicy.defaults().withMaxAttempts(1);
    java.util.Set<Long> failedOnce = java.util.concurrent.ConcurrentHashMap.newKeySet();
    java.util.Set<Long> handled = java.util.concurrent.ConcurrentHashMap.newKeySet();
    MessageHandler handler =
        d -> {
          if (d.text().startsWith("die") && failedOnce.add(d.message().id())) {
            throw new IllegalStateException("first delivery of " + d.message().id() + " fails");
          }
          handled.add(d.message().id());
        };
    TenureNode nodeB =
        start(
            b.node().queuePolling(LONG_POLL, LONG_POLL).consumer(b.queue("ops", once), 1, handler),
            "b");
    claimersIdle(storeB);
    io.tenure.Queue ops = a.queue("ops", once);

    long retried = deadLetter(ops, "die: retried");
    claimersParked(storeB, "ops");
    assertThat(ops.retry(retried)).isEqualTo(io.tenure.RetryOutcome.RETRIED);
    handledWithinBound(handled, retried, "a retry");

    long replayed = deadLetter(ops, "die: replayed");
    claimersParked(storeB, "ops");
    ops.replay(replayed);
    handledWithinBound(handled, replayed, "a replay");

    long woken = nodeB.wakeStats().woken();
    long delayed = ops.enqueue(OutgoingMessage.text("later").delay(Duration.ofDays(1)));
    wokenSince(nodeB, woken);
    claimersParked(storeB, "ops");
    assertThat(ops.runNow(delayed)).isEqualTo(io.tenure.RunNowOutcome.AVAILABLE_NOW);
    handledWithinBound(handled, delayed, "a run-now");

    assertThat(ops.pause()).isTrue();
    woken = nodeB.wakeStats().woken();
    long paused = ops.enqueue(OutgoingMessage.text("while paused"));
    wokenSince(nodeB, woken);
    claimersParked(storeB, "ops");
    assertThat(ops.resume()).isTrue();
    handledWithinBound(handled, paused, "a resume");
  }

  /** Waits until {@code node} read the wake-up of an enqueue made after {@code woken} were read. */
  private static void wokenSince(TenureNode node, long woken) {
    Await.until(BOUND, "the enqueue's wake-up read", () -> node.wakeStats().woken() > woken);
  }

  /**
   * Waits until no claim of {@code store} is running and both claimer threads of {@code queue} wait
   * (a claimer waits timed only in its poll, or in the pool's borrow inside a claim). The wake-up
   * of an enqueue just before, already read, has been claimed on by then.
   */
  private static void claimersParked(FaultyStore store, String queue) {
    Await.until(
        BOUND,
        "both claimers of " + queue + " wait for their next poll",
        () -> {
          if (store.queueFaults().claimsInProgress() != 0) {
            return false;
          }
          List<Thread.State> states =
              Thread.getAllStackTraces().keySet().stream()
                  .filter(t -> t.getName().startsWith("tenure-claim-" + queue + "-"))
                  .map(Thread::getState)
                  .toList();
          return states.size() == 2
              && states.stream().allMatch(s -> s == Thread.State.TIMED_WAITING)
              && store.queueFaults().claimsInProgress() == 0;
        });
  }

  /** Enqueues a message that fails its one delivery, and waits until it is a dead letter. */
  private static long deadLetter(io.tenure.Queue queue, String text) {
    long id = queue.enqueue(OutgoingMessage.text(text));
    Await.until(
        BOUND,
        "message " + id + " failed its one attempt",
        () -> queue.message(id).map(m -> m.status() == io.tenure.MessageStatus.DEAD).orElse(false));
    return id;
  }

  private static void handledWithinBound(java.util.Set<Long> handled, long id, String action) {
    Await.until(
        BOUND,
        "message " + id + " handled after " + action + ", though b polls every " + LONG_POLL,
        () -> handled.contains(id));
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
