package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.ConsumerStats;
import io.tenure.MessageHandler;
import io.tenure.MessageStatus;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.TenureNode;
import io.tenure.TenureNodeBuilder;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC §6.4 to §6.6 with real nodes and consumers in one JVM on real storage: every message handled
 * at least once, none lost, none stranded; retries and dead letters as the policy says; shutdown
 * releases what never started and abandons what overran; long handlers keep their claims.
 */
public abstract class QueueClusterComplianceTest extends FixtureSupport {
  private static final Duration BOUND = Duration.ofSeconds(60);

  private TablePrefix prefix;
  private Store observer;
  private final List<TenureNode> nodes = new ArrayList<>();

  @BeforeEach
  void sharedDatabase() {
    nodes.clear();
    prefix = freshPrefix();
    observer = fixture.open(prefix);
  }

  @AfterEach
  void stopNodes() {
    nodes.forEach(TenureNode::close);
    nodes.clear();
  }

  private Queue queue(String name, QueuePolicy policy) {
    return Queue.on(observer.queues(), name, policy);
  }

  private TenureNode start(String name, Queue queue, int concurrency, MessageHandler handler) {
    return start(
        builder(name)
            .consumer(
                Queue.on(fixture.open(prefix).queues(), queue.name(), queue.policy()),
                concurrency,
                handler));
  }

  private TenureNodeBuilder builder(String name) {
    return builder(name, fixture.open(prefix));
  }

  private TenureNodeBuilder builder(String name, Store store) {
    return FastTimings.node(TenureNode.builder(store), name)
        .queueReclaim(Duration.ofMillis(100), 1000);
  }

  private TenureNode start(TenureNodeBuilder builder) {
    TenureNode node = builder.build();
    node.start();
    nodes.add(node);
    return node;
  }

  private void enqueue(Queue queue, int count) {
    for (int from = 0; from < count; from += 1000) {
      List<OutgoingMessage> batch = new ArrayList<>();
      for (int i = from; i < Math.min(count, from + 1000); i++) {
        batch.add(OutgoingMessage.text("m" + i));
      }
      queue.enqueueAll(batch);
    }
  }

  /** Nothing pending or in flight, read in one statement (two reads could straddle a claim). */
  private static boolean settled(Queue queue) {
    io.tenure.QueueStats stats = queue.stats();
    return stats.pending() + stats.inflight() == 0;
  }

  private static long sum(
      List<TenureNode> nodes, java.util.function.ToLongFunction<ConsumerStats> field) {
    return nodes.stream().flatMap(n -> n.consumerStats().stream()).mapToLong(field).sum();
  }

  @Test
  void three_nodes_handle_ten_thousand_messages_none_lost_none_stranded_none_twice() {
    Queue work = queue("work", QueuePolicy.defaults());
    Map<String, AtomicInteger> handled = new ConcurrentHashMap<>();
    MessageHandler handler =
        d -> handled.computeIfAbsent(d.text(), t -> new AtomicInteger()).incrementAndGet();
    // The nodes consume before the messages arrive: each takes its share as they come, rather
    // than the first node started draining a full queue before the last one begins.
    for (int i = 1; i <= 3; i++) {
      start("n" + i, work, 8, handler);
    }
    enqueue(work, 10_000);

    // The consumers count a resolve just after the store wrote it: wait for the counts too.
    Await.until(
        BOUND,
        "every message handled and resolved (now " + handled.size() + ")",
        () ->
            handled.size() == 10_000
                && settled(work)
                && sum(nodes, ConsumerStats::handled) >= 10_000);
    assertThat(handled.values()).as("messages handled more than once").allMatch(n -> n.get() == 1);
    assertThat(sum(nodes, ConsumerStats::handled)).isEqualTo(10_000);
    assertThat(sum(nodes, ConsumerStats::lostClaims)).isZero();
    assertThat(work.stats().dead()).isZero();
  }

  @Test
  void a_failing_handler_is_retried_as_the_policy_says_then_dead_lettered() {
    Queue flaky =
        queue(
            "flaky",
            QueuePolicy.defaults()
                .withMaxAttempts(3)
                .withBackoff(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1), 0.0));
    List<Long> attemptsAt = new java.util.concurrent.CopyOnWriteArrayList<>();
    long id = flaky.enqueue(OutgoingMessage.text("boom"));

