package io.tenure.chaos;

import io.tenure.spi.AgentStore;
import io.tenure.spi.AssignmentWrite;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.Store;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's store as the fault harness sees it: every leader-only assignment write (each {@link
 * AgentStore} call that carries a {@link LeaderFence}) is recorded in the {@link History} as a
 * {@code LEADER_WRITE} before it runs and a {@code LEADER_WRITE_APPLIED} if the store applied it,
 * both with the fence's epoch and one token. The checker then finds writes that began after a newer
 * leader was recorded and were still applied: what the leader epoch guard (SPEC §4.5) refuses.
 */
public final class LeaderWrites {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderWrites.class);

  private LeaderWrites() {}

  /** {@code store}, its agent store's leader writes recorded by {@code node} in {@code history}. */
  public static Store recorded(Store store, History history, String node) {
    return Decorators.withAgents(store, agents -> recording(agents, history, node));
  }

  private static AgentStore recording(AgentStore agents, History history, String node) {
    return Decorators.proxy(
        AgentStore.class,
        (proxy, method, args) -> {
          LeaderFence fence = fenceOf(args);
          if (fence == null || writesNothing(args)) {
            return Decorators.call(agents, method, args);
          }
          String token = UUID.randomUUID().toString();
          record(
              history,
              HistoryEvent.Kind.LEADER_WRITE,
              node,
              fence.epoch(),
              token,
              method.getName());
          Object result = Decorators.call(agents, method, args);
          if (result == AssignmentWrite.APPLIED) {
            record(
                history,
                HistoryEvent.Kind.LEADER_WRITE_APPLIED,
                node,
                fence.epoch(),
                token,
                method.getName());
          }
          return result;
        });
  }

  private static @Nullable LeaderFence fenceOf(@Nullable Object[] args) {
    if (args != null) {
      for (Object arg : args) {
        if (arg instanceof LeaderFence fence) {
          return fence;
        }
      }
    }
    return null;
  }

  /** An empty batch is answered without a write. */
  private static boolean writesNothing(@Nullable Object[] args) {
    return args != null
        && args.length > 0
        && args[0] instanceof Map<?, ?> targets
        && targets.isEmpty();
  }

  /** Recording must not break the node: a write whose record failed is simply not checked. */
  private static void record(
      History history, HistoryEvent.Kind kind, String node, long epoch, String token, String what) {
    try {
      history.record(kind, node, null, null, 0, null, epoch, token, what);
    } catch (RuntimeException e) {
      LOG.warn("could not record a leader write ({}): {}", kind, e.toString());
    }
  }
}
