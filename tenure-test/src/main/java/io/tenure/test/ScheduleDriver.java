package io.tenure.test;

import io.tenure.Admin;
import io.tenure.Leader;
import io.tenure.internal.testing.TestKitBridge;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.Lease;
import io.tenure.spi.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Fires schedules as the cluster's leader would: takes the leader lease (only if no node holds it),
 * fires every due slot with the leader's own firer under that lease's fence, and releases the lease
 * at once, so a node started later leads without waiting for it to expire.
 */
final class ScheduleDriver {
  /** The node id the kit holds the leader lease as, while it fires. */
  static final String HOLDER = "tenure-test-schedules";

  /** The lease the kit takes while it fires; released as soon as it is done. */
  static final Duration LEASE = Duration.ofMinutes(1);

  /** The most slot times {@link #advanceFiring} stops at in one call. */
  static final int MAX_STEPS = 100_000;

  /** Seeded: a jittered slot's message gets the same availability in every run. */
  private final SplittableRandom random = new SplittableRandom(19);

  private final Store store;
  private final Admin admin;
  private final TestClock clock;

  ScheduleDriver(Store store, Admin admin, TestClock clock) {
    this.store = store;
    this.admin = admin;
    this.clock = clock;
  }

  /**
   * @return how many slots fired
   * @throws IllegalStateException if a node holds the leader lease (nothing fired)
   */
  long fireDue() {
    Lease lease =
        store
            .leases()
            .acquire(HOLDER, LEASE)
            .orElseThrow(() -> new IllegalStateException(heldElsewhere()));
    LeaderFence fence = new LeaderFence(HOLDER, lease.epoch());
    try {
      return TestKitBridge.fireDueSchedules(store, fence, clock.ticker(), random);
    } finally {
      store.leases().release(HOLDER, lease.epoch());
    }
  }

  /**
   * Moves the clock on by {@code by}, stopping at each schedule slot on the way to fire it on time.
   *
   * @return how many slots fired
   */
  long advanceFiring(Duration by) {
    if (by == null || by.isNegative()) {
      throw new IllegalArgumentException("duration to advance by must be zero or more, got " + by);
    }
    clock.requireMovable("advance(" + by + ") by advanceFiringSchedules");
    Instant target = clock.now().plus(by);
    long fired = fireDue();
    for (int step = 0; step < MAX_STEPS; step++) {
      Optional<Instant> next = store.schedules().nextDue();
      if (next.isEmpty() || next.get().isAfter(target)) {
        clock.set(target);
        return fired;
      }
      if (next.get().isAfter(clock.now())) {
        clock.set(next.get());
      }
      fired += fireDue();
    }
    throw new IllegalStateException(
        "advanceFiringSchedules("
            + by
            + ") stopped at "
            + clock.now()
            + " after "
            + MAX_STEPS
            + " slot times ("
            + fired
            + " slots fired): advance by less at a time");
  }

  private String heldElsewhere() {
    Optional<Leader> leader = admin.leader();
    String who =
        leader
            .map(
                l ->
                    "node " + (l.name() != null ? l.name() : l.nodeId()) + " at epoch " + l.epoch())
            .orElse("another node");
    return "cannot fire schedules: "
        + who
        + " holds the leader lease, and a running TenureNode that leads fires the schedules"
        + " itself (nothing fired). Close it first, or let it fire them";
  }
}
