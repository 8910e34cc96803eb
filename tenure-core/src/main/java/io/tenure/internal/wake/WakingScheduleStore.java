package io.tenure.internal.wake;

import io.tenure.spi.ForwardingScheduleStore;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.NewMessage;
import io.tenure.spi.ScheduleFiring;
import io.tenure.spi.ScheduleStore;
import java.util.Optional;

/**
 * A schedule store whose firings and triggers wake the consumers of the queues they enqueued on,
 * once the call returned (each commits in its own transaction). Everything else passes through.
 */
final class WakingScheduleStore extends ForwardingScheduleStore {
  private final WakeSender sender;

  WakingScheduleStore(ScheduleStore delegate, WakeSender sender) {
    super(delegate);
    this.sender = sender;
  }

  @Override
  public ScheduleFiring.Result fire(LeaderFence fence, ScheduleFiring firing) {
    ScheduleFiring.Result result = delegate().fire(fence, firing);
    if (result instanceof ScheduleFiring.Fired) {
      firing.slots().stream().map(s -> s.message().queue()).distinct().forEach(sender::committed);
    }
    return result;
  }

  @Override
  public Optional<Long> trigger(String name, NewMessage message) {
    Optional<Long> id = delegate().trigger(name, message);
    id.ifPresent(ignored -> sender.committed(message.queue()));
    return id;
  }
}
