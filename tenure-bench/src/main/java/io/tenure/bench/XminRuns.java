package io.tenure.bench;

import static io.tenure.bench.QueueBenchSupport.QUEUE;
import static io.tenure.bench.QueueBenchSupport.cleanUp;
import static io.tenure.bench.QueueBenchSupport.count;
import static io.tenure.bench.QueueBenchSupport.freshPrefix;

import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.TenureNode;
import io.tenure.bench.QueueBenchSupport.Rate;
import io.tenure.bench.XminFigures.Phase;
import io.tenure.bench.XminFigures.PhaseSummary;
import io.tenure.bench.XminFigures.Verdict;
import io.tenure.bench.XminFigures.Window;
import io.tenure.jdbc.JdbcStore;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The queue under a held xmin horizon (issue 20, part 4), PostgreSQL only. A SKIP LOCKED queue's
 * claim walks its index from the oldest pending entry; every claimed or deleted row leaves a dead
 * version behind, and while one transaction holds back the xmin horizon neither vacuum nor an index
 * scan's hint can remove it, so each claim may walk further.
 *
 * <p>One node with a no-op consumer; the drain rate is measured first (a pre-filled queue drained
 * at the same concurrency) or given. Then a producer sends at {@code load} (70 %) of it, steadily
 * (the schedule is kept from the start, every 20 ms), each message carrying its {@code
 * System.nanoTime()}: a clean phase; then a second connection runs {@code BEGIN; SELECT
 * txid_current();} and holds that transaction open; then it ends and a recovery phase follows. Per
 * window and per phase: produced and completed per second (completed: the handler ran), pickup
 * p50/p99 (enqueue call to handler start), and the table's dead tuples and size from {@code
 * pg_stat_user_tables}.
 */
final class XminRuns {
  private static final Duration PRODUCE_EVERY = Duration.ofMillis(20);
  private static final int WARM_UP_MESSAGES = 2_000;

  /** The run's settings; {@code rate} 0 measures the drain rate first. */
  record Settings(
      double rate,
      double load,
      int concurrency,
      int drainMessages,
      Duration window,
      Duration settle,
      Duration clean,
      Duration hold,
      Duration recovery,
      Duration vacuumEvery) {}

  private XminRuns() {}

