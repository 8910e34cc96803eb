package io.tenure.chaos;

import io.tenure.spi.AgentStore;
import io.tenure.spi.ScheduleStore;
import io.tenure.spi.Store;
import java.time.Duration;

/**
 * A leader pass that stalls mid-pass ({@code tenure chaos --stall-leader-pass D}), as a GC pause at
 * the worst moment would: the pass has taken its fence and its membership snapshot, and its read of
 * the assignment rows waits {@code D}. A leader frozen and deposed in that window resumes, reads
 * the rows as the new leader left them, plans against its stale membership (which still counts
 * itself and the nodes it knew), and writes that plan with a fence it no longer holds: the write
 * the leader epoch guard must refuse. Stalling the writes instead would plan from the rows read
 * before the freeze, which rarely differ, so a deposed pass would seldom write anything.
 *
 * <p>Only the leader pass reads every row ({@code readAll}); a node's sweep reads its own ({@code
 * readFor}) and is not delayed. Wrap it around the recording store ({@link LeaderWrites}).
 *
 * <p>The leader's other duty, firing schedules, stalls the same way: after it read the due
 * schedules, each at its version, and before it fires them. A leader deposed in that window fires a
 * plan of slots its successor may have fired already, under a fence and a version that are both
 * stale: what the schedule store's fence, version and dedupe key refuse (SPEC §10.2).
 */
final class LeaderPassStall {
  private LeaderPassStall() {}

  static Store around(Store store, Duration stall) {
    if (stall.isZero()) {
      return store;
    }
    Store stalledPasses =
        Decorators.withAgents(
            store,
            agents ->
                Decorators.proxy(
                    AgentStore.class,
                    (proxy, method, args) -> {
                      if (method.getName().equals("readAll")) {
                        sleep(stall);
                      }
                      return Decorators.call(agents, method, args);
                    }));
    // The schedule firer's pass: it read the due schedules (their versions), stalls, then fires.
    return Decorators.withSchedules(
        stalledPasses,
        schedules ->
            Decorators.proxy(
                ScheduleStore.class,
                (proxy, method, args) -> {
                  Object result = Decorators.call(schedules, method, args);
                  if (method.getName().equals("due")) {
                    sleep(stall);
                  }
                  return result;
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
