package io.tenure.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.CleanupSettings;
import io.tenure.ContentionException;
import io.tenure.NodeInfo;
import io.tenure.NodeSettings;
import io.tenure.NodeStatus;
import io.tenure.StoreUnavailableException;
import io.tenure.inmemory.InMemoryStore;
import io.tenure.internal.ManualTime;
import io.tenure.internal.TestSettings;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.MembershipStore;
import io.tenure.spi.MembershipView;
import io.tenure.spi.MembershipWrite;
import io.tenure.spi.NewNode;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Cleanup of defunct rows: capped per tick, contention retried, every other failure reported. */
class LeaderDutiesTest {
  private static final Duration DEFUNCT_AFTER = Duration.ofMinutes(10);

  private final ManualTime time = new ManualTime();
  private final InMemoryStore store = InMemoryStore.builder().clock(time.databaseClock()).build();
  private final Deque<Supplier<RuntimeException>> failures = new ArrayDeque<>();
  private LeaderFence fence;

  @BeforeEach
  void leaderAndDefunctRows() {
    String leader = UUID.randomUUID().toString();
    fence =
        new LeaderFence(
            leader, store.leases().acquire(leader, Duration.ofDays(1)).orElseThrow().epoch());
    for (int i = 0; i < 7; i++) {
      String id = "node-" + i;
      MembershipStore m = store.membership();
      m.join(new NewNode(id, id, "", Set.of(), Duration.ofSeconds(3)), m.read().version());
      m.changeStatus(id, NodeStatus.LEAVING, m.read().version());
      time.advance(Duration.ofSeconds(1));
    }
    time.advance(DEFUNCT_AFTER);
  }

  private LeaderDuties duties(int batchSize, int maxPerTick) {
    NodeSettings settings =
        TestSettings.node()
            .cleanup(
                new CleanupSettings(DEFUNCT_AFTER, batchSize, maxPerTick, 100, Duration.ofDays(1)))
            .build();
    return new LeaderDuties(
        new FailingMembership(store.membership()),
        store.events(),
        settings,
        new History(store.events()),
        () -> true);
  }

  private List<String> remaining() {
    return store.membership().read().nodes().stream().map(NodeInfo::nodeId).toList();
  }

  @Test
  void at_most_the_cap_is_cleaned_per_tick_oldest_first_and_the_rest_next_tick() {
    LeaderDuties duties = duties(2, 4);

    assertThat(duties.cleanUpDefunct(fence)).isEqualTo(4);
    assertThat(remaining()).containsExactly("node-4", "node-5", "node-6");
    assertThat(duties.cleanUpDefunct(fence)).isEqualTo(3);
    assertThat(remaining()).isEmpty();
  }

  @Test
  void a_batch_that_meets_contention_is_retried_and_the_others_are_not_repeated() {
    failures.add(() -> null);
    failures.add(() -> new ContentionException("deadlock", null));
    LeaderDuties duties = duties(3, 100);

    assertThat(duties.cleanUpDefunct(fence)).isEqualTo(7);
    assertThat(remaining()).isEmpty();
  }

  @Test
  void mixed_failures_are_all_reported_and_nothing_is_retried() {
    failures.add(() -> new ContentionException("deadlock", null));
    failures.add(() -> new StoreUnavailableException("connection reset", null));
    failures.add(() -> new ContentionException("lock wait timeout", null));
    LeaderDuties duties = duties(3, 100);

    assertThatThrownBy(() -> duties.cleanUpDefunct(fence))
        .isInstanceOf(StoreUnavailableException.class)
        .satisfies(
            e ->
                assertThat(e.getSuppressed())
                    .extracting(Throwable::getMessage)
                    .containsExactly("deadlock", "lock wait timeout"));
    assertThat(remaining()).hasSize(7);
  }

  @Test
  void cleanup_with_a_superseded_fence_deletes_nothing() {
    LeaderDuties duties = duties(3, 100);
    LeaderFence stale = new LeaderFence(fence.nodeId(), fence.epoch() - 1);

    assertThat(duties.cleanUpDefunct(stale)).isZero();
    assertThat(remaining()).hasSize(7);
  }

  /** Throws the queued failure (or none, for null) on each deleteDefunct call, in order. */
  private final class FailingMembership implements MembershipStore {
    private final MembershipStore delegate;

    FailingMembership(MembershipStore delegate) {
      this.delegate = delegate;
    }

    @Override
    public int deleteDefunct(List<NodeInfo> rows, Duration olderThan, LeaderFence leader) {
      Supplier<RuntimeException> next = failures.poll();
      RuntimeException failure = next == null ? null : next.get();
      if (failure != null) {
        throw failure;
      }
      return delegate.deleteDefunct(rows, olderThan, leader);
    }

    @Override
    public MembershipView read() {
      return delegate.read();
    }

    @Override
    public long version() {
      return delegate.version();
    }

    @Override
    public MembershipWrite join(NewNode node, long expectedVersion) {
      return delegate.join(node, expectedVersion);
    }

    @Override
    public MembershipWrite changeStatus(String nodeId, NodeStatus to, long expectedVersion) {
      return delegate.changeStatus(nodeId, to, expectedVersion);
    }

    @Override
    public MembershipWrite remove(String nodeId, long expectedVersion) {
      return delegate.remove(nodeId, expectedVersion);
    }

    @Override
    public MembershipWrite joinQueued(NewNode node) {
      return delegate.joinQueued(node);
    }

    @Override
    public MembershipWrite changeStatusQueued(String nodeId, NodeStatus to) {
      return delegate.changeStatusQueued(nodeId, to);
    }

    @Override
    public MembershipWrite removeQueued(String nodeId) {
      return delegate.removeQueued(nodeId);
    }

    @Override
    public boolean heartbeat(String nodeId) {
      return delegate.heartbeat(nodeId);
    }

    @Override
    public List<NodeInfo> findStale(Duration staleAfter) {
      return delegate.findStale(staleAfter);
    }

    @Override
    public MembershipWrite declareDead(
        String nodeId, Duration staleAfter, long expectedVersion, LeaderFence leader) {
      return delegate.declareDead(nodeId, staleAfter, expectedVersion, leader);
    }

    @Override
    public List<NodeInfo> findDefunct(Duration olderThan, int limit) {
      return delegate.findDefunct(olderThan, limit);
    }
  }
}
