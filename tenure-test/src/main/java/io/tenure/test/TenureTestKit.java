package io.tenure.test;

import io.tenure.MessageHandler;
import io.tenure.MessageStatus;
import io.tenure.Queue;
import io.tenure.QueueMessage;
import io.tenure.ScheduleInfo;
import io.tenure.Tenure;
import io.tenure.TenureNodeBuilder;
import io.tenure.spi.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * One test's Tenure with its clock, and what a test does with them: drain a queue synchronously,
 * fire due schedules, and assert on messages and schedules. {@link TenureExtension} injects one per
 * test method (with the same {@link Tenure} and {@link TestClock} it injects); outside JUnit, open
 * one with {@link #inMemory()}, {@link #sqlite()} or {@link #url} and close it.
 *
 * <pre>{@code
 * @TenureTest
 * class SignupTest {
 *   @Test
 *   void a_welcome_email_is_retried_after_its_backoff(Tenure tenure, TestClock clock, TenureTestKit kit) {
 *     Queue emails = tenure.queue("emails", QueuePolicy.defaults());
 *     emails.enqueue(OutgoingMessage.text("welcome user 7"));
 *     kit.handle(emails, delivery -> mailer.send(delivery.text()));
 *     ...
 *   }
 * }
 * }</pre>
 *
 * Not thread-safe: drive it from the test's thread.
 */
public final class TenureTestKit implements AutoCloseable {
  private final FreshStore fresh;
  private final Map<String, MessageHandler> handlers = new ConcurrentHashMap<>();
  private final Drainer drainer;
  private final ScheduleDriver schedules;
  private final MessageAssertions assertions;

  TenureTestKit(FreshStore fresh) {
    this.fresh = fresh;
    Store store = fresh.tenure().store();
    this.drainer = new Drainer(store.queues(), fresh.clock().ticker());
    this.schedules = new ScheduleDriver(store, fresh.tenure().admin(), fresh.clock());
    this.assertions =
        new MessageAssertions(store.queues(), fresh.tenure().schedules(), fresh.clock()::now);
  }

  /**
   * @return a kit on a fresh in-memory store whose clock starts at {@link TestClock#DEFAULT_START};
   *     close it when done
   */
  public static TenureTestKit inMemory() {
    return inMemory(TestClock.DEFAULT_START);
  }

  /**
   * @param start where the store's clock starts
   * @return a kit on a fresh in-memory store; close it when done
   * @throws IllegalArgumentException if {@code start} is null
   */
  public static TenureTestKit inMemory(Instant start) {
    if (start == null) {
      throw new IllegalArgumentException("start of the test clock must not be null");
    }
    return new TenureTestKit(FreshStore.inMemory(start));
  }

  /**
   * Needs {@code io.tenure:tenure-jdbc} on the class path.
   *
   * @return a kit on a SQLite file in a new temporary folder, deleted on close
   * @throws io.tenure.UnsupportedDatabaseException if tenure-jdbc is not on the class path
   */
  public static TenureTestKit sqlite() {
    return new TenureTestKit(FreshStore.sqlite());
  }

  /**
   * Needs {@code io.tenure:tenure-jdbc} and the database's driver on the class path.
   *
   * @param jdbcUrl a PostgreSQL, MariaDB or MySQL database, e.g. {@code
   *     jdbc:postgresql://127.0.0.1:5432/test?user=postgres}
   * @return a kit on a random table prefix of its own in that database, whose tables are dropped on
   *     close
   * @throws IllegalArgumentException if the URL is null or not a {@code jdbc:} URL
   * @throws io.tenure.StoreUnavailableException if the database cannot be reached
   */
  public static TenureTestKit url(String jdbcUrl) {
    return new TenureTestKit(FreshStore.url(FreshStore.checkUrl(jdbcUrl)));
  }

  /**
   * @return the store, open until the test ends
   */
  public Tenure tenure() {
    return fresh.tenure();
  }

  /**
   * @return the store's clock: moved by the test on the in-memory store, the database's elsewhere
   */
  public TestClock clock() {
    return fresh.clock();
  }

  /**
   * A node builder on this store whose local deadlines follow {@link #clock()}: on the in-memory
   * store its heartbeats, lease renewals and polls come due only as the test advances the clock
   * (its threads still run on their own, so wait for what they do). Close the node before the test
   * ends.
   *
   * @return {@code tenure().node().ticker(clock().ticker())}
   */
  public TenureNodeBuilder node() {
    return tenure().node().ticker(clock().ticker());
  }

  /**
   * Registers the handler {@link #drain(Queue)} runs for {@code queue}, as a node's {@code
   * consumer(queue, ...)} would.
   *
   * @return this kit
   * @throws IllegalArgumentException if an argument is null, or the queue has a handler already
   */
  public TenureTestKit handle(Queue queue, MessageHandler handler) {
    requireQueue(queue);
    if (handler == null) {
      throw new IllegalArgumentException("handler must not be null");
    }
    if (handlers.putIfAbsent(queue.name(), handler) != null) {
      throw new IllegalArgumentException(
          "queue '" + queue.name() + "' has a handler already in this test");
    }
    return this;
  }

  /**
   * Runs the handler registered with {@link #handle} on every message of {@code queue} available
   * now, as {@link #drain(Queue, MessageHandler)} does.
   *
   * @throws IllegalArgumentException if {@code queue} is null
   * @throws IllegalStateException if no handler is registered for it
   */
  public DrainResult drain(Queue queue) {
    requireQueue(queue);
    MessageHandler handler = handlers.get(queue.name());
    if (handler == null) {
      throw new IllegalStateException(
          "no handler for queue '"
              + queue.name()
              + "': register one with kit.handle(queue, handler), or call drain(queue, handler)");
    }
    return drainer.drain(queue, handler);
  }

  /**
   * Runs {@code handler} on the calling thread on every message of {@code queue} that is available
   * now by the store's clock, one at a time, oldest of the highest priority first and one per key
   * at a time, through the store's own claim and resolve, until none is left: what a node's
   * consumer would do, with the queue's policy. A handler that returns marks its message done; one
   * that throws (an {@link AssertionError} too) retries it after the policy's backoff, so it is not
   * drained again until the clock passes that, or makes it a dead letter once out of attempts or at
   * once for a non-retryable type; one that runs past its timeout by the test clock is resolved as
   * the policy's {@link io.tenure.OnTimeout} says. Messages enqueued by the handler to this queue
   * and available now are drained too. A paused queue drains nothing; its limits apply.
   *
   * @return what became of each attempt, with every failure
   * @throws IllegalArgumentException if an argument is null
   * @throws IllegalStateException if messages were still available after 10,000 attempts
   */
  public DrainResult drain(Queue queue, MessageHandler handler) {
    requireQueue(queue);
    if (handler == null) {
      throw new IllegalArgumentException("handler must not be null");
    }
    return drainer.drain(queue, handler);
  }

  /**
   * @return when the queue's next waiting message becomes available (a delayed one, or a retry
   *     after its backoff), or empty if none waits; pass it to {@link TestClock#set} to step to it
   * @throws IllegalArgumentException if {@code queue} is null
   */
  public Optional<Instant> nextAvailable(Queue queue) {
    requireQueue(queue);
    return assertions.all(queue.name()).stream()
        .filter(m -> m.status() == MessageStatus.PENDING)
        .map(QueueMessage::availableAt)
        .min(Instant::compareTo);
  }

  /**
   * Fires every schedule slot due by the store's clock, as the cluster's leader would on its next
   * look: slots more than a schedule's {@code missedAfter} late are missed ones, fired as its
   * missed-slot policy says. Takes the leader lease for the call and releases it at once.
   *
   * @return how many slots fired (each enqueued its message)
   * @throws IllegalStateException if a node holds the leader lease: it fires them itself (nothing
   *     fired)
   */
  public long fireDueSchedules() {
    return schedules.fireDue();
  }

  /**
   * Advances the clock by {@code by} as a live leader would see it pass: the clock stops at each
   * schedule slot on the way and the slot fires on time, then the clock goes on to the end.
   * In-memory store only.
   *
   * @return how many slots fired
   * @throws IllegalArgumentException if {@code by} is null or negative
   * @throws UnsupportedOperationException on a SQLite or server store, whose clock cannot move
   * @throws IllegalStateException if a node holds the leader lease
   */
  public long advanceFiringSchedules(Duration by) {
    return schedules.advanceFiring(by);
  }

  /**
   * Asserts that at least one message of {@code queue} waiting or in flight (whatever its available
   * time) matches; {@link Messages} has described predicates.
   *
   * @return the matching messages, oldest first
   * @throws org.opentest4j.AssertionFailedError if none matches, listing what the queue holds
   * @throws IllegalArgumentException if an argument is null
   */
  public List<QueueMessage> assertEnqueued(Queue queue, Predicate<? super QueueMessage> matching) {
    requireQueue(queue);
    return assertions.enqueued(queue.name(), -1, requirePredicate(matching));
  }

  /**
   * Asserts that exactly {@code count} messages of {@code queue} waiting or in flight match.
   *
   * @return the matching messages, oldest first
   * @throws org.opentest4j.AssertionFailedError if another number matches, listing the queue
   * @throws IllegalArgumentException if an argument is null or {@code count} is negative
   */
  public List<QueueMessage> assertEnqueued(
      Queue queue, int count, Predicate<? super QueueMessage> matching) {
    requireQueue(queue);
    if (count < 0) {
      throw new IllegalArgumentException("expected count must be 0 or more, got " + count);
    }
    return assertions.enqueued(queue.name(), count, requirePredicate(matching));
  }

  /**
   * Asserts that at least one dead letter of {@code queue} matches.
   *
   * @return the matching dead letters, oldest first
   * @throws org.opentest4j.AssertionFailedError if none matches, listing what the queue holds
   * @throws IllegalArgumentException if an argument is null
   */
  public List<QueueMessage> assertDeadLettered(
      Queue queue, Predicate<? super QueueMessage> matching) {
    requireQueue(queue);
    return assertions.deadLettered(queue.name(), requirePredicate(matching));
  }

  /**
   * Asserts that the schedule's next slot is {@code expected}.
   *
   * @return the schedule as read
   * @throws org.opentest4j.AssertionFailedError if it is another, or there is no such schedule,
   *     saying where it stands (or which schedules there are)
   * @throws IllegalArgumentException if an argument is null or the name is invalid
   */
  public ScheduleInfo assertScheduledNext(String scheduleName, Instant expected) {
    io.tenure.Schedule.checkName(scheduleName);
    if (expected == null) {
      throw new IllegalArgumentException("expected instant must not be null");
    }
    return assertions.scheduledNext(scheduleName, expected);
  }

  /** Closes the store and removes it (the SQLite folder, the server prefix's tables). */
  @Override
  public void close() {
    fresh.close();
  }

  @Override
  public String toString() {
    return "TenureTestKit[" + tenure() + ", " + clock() + "]";
  }

  private static void requireQueue(Queue queue) {
    if (queue == null) {
      throw new IllegalArgumentException("queue must not be null");
    }
  }

  private static <T> Predicate<T> requirePredicate(Predicate<T> matching) {
    if (matching == null) {
      throw new IllegalArgumentException("predicate must not be null; Messages.any() matches all");
    }
    return matching;
  }
}
