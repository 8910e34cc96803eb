package io.tenure.internal.wake;

import io.tenure.Ticker;
import io.tenure.spi.AgentStore;
import io.tenure.spi.EventStore;
import io.tenure.spi.LeaseStore;
import io.tenure.spi.LockStore;
import io.tenure.spi.MarkerStore;
import io.tenure.spi.MembershipStore;
import io.tenure.spi.QueueStore;
import io.tenure.spi.ScheduleStore;
import io.tenure.spi.Store;
import io.tenure.spi.StoreDescription;
import java.time.Instant;

/**
 * A store whose enqueues wake the consumers of their queues on every node that takes wake-ups
 * (docs/QUEUE.md, "Wake-ups"), whose schedule firings and triggers do too, and whose leader
 * placements wake every node's agent sweep (docs/AGENTS.md). {@link io.tenure.Tenure} opens every
 * store through it, so every {@link io.tenure.Queue} it builds, every node built on it and the
 * schedules they fire wake.
 */
public final class WakingStore implements Store {
  private final Store delegate;
  private final WakeSender sender;
  private final QueueStore queues;
  private final ScheduleStore schedules;
  private final AgentStore agents;
  private final boolean ownsDelegate;

  private WakingStore(Store delegate, boolean ownsDelegate) {
    this.delegate = delegate;
    this.ownsDelegate = ownsDelegate;
    this.sender = new WakeSender(delegate.membership(), Ticker.system());
    this.queues = new WakingQueueStore(delegate.queues(), sender);
    this.schedules = new WakingScheduleStore(delegate.schedules(), sender);
    this.agents = new WakingAgentStore(delegate.agents(), sender);
  }

  /**
   * @return {@code store} if it wakes already, else a waking store around it; closing it closes
   *     {@code store}
   */
  public static Store wrap(Store store) {
    return store instanceof WakingStore ? store : new WakingStore(store, true);
  }

  /**
   * For a node built on a bare store ({@code TenureNode.builder(store)}, as {@code tenure node}
   * does): its leader's placements and its schedule firings wake as a {@link io.tenure.Tenure}'s
   * would.
   *
   * @return {@code store} if it wakes already, else a waking view whose close stops only its own
   *     sender: the node does not own the store
   */
  public static Store forNode(Store store) {
    return store instanceof WakingStore ? store : new WakingStore(store, false);
  }

  /**
   * Closes what {@link #forNode} made for a node: the view's sender; nothing of a store the node
   * was given. Idempotent.
   */
  public static void closeForNode(Store given, Store forNode) {
    if (forNode != given) {
      forNode.close();
    }
  }

  /**
   * @return datagrams sent through {@code store} if it is a waking store, else 0
   */
  public static long sent(Store store) {
    return store instanceof WakingStore waking ? waking.sender.sent() : 0;
  }

  @Override
  public StoreDescription describe() {
    return delegate.describe();
  }

  @Override
  public Instant now() {
    return delegate.now();
  }

  @Override
  public MarkerStore markers() {
    return delegate.markers();
  }

  @Override
  public MembershipStore membership() {
    return delegate.membership();
  }

  @Override
  public LeaseStore leases() {
    return delegate.leases();
  }

  @Override
  public EventStore events() {
    return delegate.events();
  }

  @Override
  public AgentStore agents() {
    return agents;
  }

  @Override
  public QueueStore queues() {
    return queues;
  }

  @Override
  public LockStore locks() {
    return delegate.locks();
  }

  @Override
  public ScheduleStore schedules() {
    return schedules;
  }

  @Override
  public void close() {
    sender.close();
    if (ownsDelegate) {
      delegate.close();
    }
  }
}
