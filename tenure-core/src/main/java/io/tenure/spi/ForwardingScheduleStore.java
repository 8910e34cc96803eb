package io.tenure.spi;

import io.tenure.ScheduleInfo;
import io.tenure.Schedules;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A schedule store that passes every call to another: the base of a decorator, which overrides only
 * the calls it changes (a wake-up after a firing, a fault in a test).
 */
public abstract class ForwardingScheduleStore implements ScheduleStore {
  private final ScheduleStore delegate;

  /**
   * @param delegate the store every call goes to
   * @throws IllegalArgumentException if delegate is null
   */
  protected ForwardingScheduleStore(ScheduleStore delegate) {
    if (delegate == null) {
      throw new IllegalArgumentException("delegate must not be null");
    }
    this.delegate = delegate;
  }

  /**
   * @return the store every call goes to
   */
  protected final ScheduleStore delegate() {
    return delegate;
  }

  @Override
  public ScheduleFiring.Result fire(LeaderFence fence, ScheduleFiring firing) {
    return delegate.fire(fence, firing);
  }

  @Override
  public Optional<Long> trigger(String name, NewMessage message) {
    return delegate.trigger(name, message);
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
