package io.tenure.chaos;

import io.tenure.Agent;
import io.tenure.AgentContext;
import io.tenure.AgentFamily;
import io.tenure.AgentUri;
import io.tenure.Delivery;
import io.tenure.DemotionReason;
import io.tenure.MissedSlots;
import io.tenure.NodeListener;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueueLimits;
import io.tenure.QueuePolicy;
import io.tenure.Schedule;
import io.tenure.Schedules;
import io.tenure.Tenure;
import io.tenure.TenureNodeBuilder;
import io.tenure.spi.Store;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chaos run's workload, the same in every node process and in the supervisor that feeds it:
 *
 * <ul>
 *   <li>queue {@code fifo}: FIFO per key (8 keys), consumed by every node, 4 handlers;
 *   <li>queue {@code unordered}: no key, every node, 4 handlers;
 *   <li>queue {@code exclusive}: consumed in strict order by the agent {@code queue://exclusive};
 *   <li>queue {@code limited}: no key, messages in {@link #GROUPS} groups, at most {@link #LIMITS}
 *       in flight across the cluster (3, and 1 per group), every node, 4 handlers working {@link
 *       #LIMITED_WORK} each, so the limits bind;
 *   <li>agents {@code worker://worker-1..6} and {@code singleton://singleton}: each writes the
 *       fenced register with its ownership epoch every {@link #TICK} while it runs;
 *   <li>schedules {@code every-second} and {@code every-5s} ({@link #schedules}), declared by every
 *       node at its start, enqueueing to the queue {@code scheduled}, which every node consumes;
 *   <li>named locks ({@link LockWorkload}): every node takes each in turn and makes fenced writes
 *       while it holds it.
 * </ul>
 *
 * Every handler's start and end, agent start and stop, register write, leadership gain, schedule
 * declaration, handled slot and fenced lock write is appended to the {@link History} by the process
 * where it happened.
 */
public final class ChaosWorkload {
  public static final String FIFO = "fifo";
  public static final String UNORDERED = "unordered";
  public static final String EXCLUSIVE = "exclusive";
  public static final String LIMITED = "limited";
  public static final int KEYS = 8;

  /** The limited queue's groups. */
  public static final int GROUPS = 4;

  /** The limited queue's limits, set by the harness before the nodes start (SPEC §12.1). */
  public static final QueueLimits LIMITS =
      QueueLimits.none().withMaxInFlight(3).withMaxInFlightPerGroup(1);

  /**
   * How long a limited queue's handler works: long enough that the limits bind (~1.5 in flight).
   */
  static final Duration LIMITED_WORK = Duration.ofMillis(250);

  /** The queue the run's schedules enqueue to. */
  public static final String SCHEDULED = "scheduled";

  /** A schedule with a slot every second. */
  public static final String EVERY_SECOND = "every-second";

  /** A schedule with a slot every 5 seconds. */
  public static final String EVERY_5S = "every-5s";

  /**
   * The most slots a schedule fires in one go after an outage: far more than any run's outage
   * holds, so no slot is ever skipped.
   */
  static final int CATCH_UP = 1_000;

  /** How long done messages of {@link #SCHEDULED} stay: the whole run, for the final check. */
  static final Duration KEEP_DONE = Duration.ofDays(1);

  /** How long a handler works by default: a little, so claims overlap with handling. */
  public static final Duration DEFAULT_WORK = Duration.ofMillis(2);

  /** How often a running agent writes its register. */
  static final Duration TICK = Duration.ofMillis(100);

  private static final Logger LOG = LoggerFactory.getLogger(ChaosWorkload.class);

  private ChaosWorkload() {}

  /** The run's queues on {@code store}, with a short lease so reclaims happen within the run. */
  public static Queue queue(Store store, String name) {
    return Queue.on(store.queues(), name, policy(name));
  }

  /**
   * A queue's policy: a short lease, and for {@link #SCHEDULED} its done messages kept, so that the
   * final check finds every slot's message in the table.
   */
  static QueuePolicy policy(String queue) {
    QueuePolicy policy =
        QueuePolicy.defaults()
            .withLease(Duration.ofSeconds(5))
            .withBackoff(Duration.ofMillis(100), 2.0, Duration.ofSeconds(2), 0.2)
            .withMaxAttempts(1_000);
    return queue.equals(SCHEDULED) ? policy.withRetention(KEEP_DONE, KEEP_DONE) : policy;
  }

  /**
   * The run's schedules, on whole seconds and whole multiples of 5 s, catching up every missed slot
   * (up to {@link #CATCH_UP} at once).
   */
  static List<Schedule> schedules(Queue scheduled) {
    return List.of(
        Schedule.every(EVERY_SECOND, Duration.ofSeconds(1))
            .enqueue(scheduled, OutgoingMessage.text("tick"))
            .missedSlots(MissedSlots.catchUp(CATCH_UP)),
        Schedule.every(EVERY_5S, Duration.ofSeconds(5))
            .enqueue(scheduled, OutgoingMessage.text("tock"))
            .missedSlots(MissedSlots.catchUp(CATCH_UP)));
  }

  /** The schedules every run expects to find at the end. */
  public static Set<String> expectedSchedules() {
    return Set.of(EVERY_SECOND, EVERY_5S);
  }

  /**
   * Declares the run's schedules as an application does at its start, each node the same ones: the
   * queue opened on {@code tenure}, then each schedule, recorded with the store's answer. Retried
   * while the database is away; a node that cannot declare runs on (another node has).
   */
  static void declareSchedules(Tenure tenure, History history, String node)
      throws InterruptedException {
    Schedules schedules = tenure.schedules();
    for (Schedule schedule : schedules(tenure.queue(SCHEDULED, policy(SCHEDULED)))) {
      for (int attempt = 1; ; attempt++) {
        try {
          Schedules.Declared declared = schedules.declare(schedule);
          history.record(
              HistoryEvent.Kind.SCHEDULE_DECLARED,
              node,
              null,
              schedule.name(),
              0,
              null,
              0,
              null,
              declared.name());
          break;
        } catch (RuntimeException e) {
          LOG.warn(
              "could not declare schedule {} (attempt {}): {}",
              schedule.name(),
              attempt,
              e.toString());
          if (attempt == 20) {
            break;
          }
          Thread.sleep(500);
        }
      }
    }
  }

  /** What the producer sends as message {@code sequence} of {@code queue}. */
  public static OutgoingMessage message(String queue, long sequence) {
    OutgoingMessage message = OutgoingMessage.text(queue + "-" + sequence);
    return switch (queue) {
      case FIFO -> message.key("key-" + sequence % KEYS);
      case LIMITED -> message.group("g" + sequence % GROUPS);
      default -> message;
    };
  }

  /** The history key of a message: its ordering key, or the exclusive queue's one sequence. */
  public static String historyKey(String queue, long sequence) {
    return switch (queue) {
      case FIFO -> "key-" + sequence % KEYS;
      case EXCLUSIVE -> HistoryEvent.EXCLUSIVE;
      default -> null;
    };
  }

  /** The agents every run expects to see running once at the end. */
  public static Set<String> expectedAgents() {
    Set<String> agents = new LinkedHashSet<>();
    for (int i = 1; i <= 6; i++) {
      agents.add("worker://worker-" + i);
    }
    agents.add("singleton://singleton");
    agents.add("queue://" + EXCLUSIVE);
    return agents;
  }

  /**
   * Registers the workload on a node.
   *
   * @param guarded false only for the negative control that shows the checker catches unfenced
   *     writes: the register then accepts any epoch
   * @param work how long the handler of a FIFO message works ({@link #DEFAULT_WORK} unless a run
   *     asks for slow handlers)
   */
  public static TenureNodeBuilder register(
      TenureNodeBuilder builder,
      Store store,
      History history,
      String node,
      boolean guarded,
      Duration work) {
    return builder
        .consumer(queue(store, FIFO), 4, delivery -> handled(history, node, delivery, work))
        .consumer(
            queue(store, UNORDERED), 4, delivery -> handled(history, node, delivery, DEFAULT_WORK))
        .exclusiveConsumer(
            queue(store, EXCLUSIVE), delivery -> handled(history, node, delivery, DEFAULT_WORK))
        .consumer(
            queue(store, LIMITED), 4, delivery -> handled(history, node, delivery, LIMITED_WORK))
        .consumer(queue(store, SCHEDULED), 2, delivery -> slotHandled(history, node, delivery))
        .agentFamily(family("worker", 6, history, node, guarded))
        .agentFamily(family("singleton", 1, history, node, guarded))
        .listener(
            new NodeListener() {
              @Override
              public void onPromoted(long epoch) {
                // Listeners must not block the elector: the line is written on a thread of its own,
                // retried while the database is away (a restart, killed sessions).
                Thread.ofVirtual()
                    .name("chaos-leader-" + epoch)
                    .start(
                        () -> {
                          for (int attempt = 1; attempt <= 30; attempt++) {
                            try {
                              history.record(
                                  HistoryEvent.Kind.LEADER,
                                  node,
                                  null,
                                  null,
                                  0,
                                  null,
                                  epoch,
                                  null,
                                  null);
                              return;
                            } catch (RuntimeException e) {
                              LOG.warn(
                                  "could not record leadership at epoch {} (attempt {}): {}",
                                  epoch,
                                  attempt,
                                  e.toString());
                              try {
                                Thread.sleep(500);
                              } catch (InterruptedException stop) {
                                return;
                              }
                            }
                          }
                        });
              }

              @Override
              public void onDemoted(long epoch, DemotionReason reason) {
                LOG.info("demoted from epoch {}: {}", epoch, reason);
              }
            });
  }

  /**
   * Samples the node's own belief that it leads, every few milliseconds, and records each interval
   * as {@code LEADING} / {@code LEADING_ENDED} with the times of its first and last sample (SPEC
   * §4.7: never two nodes at once). A frozen process samples nothing, so its interval ends at its
   * last sample before the freeze. The samples go on while an edge is being written (retried until
   * the database answers).
   */
  public static void sampleLeadership(io.tenure.TenureNode node, History history, String name) {
    Thread.ofPlatform()
        .daemon()
        .name("chaos-leading")
        .start(
            () -> {
              long epoch = 0;
              long lastSeen = 0;
              while (true) {
                var fence = node.leaderFence();
                long now = System.nanoTime();
                if (fence.isPresent() && fence.get().epoch() == epoch) {
                  lastSeen = now;
                } else {
                  if (epoch != 0) {
                    recordLeading(history, HistoryEvent.Kind.LEADING_ENDED, name, epoch, lastSeen);
                  }
                  epoch = fence.map(f -> f.epoch()).orElse(0L);
                  if (epoch != 0) {
                    lastSeen = now;
                    recordLeading(history, HistoryEvent.Kind.LEADING, name, epoch, now);
                  }
                }
                try {
                  Thread.sleep(SAMPLE_EVERY);
                } catch (InterruptedException e) {
                  return;
                }
              }
            });
  }

  private static final Duration SAMPLE_EVERY = Duration.ofMillis(5);

  private static void recordLeading(
      History history, HistoryEvent.Kind kind, String name, long epoch, long seenAt) {
    for (int attempt = 1; ; attempt++) {
      try {
        history.recordLeading(kind, name, epoch, seenAt);
        return;
      } catch (RuntimeException e) {
        LOG.warn(
            "could not record {} at epoch {} (attempt {}): {}", kind, epoch, attempt, e.toString());
        try {
          Thread.sleep(Math.min(1_000, 50L * attempt));
        } catch (InterruptedException stop) {
          return;
        }
      }
    }
  }

  private static void handled(History history, String node, Delivery delivery, Duration work)
      throws InterruptedException {
    var message = delivery.message();
    String key = message.queue().equals(EXCLUSIVE) ? HistoryEvent.EXCLUSIVE : message.key();
    // The start, for the one-in-flight-per-key check (and a full interval in the history); for the
    // limited queue with the claim's group and lease, for the limits check.
    history.record(
        HistoryEvent.Kind.HANDLING,
        node,
        message.queue(),
        key,
        message.id(),
        null,
        message.attempts(),
        message.claimToken(),
        message.queue().equals(LIMITED)
            ? "group=" + message.group() + " leaseUntil=" + message.leaseUntil()
            : null);
    Thread.sleep(work); // some work, so claims overlap with handling
    history.record(
        HistoryEvent.Kind.HANDLED,
        node,
        message.queue(),
        key,
        message.id(),
        null,
        message.attempts(),
        message.claimToken(),
        null);
  }

  /** A schedule's message handled: recorded with the schedule and slot its dedupe key names. */
  private static void slotHandled(History history, String node, Delivery delivery)
      throws InterruptedException {
    var message = delivery.message();
    Thread.sleep(DEFAULT_WORK);
    Optional<SlotKey> slot = SlotKey.parse(message.dedupeKey());
    if (slot.isEmpty()) {
      LOG.warn("message {} of {} names no slot: {}", message.id(), SCHEDULED, message.dedupeKey());
      return;
    }
    history.record(
        HistoryEvent.Kind.SLOT_HANDLED,
        node,
        message.queue(),
        slot.get().schedule(),
        message.id(),
        null,
        slot.get().micros(),
        message.claimToken(),
        message.dedupeKey());
  }

  private static AgentFamily family(
      String scheme, int count, History history, String node, boolean guarded) {
    Set<AgentUri> wanted = new LinkedHashSet<>();
    for (int i = 1; i <= count; i++) {
      wanted.add(new AgentUri(scheme, count == 1 ? scheme : scheme + "-" + i));
    }
    Map<AgentUri, Thread> running = new ConcurrentHashMap<>();
    return AgentFamily.of(
        scheme,
        wanted,
        uri -> {
          return new Agent() {
            @Override
            public void start(AgentContext context) {
              long epoch = context.ownershipEpoch();
              history.record(
                  HistoryEvent.Kind.AGENT_STARTED,
                  node,
                  null,
                  null,
                  0,
                  uri.toString(),
                  epoch,
                  null,
                  null);
              running.put(
                  uri,
                  Thread.ofVirtual()
                      .name("chaos-" + uri)
                      .start(
                          () -> {
                            while (!Thread.currentThread().isInterrupted()) {
                              try {
                                history.fencedWrite(uri.toString(), node, epoch, guarded);
                                Thread.sleep(TICK);
                              } catch (InterruptedException e) {
                                return;
                              } catch (RuntimeException e) {
                                LOG.warn("agent {}: register write failed: {}", uri, e.toString());
                              }
                            }
                          }));
            }

            @Override
            public void stop(AgentContext context) throws InterruptedException {
              Thread loop = running.remove(uri);
              if (loop != null) {
                // Joined to the end: once stop returns, this node never writes the register for
                // this start again, which is what the checker's refused-write rule relies on.
                loop.interrupt();
                loop.join();
              }
              history.record(
                  HistoryEvent.Kind.AGENT_STOPPED,
                  node,
                  null,
                  null,
                  0,
                  uri.toString(),
                  context.ownershipEpoch(),
                  null,
                  null);
            }
          };
        });
  }
}