    TenureNode node =
        start(
            "n1",
            flaky,
            1,
            d -> {
              attemptsAt.add(System.nanoTime());
              throw new IllegalStateException("attempt " + d.attempt() + " failed");
            });

    Await.until(
        BOUND,
        "a dead letter",
        () -> flaky.message(id).map(QueueMessage::status).orElse(null) == MessageStatus.DEAD);
    QueueMessage dead = flaky.message(id).orElseThrow();
    assertThat(dead.attempts()).isEqualTo(3);
    assertThat(dead.lastError()).contains("attempt 3 failed");
    assertThat(attemptsAt).hasSize(3);
    // Backoff 100 ms then 200 ms (no jitter): the gaps are at least that long.
    assertThat(attemptsAt.get(1) - attemptsAt.get(0))
        .isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
    assertThat(attemptsAt.get(2) - attemptsAt.get(1))
        .isGreaterThanOrEqualTo(Duration.ofMillis(200).toNanos());
    Await.until(BOUND, "counted", () -> node.consumerStats().get(0).deadLettered() == 1);
    assertThat(node.consumerStats().get(0).retried()).isEqualTo(2);
    assertThat(flaky.deadLetters(10)).extracting(QueueMessage::id).containsExactly(id);
  }

  @Test
  void a_non_retryable_failure_is_dead_lettered_at_once() {
    Queue strict =
        queue("strict", QueuePolicy.defaults().withNonRetryable(IllegalArgumentException.class));
    long id = strict.enqueue(OutgoingMessage.text("bad input"));

    start(
        "n1",
        strict,
        1,
        d -> {
          throw new IllegalArgumentException("cannot parse");
        });

    Await.until(
        BOUND,
        "a dead letter",
        () -> strict.message(id).map(QueueMessage::status).orElse(null) == MessageStatus.DEAD);
    assertThat(strict.message(id).orElseThrow().attempts()).isEqualTo(1);
  }

  @Test
  void a_handler_that_outlives_its_lease_keeps_its_claim_and_runs_once() {
    // The consumer extends a lease once half of it is used, checking every sixth: a third of the
    // lease (1 s here) is the pause the claim survives. A shorter lease makes a loaded machine's
    // scheduling, not the extension rule, decide the test.
    Queue slow = queue("slow", QueuePolicy.defaults().withLease(Duration.ofSeconds(3)));
    AtomicInteger runs = new AtomicInteger();
    long id = slow.enqueue(OutgoingMessage.text("long job"));

    start(
        "n1",
        slow,
        1,
        d -> {
          runs.incrementAndGet();
          Thread.sleep(
              7_000); // more than two leases: only the consumer's extensions keep the claim
        });
    start("n2", slow, 1, d -> runs.incrementAndGet());

    Await.until(BOUND, "done", () -> slow.message(id).isEmpty());
    assertThat(runs).hasValue(1);
    assertThat(sum(nodes, ConsumerStats::lostClaims)).isZero();
  }

  @Test
  void
      closing_releases_what_never_started_and_abandons_an_overrunning_handler_to_the_reclaim_sweep() {
    Queue jobs = queue("jobs", QueuePolicy.defaults().withLease(Duration.ofMillis(500)));
    CountDownLatch stuck = new CountDownLatch(1);
    CountDownLatch entered = new CountDownLatch(1);
    long one = jobs.enqueue(OutgoingMessage.text("first"));
    long other = jobs.enqueue(OutgoingMessage.text("second"));
    java.util.concurrent.atomic.AtomicLong runs = new java.util.concurrent.atomic.AtomicLong();
    TenureNode closing =
        start(
            builder("n1")
                .drainDeadline(Duration.ofMillis(200))
                .consumer(
                    Queue.on(fixture.open(prefix).queues(), "jobs", jobs.policy()),
                    1,
                    d -> {
                      runs.set(d.message().id());
                      entered.countDown();
                      stuck.await(); // never returns before the test ends: this handler overruns
                    }));
    Await.until(
        BOUND,
        "both claimed, one running",
        () -> entered.getCount() == 0 && jobs.stats().inflight() == 2);
    // Which one runs is not fixed: on the servers the two claimers may each take one, and the
    // later message's claim may reach the buffer first.
    long first = runs.get();
    long second = first == one ? other : one;

    nodes.remove(closing);
    closing.close();
    // A claim n1 sent before closing may still be in the store (a slow round trip); if it returns,
    // it may hold the message close just released until its claimer gives it back. Read once n1's
    // claimers have ended, which they do after giving back what they took.
    String claimers = "tenure-claim-jobs-" + closing.nodeId().substring(0, 8);
    Await.until(
        BOUND,
        "n1's claimers ended",
        () ->
            Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().startsWith(claimers)));

    // The one that never started went back, its attempt given back.
    QueueMessage released = jobs.message(second).orElseThrow();
    assertThat(released.status()).isEqualTo(MessageStatus.PENDING);
    assertThat(released.attempts()).isZero();
    // The overrunning one stays claimed until its lease lapses; then another node handles it.
    assertThat(jobs.message(first).orElseThrow().status()).isEqualTo(MessageStatus.INFLIGHT);
    List<String> handledElsewhere = new java.util.concurrent.CopyOnWriteArrayList<>();
    start("n2", jobs, 2, d -> handledElsewhere.add(d.text()));
    Await.until(BOUND, "both handled by n2", () -> handledElsewhere.size() == 2);
    assertThat(handledElsewhere).containsExactlyInAnyOrder("first", "second");
    Await.until(BOUND, "nothing stranded", () -> settled(jobs));
    stuck.countDown();
  }

  // ---- resolves that fail on the connection (SPEC §6.3)

  private static final Duration LONG_LEASE = Duration.ofMinutes(5); // never lapses here

  /** A node whose store's resolves fail as the test says, consuming {@code name} with one slot. */
  private TenureNode faultyConsumer(
      FaultyStore faulty, TenureNodeBuilder builder, String name, AtomicInteger runs) {
    return start(
        builder.consumer(
            Queue.on(faulty.queues(), name, QueuePolicy.defaults().withLease(LONG_LEASE)),
            1,
            d -> runs.incrementAndGet()));
  }

  @Test
  void a_resolve_that_fails_on_the_connection_is_tried_again_until_it_lands() {
    Queue work = queue("broken-link", QueuePolicy.defaults().withLease(LONG_LEASE));
    long id = work.enqueue(OutgoingMessage.text("once"));
    FaultyStore faulty = new FaultyStore(fixture.open(prefix));
    faulty.queueFaults().failResolves(3);
    AtomicInteger runs = new AtomicInteger();

    TenureNode node = faultyConsumer(faulty, builder("n1", faulty), "broken-link", runs);

    // Given up at the first failure, the done would wait five minutes for the lease to lapse.
    Await.until(
        BOUND,
        "done written",
        () -> work.message(id).isEmpty() && node.consumerStats().get(0).handled() == 1);
    assertThat(faulty.queueFaults().failedResolves()).isEqualTo(3);
    assertThat(runs).hasValue(1);
    assertThat(node.consumerStats().get(0).unwritten()).isZero();
    assertThat(node.consumerStats().get(0).lostClaims()).isZero();
  }

  @Test
  void a_resolve_written_whose_reply_was_lost_is_tried_again_and_counted_as_written_not_lost() {
    Queue work = queue("lost-reply", QueuePolicy.defaults().withLease(LONG_LEASE));
    long id = work.enqueue(OutgoingMessage.text("once"));
    FaultyStore faulty = new FaultyStore(fixture.open(prefix));
    faulty.queueFaults().loseResolveReplies(1);
    AtomicInteger runs = new AtomicInteger();

    TenureNode node = faultyConsumer(faulty, builder("n1", faulty), "lost-reply", runs);

    // The retry finds the claim ended by its own first try: a no-op, and the message was handled.
    Await.until(BOUND, "counted", () -> node.consumerStats().get(0).handled() == 1);
    assertThat(work.message(id)).as("done and deleted").isEmpty();
    assertThat(faulty.queueFaults().failedResolves()).isEqualTo(1);
    assertThat(node.consumerStats().get(0).lostClaims())
        .as("its own write is not a lost claim")
        .isZero();
    assertThat(node.consumerStats().get(0).unwritten()).isZero();
    assertThat(runs).hasValue(1);
  }

  @Test
  void a_resolve_that_keeps_failing_is_given_up_only_near_the_end_of_its_lease_and_counted() {
    Queue work = queue("db-down", QueuePolicy.defaults().withLease(LONG_LEASE));
    long id = work.enqueue(OutgoingMessage.text("once"));
    FaultyStore faulty = new FaultyStore(fixture.open(prefix));
    faulty.queueFaults().resolvesDown(true);
    java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
    AtomicInteger runs = new AtomicInteger();

    TenureNode node =
        faultyConsumer(faulty, builder("n1", faulty).ticker(now::get), "db-down", runs);

    Await.until(BOUND, "tried three times", () -> faulty.queueFaults().failedResolves() >= 3);
    assertThat(node.consumerStats().get(0).unwritten())
        .as("not given up while its lease runs")
        .isZero();
    assertThat(work.message(id).orElseThrow().status()).isEqualTo(MessageStatus.INFLIGHT);

    now.addAndGet(LONG_LEASE.toNanos()); // the lease is near its end (it is over, by the ticker)
    Await.until(BOUND, "given up and counted", () -> node.consumerStats().get(0).unwritten() == 1);
    faulty.queueFaults().resolvesDown(false);
    assertThat(node.consumerStats().get(0).handled()).isZero();
    // Left to its lease: the reclaim sweep takes it back when it lapses, and it runs again.
    assertThat(work.message(id).orElseThrow().status()).isEqualTo(MessageStatus.INFLIGHT);
    assertThat(runs).hasValue(1);
  }

  /**
   * SPEC §6.4 through a node: its reclaim sweep asks the outcome rule, so a claim that expired on
   * its last attempt is a dead letter and one with attempts left is pending again.
   */
  @Test
  void a_nodes_reclaim_sweep_kills_a_claim_that_expired_on_its_last_attempt_and_repends_the_rest() {
    Queue last = queue("last", QueuePolicy.defaults().withMaxAttempts(1));
    Queue more = queue("more", QueuePolicy.defaults().withMaxAttempts(2));
    long lastId = last.enqueue(OutgoingMessage.text("last"));
    long moreId = more.enqueue(OutgoingMessage.text("more"));
    String crashed = UUID.randomUUID().toString();
    for (Queue queue : List.of(last, more)) {
      QueueMessage claimed =
          observer
              .queues()
              .claim(ClaimRequest.of(queue.name(), crashed, 1, Duration.ofMillis(200)))
              .get(0);
      DatabaseClock.awaitPast(observer, claimed.leaseUntil());
    }

    start(builder("n1"));

    Await.until(
        BOUND,
        "both reclaimed",
        () ->
            last.message(lastId).orElseThrow().status() == MessageStatus.DEAD
                && more.message(moreId).orElseThrow().status() == MessageStatus.PENDING);
    assertThat(last.message(lastId).orElseThrow().lastError())
        .isEqualTo("lease expired on attempt 1 of 1");
    assertThat(more.message(moreId).orElseThrow().attempts()).isEqualTo(1);
  }

  @Test
  void messages_of_one_key_are_handled_one_at_a_time_in_order_across_nodes() {
    Queue orders = queue("orders", QueuePolicy.defaults());
    List<OutgoingMessage> batch = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      batch.add(OutgoingMessage.text("k" + (i % 3) + ":" + i).key("k" + (i % 3)));
    }
    orders.enqueueAll(batch);
    Map<String, List<Integer>> seen = new ConcurrentHashMap<>();
    Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
    AtomicInteger overlaps = new AtomicInteger();
    MessageHandler handler =
        d -> {
          String[] parts = d.text().split(":");
          if (running.computeIfAbsent(parts[0], k -> new AtomicInteger()).incrementAndGet() > 1) {
            overlaps.incrementAndGet();
          }
          Thread.sleep(2);
          seen.computeIfAbsent(parts[0], k -> new java.util.concurrent.CopyOnWriteArrayList<>())
              .add(Integer.parseInt(parts[1]));
          running.get(parts[0]).decrementAndGet();
        };

    start("n1", orders, 4, handler);
    start("n2", orders, 4, handler);

    Await.until(
        BOUND, "all handled", () -> seen.values().stream().mapToInt(List::size).sum() == 60);
    assertThat(overlaps).as("two messages of one key in flight at once").hasValue(0);
    seen.values().forEach(order -> assertThat(order).isSorted());
  }

  @Test
  void done_messages_are_kept_for_their_retention_then_deleted_by_the_leader() {
    Queue kept =
        queue(
            "kept",
            QueuePolicy.defaults().withRetention(Duration.ofMillis(800), Duration.ofDays(1)));
    long id = kept.enqueue(OutgoingMessage.text("keep me a while"));

    start("n1", kept, 1, d -> {});

    Await.until(
        BOUND,
        "done and kept",
        () -> kept.message(id).map(QueueMessage::status).orElse(null) == MessageStatus.DONE);
    assertThat(kept.message(id).orElseThrow().finishedAt()).isNotNull();
    Await.until(BOUND, "deleted after its retention", () -> kept.message(id).isEmpty());
  }

  @Test
  void an_exclusive_queue_runs_on_one_node_in_strict_order_and_moves_when_its_node_leaves()
      throws Exception {
    Queue ledger = queue("ledger", QueuePolicy.defaults().withLease(Duration.ofSeconds(5)));
    ledger.enqueueAll(texts(0, 20));
    List<Integer> order = new java.util.concurrent.CopyOnWriteArrayList<>();
    Map<Integer, String> handledBy = new ConcurrentHashMap<>();
    AtomicInteger atOnce = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    // The last message of the first half holds its node's handler until the test has started
    // that node's leave: the node that leaves is the one running the queue, whatever hand-offs
    // placement made before, and it leaves with a message in flight.
    CountDownLatch lastOfFirstHalf = new CountDownLatch(1);
    CountDownLatch leaving = new CountDownLatch(1);
    java.util.concurrent.atomic.AtomicReference<String> holderOfLast =
        new java.util.concurrent.atomic.AtomicReference<>();
    java.util.function.Function<String, MessageHandler> handler =
        node ->
            d -> {
              if (atOnce.incrementAndGet() > 1) {
                overlaps.incrementAndGet();
              }
              int n = Integer.parseInt(d.text());
              if (n == 19) {
                holderOfLast.set(node);
                lastOfFirstHalf.countDown();
                assertThat(
                        leaving.await(BOUND.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS))
                    .isTrue();
              }
              order.add(n);
              handledBy.put(n, node);
              atOnce.decrementAndGet();
            };
    Map<String, TenureNode> byName = new ConcurrentHashMap<>();
    for (String name : List.of("n1", "n2")) {
      byName.put(
          name,
          start(
              builder(name)
                  .agentSweepInterval(Duration.ofMillis(100))
                  .exclusiveConsumer(
                      Queue.on(fixture.open(prefix).queues(), "ledger", ledger.policy()),
                      handler.apply(name))));
    }

    Await.until(
        BOUND,
        "the first half's last message in its handler",
        () -> lastOfFirstHalf.getCount() == 0);
    String leaver = holderOfLast.get();
    TenureNode running = byName.get(leaver);
    String stayer = leaver.equals("n1") ? "n2" : "n1";
    nodes.remove(running);
    Thread closer = Thread.ofPlatform().start(running::close);
    leaving.countDown();
    closer.join(BOUND.toMillis());
    assertThat(closer.isAlive()).as("the leaving node closed").isFalse();
    assertThat(order).as("its message in flight finished as it left").hasSize(20);
    assertThat(handledBy).containsEntry(19, leaver);

    ledger.enqueueAll(texts(20, 40));
    Await.until(
        BOUND,
        "all handled (now " + order.size() + ")",
        () -> order.size() >= 40 && settled(ledger));
    assertThat(overlaps).as("two messages of an exclusive queue in flight at once").hasValue(0);
    assertThat(order)
        .as("strict order, each once (%s left; handled by %s)", leaver, handledBy)
        .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 40).boxed().toList());
    for (int n = 20; n < 40; n++) {
      assertThat(handledBy).as("message %d after %s left", n, leaver).containsEntry(n, stayer);
    }
  }

  private static List<OutgoingMessage> texts(int from, int to) {
    List<OutgoingMessage> batch = new ArrayList<>();
    for (int i = from; i < to; i++) {
      batch.add(OutgoingMessage.text(Integer.toString(i)));
    }
    return batch;
  }

  @Test
  void a_batch_handler_gets_up_to_its_batch_size_and_a_failing_batch_fails_each_message() {
    Queue bulk =
        queue(
            "bulk",
            QueuePolicy.defaults()
                .withMaxAttempts(2)
                .withBackoff(Duration.ofMillis(50), 1.0, Duration.ofMillis(50), 0.0));
    enqueue(bulk, 200);
    List<Integer> sizes = new java.util.concurrent.CopyOnWriteArrayList<>();
    Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
    start(
        builder("n1")
            .batchConsumer(
                Queue.on(fixture.open(prefix).queues(), "bulk", bulk.policy()),
                2,
                25,
                deliveries -> {
                  sizes.add(deliveries.size());
                  deliveries.forEach(
                      d ->
                          seen.computeIfAbsent(d.text(), t -> new AtomicInteger())
                              .incrementAndGet());
                  if (deliveries.stream().anyMatch(d -> d.text().equals("m7"))) {
                    throw new IllegalStateException("batch with m7 fails");
                  }
                }));

    Await.until(BOUND, "all done or dead", () -> settled(bulk) && seen.size() == 200);
    assertThat(sizes).allMatch(n -> n >= 1 && n <= 25).anyMatch(n -> n > 1);
    // m7 failed twice and is dead; so is every message that shared a batch with it both times.
    QueueMessage poison =
        bulk.deadLetters(100).stream()
            .filter(
                m -> new String(m.payload(), java.nio.charset.StandardCharsets.UTF_8).equals("m7"))
            .findFirst()
            .orElseThrow();
    assertThat(poison.attempts()).isEqualTo(2);
    assertThat(poison.lastError()).contains("batch with m7 fails");
    assertThat(bulk.deadLetters(100)).allSatisfy(m -> assertThat(m.attempts()).isEqualTo(2));
    assertThat(seen.get("m7")).hasValue(2);
  }

  @Test
  void messages_waiting_in_a_consumers_buffer_keep_their_leases_and_run_once() {
    // A 3 s lease survives a 1 s pause of the extender (see the test above).
    Queue slow = queue("buffered", QueuePolicy.defaults().withLease(Duration.ofSeconds(3)));
    enqueue(slow, 6);
    Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    // One slot, 1.2 s a message: the last buffered message waits two leases for its turn.
    start(
        "n1",
        slow,
        1,
        d -> {
          runs.computeIfAbsent(d.text(), t -> new AtomicInteger()).incrementAndGet();
          Thread.sleep(1_200);
        });
    Await.until(BOUND, "n1 holds them all", () -> slow.stats().inflight() == 6);
    start(
        "n2",
        slow,
        1,
        d -> runs.computeIfAbsent(d.text(), t -> new AtomicInteger()).incrementAndGet());

    Await.until(BOUND, "all handled", () -> settled(slow) && runs.size() == 6);
    assertThat(runs.values()).as("handled more than once").allMatch(n -> n.get() == 1);
    assertThat(sum(nodes, ConsumerStats::lostClaims)).isZero();
  }

  @Test
  void
      a_consumer_whose_handlers_are_stuck_holds_only_its_minimum_fetch_ahead_and_peers_take_the_rest() {
    Queue hoard = queue("hoard", QueuePolicy.defaults());
    enqueue(hoard, 500);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    AtomicInteger stuck = new AtomicInteger();
    // Two slots whose handlers never finish: no handling rate, so fetch-ahead stays at its minimum.
    start(
        "n1",
        hoard,
        2,
        d -> {
          stuck.incrementAndGet();
          release.await();
        });
    Await.until(
        BOUND,
        "n1 holds 32 (its minimum fetch-ahead) and both its handlers are stuck",
        () -> hoard.stats().inflight() == 32 && stuck.get() == 2);

    AtomicInteger byPeer = new AtomicInteger();
    start("n2", hoard, 8, d -> byPeer.incrementAndGet());
    // n2's outcomes are written a moment after its handlers return: wait for them too. Had n1
    // taken more than 32, n2 could never handle 468.
    Await.until(
        BOUND,
        "n2 handles and resolves everything n1 did not take (now " + byPeer.get() + ")",
        () ->
            byPeer.get() == 468 && hoard.stats().pending() == 0 && hoard.stats().inflight() == 32);

    release.countDown();
    Await.until(BOUND, "n1's 32 handled too", () -> settled(hoard));
    assertThat(stuck.get() + byPeer.get()).isEqualTo(500);
  }
}
