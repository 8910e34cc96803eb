package io.tenure.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.DemotionReason;
import io.tenure.NodeListener;
import io.tenure.TenureNode;
import io.tenure.jdbc.JdbcFixture;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import io.tenure.tck.Await;
import io.tenure.tck.FaultyStore;
import io.tenure.tck.LeaderOverlaps;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's fast take-over (SPEC §4.7) with the leader's real lock session killed by {@code
 * pg_terminate_backend}, as an operator or a connection proxy would: the standby takes over only
 * once the old leader can no longer believe it leads, so no two nodes answer {@code isLeader()} at
 * once, and there is exactly one leader change.
 */
class PostgresSessionLockTakeOverTest {
  private static final Duration BOUND = Duration.ofSeconds(20);

  private JdbcFixture fixture;
  private TablePrefix prefix;
  private Store observer;
  private final List<TenureNode> nodes = new ArrayList<>();
  private final LeaderOverlaps overlaps = new LeaderOverlaps();
  private final List<String> demotions = new CopyOnWriteArrayList<>();
  private final List<Boolean> othersLeadingAtPromotion = new CopyOnWriteArrayList<>();

  @BeforeEach
  void open() {
    fixture = JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
    prefix = fixture.freshPrefix();
    observer = fixture.open(prefix);
  }

  @AfterEach
  void close() {
    overlaps.close();
    nodes.forEach(TenureNode::close);
    fixture.close();
  }

  private TenureNode node(Store store, String name) {
    TenureNode node =
        TenureNode.builder(store)
            .name(name)
            .heartbeatInterval(Duration.ofMillis(100))
            .selfFenceAfter(Duration.ofMillis(400))
            .staleAfter(Duration.ofMillis(1000))
            .renewInterval(Duration.ofMillis(100))
            .fenceAfter(Duration.ofMillis(1500))
            .leaseTtl(Duration.ofMillis(2000))
            .listener(overlaps.listener())
            .listener(
                new NodeListener() {
                  @Override
                  public void onDemoted(long epoch, DemotionReason reason) {
                    demotions.add(name + " " + epoch + " " + reason);
                  }
                })
            .build();
    nodes.add(node);
    overlaps.watch(node);
    node.start();
    return node;
  }

  /** The backend that holds this prefix's leader lock, if any. */
  private OptionalInt lockHolderPid() throws SQLException {
    long key = ((JdbcLeaseStore) observer.leases()).sessionLockKey();
    try (Connection connection = fixture.openConnection().orElseThrow();
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1"
                    + " AND classid::bigint = ? AND objid::bigint = ?")) {
      query.setLong(1, key >>> 32);
      query.setLong(2, key & 0xFFFF_FFFFL);
      try (ResultSet rows = query.executeQuery()) {
        return rows.next() ? OptionalInt.of(rows.getInt(1)) : OptionalInt.empty();
      }
    }
  }

  private void terminate(int pid) throws SQLException {
    try (Connection connection = fixture.openConnection().orElseThrow();
        PreparedStatement kill = connection.prepareStatement("SELECT pg_terminate_backend(?)")) {
      kill.setInt(1, pid);
      kill.execute();
    }
  }

  private int awaitLockHolder() {
    int[] pid = {0};
    Await.until(
        BOUND,
        "a session holds the leader lock",
        () -> {
          try {
            OptionalInt holder = lockHolderPid();
            holder.ifPresent(p -> pid[0] = p);
            return holder.isPresent();
          } catch (SQLException e) {
            throw new IllegalStateException(e);
          }
        });
    return pid[0];
  }

  @Test
  void
      when_the_leaders_lock_session_is_killed_the_standby_takes_over_only_after_the_leader_stopped_leading()
          throws SQLException {
    FaultyStore leaderStore = new FaultyStore(fixture.open(prefix));
    TenureNode a = node(leaderStore, "a");
    Await.until(
        BOUND,
        "a leads with its lock recorded",
        () -> a.isLeader() && observer.leases().read().sessionLocked());
    TenureNode b = node(fixture.open(prefix), "b");
    b.settings(); // b is now a candidate that watches a's recorded lock
    int aSession = awaitLockHolder();
    // a's lock checks stall (its lock thread is starved, say), so the standby gets the free lock
    // first.
    leaderStore.lockChecksDown(true);

    terminate(aSession);
    Await.until(
        BOUND,
        "another session holds the lock",
        () -> {
          try {
            OptionalInt holder = lockHolderPid();
            return holder.isPresent() && holder.getAsInt() != aSession;
          } catch (SQLException e) {
            throw new IllegalStateException(e);
          }
        });
    leaderStore.lockChecksDown(false);

    Await.until(BOUND, "b leads", b::isLeader);
    assertThat(b.leaderFence().orElseThrow().epoch()).as("exactly one leader change").isEqualTo(2);
    assertThat(a.isLeader()).isFalse();
    assertThat(demotions).hasSize(1).allMatch(d -> d.startsWith("a 1 "));
    assertThat(overlaps.violations()).isEmpty();
  }

  @Test
  void however_the_race_for_the_freed_lock_goes_there_is_never_more_than_one_leader()
      throws SQLException {
    TenureNode a = node(fixture.open(prefix), "a");
    Await.until(
        BOUND,
        "a leads with its lock recorded",
        () -> a.isLeader() && observer.leases().read().sessionLocked());
    TenureNode b = node(fixture.open(prefix), "b");
    for (int round = 0; round < 5; round++) {
      long epoch = observer.leases().read().epoch();
      int holder = awaitLockHolder();
      Await.until(BOUND, "the lock recorded", () -> observer.leases().read().sessionLocked());

      terminate(holder);

      // Either the leader takes its lock again first and keeps leading, or it steps down and the
      // other node takes over; the lease settles with its lock recorded again.
      Await.until(
          BOUND,
          "a leader with its lock recorded",
          () ->
              (a.isLeader() || b.isLeader())
                  && observer.leases().read().sessionLocked()
                  && lockHolder(holder));
      assertThat(observer.leases().read().epoch()).isBetween(epoch, epoch + 1);
    }
    assertThat(overlaps.violations()).isEmpty();
  }

  private boolean lockHolder(int notPid) {
    try {
      OptionalInt pid = lockHolderPid();
      return pid.isPresent() && pid.getAsInt() != notPid;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
