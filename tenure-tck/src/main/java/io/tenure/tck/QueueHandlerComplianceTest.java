package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.Delivery;
import io.tenure.MessageHandler;
import io.tenure.MessageProgress;
import io.tenure.MessageStatus;
import io.tenure.OnTimeout;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.QueuePolicy;
import io.tenure.TenureNode;
import io.tenure.spi.Resolution.Release;
import io.tenure.spi.Resolution.Reschedule;
import io.tenure.spi.Resolution.Retry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC §12.4 and §12.5 on every provider: what a running handler writes to its message (progress, a
 * checkpoint) only under a claim that holds, and kept for the next attempt (rules Q40a to Q40c of
 * {@link io.tenure.spi.QueueStore}); and, through a real node, a handler past its timeout is told,
 * its message resolved as the policy says, and its own outcome changes nothing. The node's ticker
 * is the test's, so "past the timeout" is a step the test takes, not a wait; the handlers wait on
 * latches.
 */
public abstract class QueueHandlerComplianceTest extends QueueKit {
  private static final Duration BOUND = Duration.ofSeconds(60);
  private static final Duration LONG_BACKOFF = Duration.ofHours(1);
  private static final Duration TIMEOUT = Duration.ofMillis(200);

  private final List<TenureNode> nodes = new ArrayList<>();

  /** Lets the test's blocked handlers return; one per test (the kit's instances live per class). */
  private CountDownLatch release = new CountDownLatch(1);

  @BeforeEach
  void newLatch() {
    release = new CountDownLatch(1);
  }

  @AfterEach
  void stopNodes() {
    release.countDown();
    nodes.forEach(TenureNode::close);
    nodes.clear();
  }

  // ---- the store: rules Q40a to Q40c

  @Test
  void progress_and_a_checkpoint_are_stored_only_under_a_claim_that_holds() {
    QueueMessage running = enqueueAndClaim(message(QUEUE));

    assertThat(queues.progress(running.claim(), new MessageProgress(0.25, "a quarter"))).isTrue();
    assertThat(queues.checkpoint(running.claim(), new byte[] {7, 8})).isTrue();
    QueueMessage stored = stored(running.id());
    assertThat(stored.progress()).isEqualTo(new MessageProgress(0.25, "a quarter"));
    assertThat(stored.checkpoint()).containsExactly(7, 8);

    resolveApplied(running, new Retry(Duration.ZERO, "failed"));
    assertThat(queues.progress(running.claim(), new MessageProgress(0.9, null)))
        .as("the claim ended")
        .isFalse();
    assertThat(queues.checkpoint(running.claim(), new byte[] {9})).isFalse();
    assertThat(stored(running.id()).progress()).isEqualTo(new MessageProgress(0.25, "a quarter"));
    assertThat(stored(running.id()).checkpoint()).containsExactly(7, 8);
    assertThat(
            queues.progress(
                new io.tenure.spi.MessageClaim(999_999_999L, "none"), new MessageProgress(0, null)))
        .isFalse();
  }

  @Test
  void a_retry_and_a_reclaim_keep_the_checkpoint_for_the_next_attempt() {
    long id = enqueue(attempts(5));
    QueueMessage first = claimOne();
    queues.checkpoint(first.claim(), new byte[] {1});
    queues.progress(first.claim(), new MessageProgress(0.5, null));
    resolveApplied(first, new Retry(Duration.ZERO, "failed"));

    QueueMessage second = claimOne();
    assertThat(second.id()).isEqualTo(id);
    assertThat(second.checkpoint()).as("the retry reads it").containsExactly(1);
    assertThat(second.progress()).isEqualTo(new MessageProgress(0.5, null));
    queues.checkpoint(second.claim(), new byte[] {2});
    resolveApplied(second, new Release());
    QueueMessage third = claimOne();
    assertThat(third.checkpoint()).containsExactly(2);
    resolveApplied(third, new Reschedule(Duration.ZERO));

    QueueMessage crashed = claimOne(SHORT);
    queues.checkpoint(crashed.claim(), new byte[] {3});
    DatabaseClock.awaitPast(store, java.util.Objects.requireNonNull(crashed.leaseUntil()));
    assertThat(queues.reclaimExpired(10, REPEND_ALL)).isEqualTo(1);
    assertThat(claimOne().checkpoint()).as("after a reclaim").containsExactly(3);
  }

  @Test
  void a_checkpoint_round_trips_every_byte() {
    QueueMessage running = enqueueAndClaim(message(QUEUE));
    byte[] every = new byte[256 * 4];
    for (int i = 0; i < every.length; i++) {
      every[i] = (byte) i;
    }

    assertThat(queues.checkpoint(running.claim(), every)).isTrue();
    assertThat(stored(running.id()).checkpoint()).isEqualTo(every);
    assertThat(queues.checkpoint(running.claim(), new byte[0])).isTrue();
    assertThat(stored(running.id()).checkpoint()).isEmpty();
    String note = "\uD840\uDC00 ".repeat(MessageProgress.MAX_NOTE_LENGTH / 3);
    assertThat(queues.progress(running.claim(), new MessageProgress(1.0, note))).isTrue();
    assertThat(stored(running.id()).progress()).isEqualTo(new MessageProgress(1.0, note));
  }

  @Test
  void a_message_timeout_round_trips() {
    long id = enqueue(message(QUEUE).withTimeout(Duration.ofMillis(1500)));
    assertThat(stored(id).timeout()).isEqualTo(Duration.ofMillis(1500));
    assertThat(stored(enqueue(message(QUEUE))).timeout()).isNull();
  }

  // ---- through a node: timeouts (SPEC §12.4), progress and checkpoints (SPEC §12.5)

