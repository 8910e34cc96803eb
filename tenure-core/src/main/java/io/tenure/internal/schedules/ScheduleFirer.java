package io.tenure.internal.schedules;

import io.tenure.ScheduleInfo;
import io.tenure.ScheduleStats;
import io.tenure.Ticker;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.ScheduleFiring;
import io.tenure.spi.ScheduleStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's schedule duty (SPEC §10.2): fires every due schedule's slots, each in one fenced
 * transaction on the row's version, and waits until the next is due, looking at the store at least
 * every second for schedules declared or changed meanwhile. Which slots fire is {@link
 * SlotPlanner}'s decision, on the database clock; which ones enqueue is the store's, by the version
 * and each slot's dedupe key, so a deposed leader's fire changes nothing and a successor fires each
 * slot once.
 */
public final class ScheduleFirer {
  private static final Logger LOG = LoggerFactory.getLogger(ScheduleFirer.class);

  /** Schedules fired per store read; more due are fired on the next tick, at once. */
  static final int BATCH = 100;

  /** How often a node asks whether it leads and a slot may be due: the fire lag's grain. */
  public static final Duration TICK = Duration.ofMillis(50);

  /** The longest the firer goes without looking at the store. */
  static final Duration REFRESH = Duration.ofSeconds(1);

  private final ScheduleStore store;
  private final Supplier<Instant> databaseNow;
  private final Ticker ticker;
  private final RandomGenerator random;
  private final AtomicLong fired = new AtomicLong();
  private final AtomicLong skipped = new AtomicLong();
  private final AtomicLong lastLagMicros = new AtomicLong(-1);
  private final AtomicLong maxLagMicros = new AtomicLong(-1);
  private volatile long lookAt;

  /**
   * @param databaseNow the store's clock, for how long to wait until the next due slot
   * @param ticker local deadlines between looks at the store
   * @param random the jitter of each slot's message
   */
  public ScheduleFirer(
      ScheduleStore store, Supplier<Instant> databaseNow, Ticker ticker, RandomGenerator random) {
    this.store = store;
    this.databaseNow = databaseNow;
    this.ticker = ticker;
    this.random = random;
    this.lookAt = ticker.read();
  }

  /**
   * One pass, on the leader: if a slot may be due, fires every due schedule under {@code fence}.
   * Cheap when nothing is due (no store call before the next due slot or {@link #REFRESH}).
   */
  public void tick(LeaderFence fence) {
    if (ticker.read() - lookAt < 0) {
      return;
    }
    List<ScheduleInfo> due = store.due(BATCH);
    for (ScheduleInfo info : due) {
      if (!fire(fence, info)) {
        return; // no longer leader: the successor fires what is due
      }
    }
    lookAt = ticker.read() + (due.size() == BATCH ? 0 : untilNextDue().toNanos());
  }

  /** Looks at the store on the next tick: a new leader, or a schedule declared here. */
  public void lookNow() {
    lookAt = ticker.read();
  }

  /**
   * @return the counts since this node started
   */
  public ScheduleStats stats() {
    return new ScheduleStats(fired.get(), skipped.get(), lag(lastLagMicros), lag(maxLagMicros));
  }

  private static Duration lag(AtomicLong micros) {
    long value = micros.get();
    return value < 0 ? null : Duration.ofNanos(value * 1000);
  }

  /**
   * @return false if the leader fence no longer held
   */
  private boolean fire(LeaderFence fence, ScheduleInfo info) {
    SlotPlan plan =
        SlotPlanner.plan(
            ScheduleSlots.of(info.schedule()),
            info.nextFireAt(),
            info.readAt(),
            info.schedule().missedSlots(),
            info.schedule().missedAfter());
    List<ScheduleFiring.Slot> slots =
        plan.fire().stream()
            .map(at -> new ScheduleFiring.Slot(at, ScheduleMessages.forSlot(info, at, random)))
            .toList();
    ScheduleFiring.Result result =
        store.fire(
            fence,
            new ScheduleFiring(
                info.name(), info.version(), slots, plan.skipped(), plan.nextFire()));
    switch (result) {
      case ScheduleFiring.Fired f -> {
        fired.addAndGet(slots.size());
        skipped.addAndGet(plan.skipped());
        if (!slots.isEmpty()) {
          recordLag(Duration.between(slots.get(slots.size() - 1).at(), info.readAt()));
        }
        if (plan.skipped() > 0) {
          LOG.info(
              "schedule {}: fired {} slots, skipped {}{} by its missed-slot policy {}",
              info.name(),
              slots.size(),
              plan.skippedAtLeast() ? "at least " : "",
              plan.skipped(),
              info.schedule().missedSlots());
        }
      }
      case ScheduleFiring.Lost l ->
          LOG.debug("schedule {} changed since it was read; the next pass fires it", info.name());
      case ScheduleFiring.Fenced f -> {
        LOG.info("schedule {}: not fired, this node is no longer the leader", info.name());
        return false;
      }
    }
    return true;
  }

  private void recordLag(Duration lag) {
    long micros = Math.max(0, lag.toNanos() / 1000);
    lastLagMicros.set(micros);
    maxLagMicros.accumulateAndGet(micros, Math::max);
  }

  private Duration untilNextDue() {
    Optional<Instant> next = store.nextDue();
    if (next.isEmpty()) {
      return REFRESH;
    }
    Duration wait = Duration.between(databaseNow.get(), next.get());
    if (wait.isNegative()) {
      return Duration.ZERO;
    }
    return wait.compareTo(REFRESH) > 0 ? REFRESH : wait;
  }
}
