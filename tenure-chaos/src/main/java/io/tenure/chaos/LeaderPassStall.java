package io.tenure.chaos;

import io.tenure.spi.AgentStore;
import io.tenure.spi.Store;
import java.time.Duration;

/**
 * A leader pass that stalls before it writes its plan ({@code tenure chaos --stall-leader-pass D}),
 * as a GC pause at the worst moment would: the pass has taken its fence, its membership snapshot
 * and its rows, and its placements wait {@code D}. It widens the window in which a leader frozen
 * and deposed meanwhile resumes and writes with a fence it no longer holds, which the leader epoch
 * guard must refuse. Each pass writes its placements in one {@code placeAll}, so it stalls once.
 *
 * <p>Wrap it around the recording store ({@link LeaderWrites}): the write is recorded as beginning
 * after the stall, when it really reaches the store.
 */
final class LeaderPassStall {
  private LeaderPassStall() {}

  static Store around(Store store, Duration stall) {
    if (stall.isZero()) {
      return store;
    }
    return Decorators.withAgents(
        store,
        agents ->
            Decorators.proxy(
                AgentStore.class,
                (proxy, method, args) -> {
                  if (method.getName().equals("placeAll")) {
                    sleep(stall);
                  }
                  return Decorators.call(agents, method, args);
                }));
  }

  private static void sleep(Duration stall) {
    try {
      Thread.sleep(stall);
    } catch (InterruptedException e) {
      // The node is closing: the pass ends here, as a pass whose store failed does.
      Thread.currentThread().interrupt();
      throw new IllegalStateException("leader pass interrupted in its stall", e);
    }
  }
}
