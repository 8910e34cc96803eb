package io.tenure.internal.wake;

import io.tenure.ScheduleInfo;
import io.tenure.Schedules;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.NewMessage;
import io.tenure.spi.ScheduleDefinition;
import io.tenure.spi.ScheduleFiring;
import io.tenure.spi.ScheduleStore;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A schedule store whose firings and triggers wake the consumers of the queues they enqueued on,
 * once the call returned (each commits in its own transaction). Everything else passes through.
 */
final class WakingScheduleStore implements ScheduleStore {
  private final ScheduleStore delegate;
  private final WakeSender sender;

  WakingScheduleStore(ScheduleStore delegate, WakeSender sender) {
    this.delegate = delegate;
    this.sender = sender;
  }

  @Override
  public ScheduleFiring.Result fire(LeaderFence fence, ScheduleFiring firing) {
    ScheduleFiring.Result result = delegate.fire(fence, firing);
    if (result instanceof ScheduleFiring.Fired) {
      firing.slots().stream().map(s -> s.message().queue()).distinct().forEach(sender::committed);
    }
    return result;
  }

  @Override
  public Optional<Long> trigger(String name, NewMessage message) {
    Optional<Long> id = delegate.trigger(name, message);
    id.ifPresent(ignored -> sender.committed(message.queue()));
    return id;
  }

  @Override
  public Schedules.Declared declare(ScheduleDefinition definition) {
    return delegate.declare(definition);
  }

  @Override
  public Optional<ScheduleInfo> read(String name) {
    return delegate.read(name);
  }

  @Override
  public List<ScheduleInfo> list(int limit) {
    return delegate.list(limit);
  }

  @Override
  public List<ScheduleInfo> due(int limit) {
    return delegate.due(limit);
  }

  @Override
  public Optional<Instant> nextDue() {
    return delegate.nextDue();
  }

  @Override
  public boolean setPaused(String name, boolean paused, @Nullable Instant nextFireAt) {
    return delegate.setPaused(name, paused, nextFireAt);
  }

  @Override
  public boolean delete(String name) {
    return delegate.delete(name);
  }
}