  /** Starts a node consuming {@code queue} on this test's tables, through a store of its own. */
  private void consume(Queue queue, MessageHandler handler) {
    io.tenure.spi.Store own = fixture.open(prefix);
    TenureNode node =
        FastTimings.node(TenureNode.builder(own), "n1")
            .consumer(Queue.on(own.queues(), queue.name(), queue.policy()), 1, handler)
            .build();
    nodes.add(node);
    node.start();
  }

  private Queue queue(QueuePolicy policy) {
    return Queue.on(queues, QUEUE, policy.withBackoff(LONG_BACKOFF, 2.0, LONG_BACKOFF, 0));
  }

  private static boolean await(CountDownLatch latch) throws InterruptedException {
    return latch.await(BOUND.toSeconds(), TimeUnit.SECONDS);
  }

  @Test
  void a_handler_past_its_messages_timeout_is_told_and_the_message_retried_with_the_error()
      throws Exception {
    Queue jobs = queue(QueuePolicy.defaults().withTimeout(Duration.ofHours(2), OnTimeout.RETRY));
    long id = jobs.enqueue(OutgoingMessage.text("slow").timeout(TIMEOUT));
    AtomicReference<Delivery> seen = new AtomicReference<>();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch told = new CountDownLatch(1);
    CountDownLatch returned = new CountDownLatch(1);
    consume(
        jobs,
        d -> {
          seen.set(d);
          d.onCancel(told::countDown);
          started.countDown();
          release.await(); // ignores the timeout until the test lets it go
          returned.countDown();
        });
    assertThat(await(started)).isTrue();
    assertThat(seen.get().timeout()).contains(TIMEOUT);

    assertThat(await(told)).as("told by its callback").isTrue();
    assertThat(seen.get().timedOut()).isTrue();
    assertThat(seen.get().cancelled()).isTrue();
    Await.until(
        BOUND,
        "retried, its own timeout replacing the queue's two hours",
        () -> jobs.message(id).orElseThrow().status() == MessageStatus.PENDING);
    QueueMessage retried = jobs.message(id).orElseThrow();
    assertThat(retried.lastError()).isEqualTo("timed out after PT0.2S on attempt 1 of 10");
    assertThat(retried.attempts()).isEqualTo(1);

    release.countDown();
    assertThat(await(returned)).isTrue();
    TenureNode node = nodes.get(0);
    Await.until(BOUND, "the retry counted", () -> node.consumerStats().get(0).retried() == 1);
    assertThat(node.consumerStats().get(0).handled()).as("its done changed nothing").isZero();
    assertThat(jobs.message(id).orElseThrow().status()).isEqualTo(MessageStatus.PENDING);
  }

  @Test
  void a_handler_past_its_queues_timeout_makes_the_message_dead_when_the_policy_says_so()
      throws Exception {
    Queue jobs = queue(QueuePolicy.defaults().withTimeout(TIMEOUT, OnTimeout.DEAD_LETTER));
    long id = jobs.enqueue(OutgoingMessage.text("slow"));
    CountDownLatch started = new CountDownLatch(1);
    consume(
        jobs,
        d -> {
          started.countDown();
          release.await();
        });
    assertThat(await(started)).isTrue();

    Await.until(BOUND, "dead", () -> jobs.message(id).orElseThrow().status() == MessageStatus.DEAD);
    assertThat(jobs.message(id).orElseThrow().lastError())
        .isEqualTo("timed out after PT0.2S on attempt 1 of 10");
  }

  @Test
  void a_handler_within_its_timeout_finishes_as_usual() throws Exception {
    Queue jobs = queue(QueuePolicy.defaults().withTimeout(Duration.ofHours(1), OnTimeout.RETRY));
    long id = jobs.enqueue(OutgoingMessage.text("quick"));
    AtomicReference<Boolean> timedOut = new AtomicReference<>();
    consume(jobs, d -> timedOut.set(d.timedOut()));

    Await.until(BOUND, "done", () -> jobs.message(id).isEmpty());
    assertThat(timedOut.get()).isFalse();
  }

  @Test
  void progress_reported_by_a_handler_is_written_and_a_checkpoint_is_read_by_the_retry()
      throws Exception {
    Duration brief = Duration.ofMillis(100);
    Queue jobs = Queue.on(queues, QUEUE, QueuePolicy.defaults().withBackoff(brief, 1.0, brief, 0));
    long id = jobs.enqueue(OutgoingMessage.text("resumable"));
    CountDownLatch reported = new CountDownLatch(1);
    CountDownLatch second = new CountDownLatch(1);
    AtomicReference<Optional<byte[]>> firstSaw = new AtomicReference<>();
    AtomicReference<Optional<byte[]>> secondSaw = new AtomicReference<>();
    consume(
        jobs,
        d -> {
          if (d.attempt() == 2) {
            secondSaw.set(d.lastCheckpoint());
            second.countDown();
            return;
          }
          firstSaw.set(d.lastCheckpoint());
          assertThat(d.checkpoint(new byte[] {4, 2})).isTrue();
          for (int i = 1; i <= 100; i++) {
            d.progress(i / 200.0, "step " + i); // many reports, the latest written
          }
          reported.countDown();
          release.await();
          throw new IllegalStateException("fails after its checkpoint");
        });
    assertThat(await(reported)).isTrue();

    Await.until(
        BOUND,
        "the latest progress written",
        () ->
            new MessageProgress(0.5, "step 100").equals(jobs.message(id).orElseThrow().progress()));
    assertThat(firstSaw.get()).isEmpty();
    release.countDown();

    assertThat(await(second)).as("retried").isTrue();
    assertThat(secondSaw.get())
        .hasValueSatisfying(saved -> assertThat(saved).containsExactly(4, 2));
    Await.until(BOUND, "done", () -> jobs.message(id).isEmpty());
  }
}
