package io.tenure.cli;

import io.tenure.Agent;
import io.tenure.AgentContext;
import io.tenure.AgentFamily;
import io.tenure.AgentUri;
import io.tenure.Delivery;
import io.tenure.Locks;
import io.tenure.Markers;
import io.tenure.MissedSlots;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.Schedule;
import io.tenure.Tenure;
import io.tenure.TenureNodeBuilder;
import io.tenure.TransitionResult;
import io.tenure.spi.Store;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The demo's sample work, the same in every node process and in the supervisor that feeds it:
 *
 * <ul>
 *   <li>queue {@code orders}, FIFO per customer key, consumed by every node (concurrency 4);
 *   <li>queue {@code ledger}, exclusive: the agent {@code queue://ledger} consumes it on one node
 *       in strict order;
 *   <li>every handled message leaves a marker {@code demo-handled/msg-ID}; a second delivery of one
 *       message leaves {@code demo-dup/msg-ID}, so the supervisor counts duplicates from the store;
 *   <li>a "flaky" message fails on its first delivery ever with a non-retryable error, so it
 *       becomes a dead letter at once, and is handled when replayed (from the console or {@code
 *       tenure dlq});
 *   <li>the schedule {@code demo-report}, declared by every node, enqueues a message on queue
 *       {@code reports} every 10 s; the node that gets it builds the "report" under the named lock
 *       {@code demo-report} ({@code runExclusively}), so the console shows a schedule and a lock.
 * </ul>
 */
final class DemoWorkload {
  static final String ORDERS = "orders";
  static final String LEDGER = "ledger";
  static final String REPORTS = "reports";
  static final String REPORT = "demo-report";
  static final String HANDLED = "demo-handled";
  static final String DUPLICATE = "demo-dup";
  static final String FLAKY_HEADER = "demo-flaky";
  private static final String FLAKY = "demo-flaky-seen";
  private static final Logger LOG = LoggerFactory.getLogger(DemoWorkload.class);

  private DemoWorkload() {}

  /** The demo's queues on {@code store}, with the demo's policy. */
  static Queue queue(Store store, String name) {
    return Queue.on(
        store.queues(),
        name,
        QueuePolicy.defaults()
            .withMaxAttempts(5)
            .withBackoff(Duration.ofMillis(200), 2.0, Duration.ofSeconds(5), 0.2)
            .withLease(Duration.ofSeconds(10))
            .withNonRetryable(FlakyFailure.class));
  }

  /**
   * Registers the demo's consumers on a node and declares its schedule, as every node of an
   * application would at start (the same declaration again changes nothing).
   */
  static TenureNodeBuilder consume(TenureNodeBuilder builder, Store store, String nodeName) {
    Markers markers = Markers.builder(store.markers()).build();
    // Over the node's store, which the node command closes: this Tenure is not closed.
    Tenure tenure = Tenure.on(store, nodeName);
    Queue reports = tenure.queue(REPORTS, QueuePolicy.defaults().withMaxAttempts(3));
    tenure
        .schedules()
        .declare(
            Schedule.every(REPORT, Duration.ofSeconds(10))
                .enqueue(reports, OutgoingMessage.text("build the demo report"))
                .missedSlots(MissedSlots.latest()));
    Locks locks = tenure.locks();
    return builder
        .consumer(queue(store, ORDERS), 4, delivery -> handle(markers, delivery))
        .exclusiveConsumer(queue(store, LEDGER), delivery -> handle(markers, delivery))
        .consumer(reports, 1, delivery -> report(locks, delivery));
  }

  /** A report: under the lock, kept 5 s after it was taken, so the console shows it held. */
  private static void report(Locks locks, Delivery delivery) throws Exception {
    boolean ran =
        locks.runExclusively(
            REPORT,
            Duration.ofSeconds(30),
            Duration.ofSeconds(5),
            lock ->
                LOG.info(
                    "report for message {} built under lock {} at token {}",
                    delivery.message().id(),
                    lock.name(),
                    lock.token()));
    if (!ran) {
      LOG.info(
          "report for message {} skipped: another node holds the lock", delivery.message().id());
    }
  }

  private static void handle(Markers markers, Delivery delivery) {
    String resource = "msg-" + delivery.message().id();
    if (delivery.message().headers().containsKey(FLAKY_HEADER)
        && markers.transition(FLAKY, resource, "SEEN", null) instanceof TransitionResult.Applied) {
      throw new FlakyFailure(
          "message "
              + delivery.message().id()
              + " is flaky: it fails on its first delivery;"
              + " replay it and it goes through");
    }
    if (!(markers.transition(HANDLED, resource, "HANDLED", null)
        instanceof TransitionResult.Applied)) {
      markers.transition(DUPLICATE, resource, "DUPLICATE", null);
      LOG.warn(
          "message {} of {} was delivered again",
          delivery.message().id(),
          delivery.message().queue());
    }
  }

  /** What the supervisor sends: every {@code flakyEvery}-th message is flaky. */
  static OutgoingMessage message(long sequence, int flakyEvery) {
    OutgoingMessage message =
        OutgoingMessage.text("{\"order\":" + sequence + "}")
            .contentType("application/json")
            .key("customer-" + sequence % 7);
    return flakyEvery > 0 && sequence % flakyEvery == flakyEvery - 1
        ? message.header(FLAKY_HEADER, "true")
        : message;
  }

  /** Thrown by a flaky message's first delivery: non-retryable, so it is dead at once. */
  static final class FlakyFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    FlakyFailure(String message) {
      super(message);
    }
  }

  /**
   * Sample agents: {@code count} agents {@code family://family-N} that do nothing but run, log
   * their start and stop, and show in the console where they run.
   */
  static AgentFamily family(String family, int count) {
    Set<AgentUri> wanted = new LinkedHashSet<>();
    for (int i = 1; i <= count; i++) {
      wanted.add(AgentUri.parse(family + "://" + (count == 1 ? family : family + "-" + i)));
    }
    return AgentFamily.of(
        family,
        wanted,
        uri -> {
          return new Agent() {
            @Override
            public void start(AgentContext context) {
              LOG.info("agent {} started at epoch {}", uri, context.ownershipEpoch());
            }

            @Override
            public void stop(AgentContext context) {
              LOG.info("agent {} stopped", uri);
            }
          };
        });
  }
}