  static Verdict run(String url, Settings settings) throws Exception {
    if (!url.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException("the xmin run is PostgreSQL's; got " + url);
    }
    double drainRate = settings.rate();
    if (drainRate <= 0) {
      TenureQueueRuns.drain(url, WARM_UP_MESSAGES, settings.concurrency());
      Rate drain = TenureQueueRuns.drain(url, settings.drainMessages(), settings.concurrency());
      if (!drain.finished()) {
        throw new IllegalStateException("the drain to measure the rate did not finish");
      }
      drainRate = drain.perSecond();
      System.out.printf(
          Locale.ROOT,
          "Drain rate: %s msg/s (%s messages pre-filled, concurrency %d).%n",
          count(drainRate),
          count(settings.drainMessages()),
          settings.concurrency());
    } else {
      System.out.printf(Locale.ROOT, "Drain rate given: %s msg/s.%n", count(drainRate));
    }
    double rate = drainRate * settings.load();
    System.out.printf(
        Locale.ROOT,
        "Producer: %s msg/s (%.0f %% of the drain rate), every %d ms; consumer concurrency %d;"
            + " settle %d s (not counted), clean %d s, xmin held %d s, recovery %d s, windows of"
            + " %d s; load average %s.%n",
        count(rate),
        settings.load() * 100,
        PRODUCE_EVERY.toMillis(),
        settings.concurrency(),
        settings.settle().toSeconds(),
        settings.clean().toSeconds(),
        settings.hold().toSeconds(),
        settings.recovery().toSeconds(),
        settings.window().toSeconds(),
        XminMonitor.loadAverage());
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SHOW autovacuum")) {
      r.next();
      System.out.println(
          "autovacuum = "
              + r.getString(1)
              + (r.getString(1).equals("on")
                  ? "."
                  : ": nothing vacuums the table but --vacuum-seconds; only the scans' own marking of dead index entries"
                      + " (which a held xmin stops) keeps the claim's walk short."));
    }
    if (!settings.vacuumEvery().isZero()) {
      System.out.printf(
          Locale.ROOT,
          "The benchmark runs VACUUM of the messages table itself every %d s.%n",
          settings.vacuumEvery().toSeconds());
    }
    TablePrefix prefix = freshPrefix();
    try {
      return steady(url, prefix, rate, settings);
    } finally {
      cleanUp(url, prefix);
    }
  }

  /** What the handlers and the producer add to while a window is open. */
  private static final class Counting {
    final AtomicLong produced = new AtomicLong();
    final AtomicLong completed = new AtomicLong();
    private long[] waits = new long[1024];
    private int size;

    synchronized void waited(long nanos) {
      if (size == waits.length) {
        waits = Arrays.copyOf(waits, size * 2);
      }
      waits[size++] = nanos;
      completed.incrementAndGet();
    }

    synchronized long[] waits() {
      return Arrays.copyOf(waits, size);
    }
  }

  private static Verdict steady(String url, TablePrefix prefix, double rate, Settings settings)
      throws Exception {
    String table = prefix.table("messages");
    AtomicReference<Counting> current = new AtomicReference<>(new Counting());
    AtomicLong producedTotal = new AtomicLong();
    AtomicLong completedTotal = new AtomicLong();
    List<Window> windows = new ArrayList<>();
    List<String> plans = new ArrayList<>();
    try (JdbcStore store =
            JdbcStore.builder()
                .url(url)
                .prefix(prefix)
                .poolSize(TenureQueueRuns.POOL_SIZE)
                .build();
        Connection monitor = DriverManager.getConnection(url)) {
      Queue queue = Queue.on(store.queues(), QUEUE, QueuePolicy.defaults());
      TenureNode node =
          TenureNode.builder(store)
              .name("bench")
              .consumer(
                  queue,
                  settings.concurrency(),
                  delivery -> {
                    long waited = System.nanoTime() - Long.parseLong(delivery.text());
                    current.get().waited(waited);
                    completedTotal.incrementAndGet();
                  })
              .build();
      node.start();
      Producer producer = new Producer(queue, rate, current, producedTotal);
      Thread producing = Thread.ofPlatform().name("xmin-producer").start(producer);
      XminVacuumer vacuumer = new XminVacuumer(url, table, settings.vacuumEvery());
      Thread vacuuming = Thread.ofPlatform().daemon().name("xmin-vacuum").start(vacuumer);
      long begin = System.nanoTime();
      try {
        long windowNanos = settings.window().toNanos();
        long next = begin;
        Connection holder = null;
        try {
          for (Phase phase : Phase.values()) {
            Duration length =
                switch (phase) {
                  case SETTLE -> settings.settle();
                  case CLEAN -> settings.clean();
                  case HELD -> settings.hold();
                  case RECOVERY -> settings.recovery();
                };
            if (phase == Phase.HELD) {
              next =
                  gap(
                      current,
                      next,
                      () ->
                          plans.add(
                              XminPlans.claim(store, url, "end of the clean phase", "", true)));
              holder = DriverManager.getConnection(url);
              holder.setAutoCommit(false);
              try (Statement s = holder.createStatement();
                  ResultSet r = s.executeQuery("SELECT txid_current()")) {
                r.next();
                System.err.printf(
                    Locale.ROOT, "xmin held: transaction %d open, idle%n", r.getLong(1));
              }
            } else if (phase == Phase.RECOVERY && holder != null) {
              // The plans while held, at the end of the hold, when the most dead entries lie ahead.
              next = gap(current, next, () -> plans.addAll(XminPlans.held(store, url, table)));
              holder.rollback();
              holder.close();
              holder = null;
              System.err.println("xmin released");
            }
            long phaseEnd = next + length.toNanos();
            while (next < phaseEnd) {
              long windowEnd = Math.min(phaseEnd, next + windowNanos);
              sleepUntil(windowEnd);
              Counting closed = current.getAndSet(new Counting());
              XminMonitor.TableState state = XminMonitor.tableState(monitor, prefix, table);
              Window window =
                  new Window(
                      phase,
                      (next - begin) / 1e9,
                      (windowEnd - next) / 1e9,
                      closed.produced.get(),
                      closed.completed.get(),
                      closed.waits(),
                      state.deadTuples(),
                      state.tableBytes(),
                      state.claimIndexBytes(),
                      producedTotal.get() - completedTotal.get(),
                      state.vacuum());
              windows.add(window);
              System.err.println(
                  "  " + XminReport.row(window) + " load " + XminMonitor.loadAverage());
              if (window.completed() == 0 && window.backlog() > 0) {
                System.err.print(XminMonitor.activity(monitor));
              }
              next = windowEnd;
            }
          }
        } finally {
          if (holder != null) {
            holder.rollback();
            holder.close();
          }
        }
      } finally {
        producer.stop();
        producing.join();
        vacuumer.stop();
        vacuuming.interrupt();
        vacuuming.join();
        node.close();
      }
    }
    // Late additions (a handler that read the window just before it closed) are in the windows
    // now; the timeline printed as it ran may miss a few.
    XminReport.print(windows, plans);
    Verdict verdict = XminFigures.verdict(windows);
    System.out.println();
    PhaseSummary clean = XminFigures.summarize(Phase.CLEAN, windows);
    if (clean.completion() < XminFigures.GOAL_COMPLETION) {
      System.out.printf(
          Locale.ROOT,
          "The clean phase did not keep up with the producer (completion %.1f %%): the run does"
              + " not measure the held xmin; lower --load or run on a quiet machine.%n",
          clean.completion() * 100);
    }
    System.out.println("Load average at the end: " + XminMonitor.loadAverage() + ".");
    System.out.println(verdict.line());
    return verdict;
  }

  interface Step {
    void run() throws SQLException;
  }

  /**
   * Runs {@code step} (the EXPLAINs) between two windows: what is produced and handled meanwhile
   * counts in the totals (the backlog) but in no window, and the next window starts after it.
   *
   * @return when the next window starts
   */
  private static long gap(AtomicReference<Counting> current, long from, Step step)
      throws SQLException {
    step.run();
    current.set(new Counting());
    long now = System.nanoTime();
    System.err.printf(
        Locale.ROOT, "  (%.1f s for the EXPLAINs, in no window)%n", (now - from) / 1e9);
    return now;
  }

  /** Sends {@code rate} a second on a fixed schedule, in one {@code enqueueAll} per tick. */
  private static final class Producer implements Runnable {
    private final Queue queue;
    private final double rate;
    private final AtomicReference<Counting> current;
    private final AtomicLong producedTotal;
    private volatile boolean stopped;

    Producer(
        Queue queue, double rate, AtomicReference<Counting> current, AtomicLong producedTotal) {
      this.queue = queue;
      this.rate = rate;
      this.current = current;
      this.producedTotal = producedTotal;
    }

    void stop() {
      stopped = true;
    }

    @Override
    public void run() {
      long start = System.nanoTime();
      long sent = 0;
      long tick = start;
      while (!stopped) {
        long owed = XminFigures.owed(rate, System.nanoTime() - start, sent);
        while (owed > 0 && !stopped) {
          int batch = (int) Math.min(owed, QueueBenchSupport.ENQUEUE_BATCH);
          List<OutgoingMessage> messages = new ArrayList<>(batch);
          for (int i = 0; i < batch; i++) {
            messages.add(OutgoingMessage.text(Long.toString(System.nanoTime())));
          }
          queue.enqueueAll(messages);
          current.get().produced.addAndGet(batch);
          producedTotal.addAndGet(batch);
          sent += batch;
          owed -= batch;
        }
        tick += PRODUCE_EVERY.toNanos();
        try {
          sleepUntil(tick);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    long wait = nanoTime - System.nanoTime();
    if (wait > 0) {
      Thread.sleep(Duration.ofNanos(wait));
    }
  }
}
