package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.AgentUri;
import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.spi.AgentGuard;
import io.tenure.spi.AgentStore;
import io.tenure.spi.AssignmentWrite;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.EnqueueResult;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.NewMessage;
import io.tenure.spi.QueueStore;
import io.tenure.spi.ReclaimRule;
import io.tenure.spi.Resolution;
import io.tenure.spi.Resolution.DeadLetter;
import io.tenure.spi.Resolution.Outcome;
import io.tenure.spi.ResolveResult;
import io.tenure.spi.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;

/**
 * The queue kit's shared fixture and helpers (SPEC §6): a fresh store per test, a leader fence, and
 * the messages, claims and resolves the area classes ({@code Queue*ComplianceTest}) are written
 * with. A provider runs every area with a wiring-only subclass of each.
 */
public abstract class QueueKit extends FixtureSupport {
  static final String QUEUE = "orders";
  static final String OTHER = "billing";
  static final AgentUri EXCLUSIVE = AgentUri.parse("queue://orders");
  static final Duration LEASE = Duration.ofMinutes(5);
  static final Duration SHORT = Duration.ofMillis(200);
  static final Duration LATER = Duration.ofHours(1);

  /** Rounding between the store's time precision and Java's. */
  /** Deeper than any claim's window of the queue's front (JDBC: max(4 x claim, 1,000) rows). */
  static final int DEEP = 5000;

  static final Duration SLACK = Duration.ofMillis(10);

  Store store;
  QueueStore queues;
  AgentStore agents;
  final String a = UUID.randomUUID().toString();
  final String b = UUID.randomUUID().toString();
  LeaderFence fence;

  /** The tables of this test's {@link #store}, for tests that open more stores on them. */
  io.tenure.spi.TablePrefix prefix;

  @BeforeEach
  void openStore() {
    prefix = freshPrefix();
    store = fixture.open(prefix);
    queues = store.queues();
    agents = store.agents();
    String leader = UUID.randomUUID().toString();
    fence = new LeaderFence(leader, store.leases().acquire(leader, LEASE).orElseThrow().epoch());
  }

  // ---- helpers

  /** A reclaim rule for tests that need no dead letters: every expired message pending again. */
  static final ReclaimRule REPEND_ALL = expired -> new ReclaimRule.Repend();

  static NewMessage message(
      String queue,
      @Nullable String key,
      int priority,
      int maxAttempts,
      Duration delay,
      @Nullable String dedupeKey) {
    return new NewMessage(
        queue,
        key,
        new byte[] {1, 2, 3},
        "text/plain",
        Map.of(),
        priority,
        maxAttempts,
        delay,
        dedupeKey);
  }

  static NewMessage message(String queue) {
    return message(queue, null, 0, 3, Duration.ZERO, null);
  }

  static NewMessage keyed(@Nullable String key, Duration delay) {
    return message(QUEUE, key, 0, 3, delay, null);
  }

  static NewMessage attempts(int maxAttempts) {
    return message(QUEUE, null, 0, maxAttempts, Duration.ZERO, null);
  }

  static NewMessage deduped(String queue, String dedupeKey) {
    return message(queue, null, 0, 3, Duration.ZERO, dedupeKey);
  }

  long enqueue(NewMessage message) {
    return queues.enqueue(List.of(message)).get(0).id();
  }

  List<Long> enqueueMany(int count, @Nullable String key) {
    List<NewMessage> batch = Collections.nCopies(count, keyed(key, Duration.ZERO));
    return queues.enqueue(batch).stream().map(EnqueueResult::id).toList();
  }

  List<QueueMessage> claim(String node, int max, Duration lease) {
    return queues.claim(ClaimRequest.of(QUEUE, node, max, lease));
  }

  List<QueueMessage> claim(int max) {
    return claim(a, max, LEASE);
  }

  List<Long> claimedIds(int max) {
    return claim(max).stream().map(QueueMessage::id).toList();
  }

