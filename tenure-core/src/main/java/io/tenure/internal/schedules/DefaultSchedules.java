package io.tenure.internal.schedules;

import io.tenure.PausedSlots;
import io.tenure.Queue;
import io.tenure.Schedule;
import io.tenure.ScheduleInfo;
import io.tenure.Schedules;
import io.tenure.spi.ScheduleDefinition;
import io.tenure.spi.ScheduleStore;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@link Schedules} on a store. A declaration takes its queue from the queues its {@code Tenure}
 * opened, so a typo in a queue name is refused, and its messages' attempts from that queue's
 * policy.
 */
public final class DefaultSchedules implements Schedules {
  private static final int MAX_LIST = 10_000;

  private final ScheduleStore store;
  private final Supplier<Instant> databaseNow;
  private final Function<String, Optional<Queue>> queues;

  /**
   * @param databaseNow the store's clock: a declaration's first slot is the next after it
   * @param queues the queues opened on this Tenure, by name
   */
  public DefaultSchedules(
      ScheduleStore store,
      Supplier<Instant> databaseNow,
      Function<String, Optional<Queue>> queues) {
    this.store = store;
    this.databaseNow = databaseNow;
    this.queues = queues;
  }

  @Override
  public Declared declare(Schedule schedule) {
    if (schedule == null) {
      throw new IllegalArgumentException("schedule must not be null");
    }
    if (schedule.queue() == null) {
      throw new IllegalArgumentException(
          "schedule '" + schedule.name() + "' has no message: call enqueue(queue, message)");
    }
    Queue queue =
        queues
            .apply(schedule.queue())
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "schedule '"
                            + schedule.name()
                            + "' names an unknown queue '"
                            + schedule.queue()
                            + "': open it with tenure.queue(\""
                            + schedule.queue()
                            + "\", policy) on this Tenure first"));
    Instant next = schedule.nextSlotAfter(databaseNow.get());
    return store.declare(new ScheduleDefinition(schedule, queue.policy().maxAttempts(), next));
  }

  @Override
  public boolean pause(String name) {
    require(name);
    return store.setPaused(name, true, null);
  }

  @Override
  public boolean resume(String name) {
    ScheduleInfo info = require(name);
    if (!info.paused()) {
      return false;
    }
    Instant next =
        info.schedule().whilePaused() == PausedSlots.DROP
            ? info.schedule().nextSlotAfter(databaseNow.get())
            : null;
    return store.setPaused(name, false, next);
  }

  @Override
  public long trigger(String name) {
    ScheduleInfo info = require(name);
    return store.trigger(name, ScheduleMessages.forTrigger(info)).orElseThrow(() -> unknown(name));
  }

  @Override
  public boolean delete(String name) {
    Schedule.checkName(name);
    return store.delete(name);
  }

  @Override
  public List<ScheduleInfo> list() {
    return store.list(MAX_LIST);
  }

  @Override
  public Optional<ScheduleInfo> find(String name) {
    return store.read(name);
  }

  private ScheduleInfo require(String name) {
    Schedule.checkName(name);
    return store.read(name).orElseThrow(() -> unknown(name));
  }

  private static IllegalArgumentException unknown(String name) {
    return new IllegalArgumentException("no schedule named '" + name + "'");
  }
}