  QueueMessage claimOne(Duration lease) {
    List<QueueMessage> claimed = claim(a, 1, lease);
    assertThat(claimed).as("one message to claim").hasSize(1);
    return claimed.get(0);
  }

  QueueMessage claimOne() {
    return claimOne(LEASE);
  }

  /** Enqueues one message and claims it: it must be the only one available. */
  QueueMessage enqueueAndClaim(NewMessage message) {
    long id = enqueue(message);
    QueueMessage claimed = queues.claim(ClaimRequest.of(message.queue(), a, 1, LEASE)).get(0);
    assertThat(claimed.id()).isEqualTo(id);
    return claimed;
  }

  ResolveResult resolve(QueueMessage message, Outcome outcome) {
    return resolve(message.claim(), outcome);
  }

  ResolveResult resolve(MessageClaim claim, Outcome outcome) {
    return queues.resolve(List.of(new Resolution(claim, outcome)), null);
  }

  ResolveResult resolve(QueueMessage message, Outcome outcome, AgentGuard guard) {
    return queues.resolve(List.of(new Resolution(message.claim(), outcome)), guard);
  }

  void resolveApplied(QueueMessage message, Outcome outcome) {
    assertThat(resolve(message, outcome).applied()).containsExactly(message.id());
  }

  long deadLetter(String queue, @Nullable String key, String error) {
    QueueMessage claimed = enqueueAndClaim(message(queue, key, 0, 3, Duration.ZERO, null));
    resolveApplied(claimed, new DeadLetter(error));
    return claimed.id();
  }

  QueueMessage stored(long id) {
    return queues.find(id).orElseThrow(() -> new AssertionError("message " + id + " is missing"));
  }

  List<QueueMessage> all(String queue) {
    return queues.list(new MessageQuery(queue, null, null, null, null, 0, 10_000));
  }

  static MessageQuery dead(
      @Nullable String key, @Nullable String errorContains, @Nullable Duration olderThan) {
    return new MessageQuery(QUEUE, MessageStatus.DEAD, key, errorContains, olderThan, 0, 100);
  }

  List<Long> ids(MessageQuery query) {
    return queues.list(query).stream().map(QueueMessage::id).toList();
  }

  /**
   * {@code actual} is {@code offset} after the database's now, taken between {@code before} and
   * this call.
   */
  void assertFromNow(@Nullable Instant actual, Duration offset, Instant before) {
    assertThat(actual)
        .isBetween(before.plus(offset).minus(SLACK), store.now().plus(offset).plus(SLACK));
  }

  static void assertPendingUnclaimed(QueueMessage message, int attempts) {
    assertThat(message.status()).isEqualTo(MessageStatus.PENDING);
    assertThat(message.ownerNode()).isNull();
    assertThat(message.claimToken()).isNull();
    assertThat(message.leaseUntil()).isNull();
    assertThat(message.attempts()).isEqualTo(attempts);
  }

  AgentGuard ownExclusiveQueue(String node) {
    assertThat(agents.place(EXCLUSIVE, node, fence)).isEqualTo(AssignmentWrite.APPLIED);
    return new AgentGuard(EXCLUSIVE, node, agents.claim(EXCLUSIVE, node).orElseThrow());
  }

  /** The owner lets the agent go and claims it again: the old guard's epoch is stale. */
  AgentGuard reclaimAgent(AgentGuard guard) {
    assertThat(agents.release(EXCLUSIVE, guard.nodeId())).isTrue();
    AgentGuard next =
        new AgentGuard(
            EXCLUSIVE, guard.nodeId(), agents.claim(EXCLUSIVE, guard.nodeId()).orElseThrow());
    assertThat(next.epoch()).isGreaterThan(guard.epoch());
    return next;
  }

  List<QueueMessage> claimStrict(AgentGuard guard, int max) {
    return queues.claim(new ClaimRequest(QUEUE, guard.nodeId(), max, LEASE, true, guard));
  }
}
