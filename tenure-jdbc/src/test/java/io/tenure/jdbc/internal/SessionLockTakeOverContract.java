package io.tenure.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.DemotionReason;
import io.tenure.NodeListener;
import io.tenure.TenureNode;
import io.tenure.jdbc.JdbcFixture;
import io.tenure.spi.LeaseStore;
import io.tenure.spi.LeaseStore.SessionLock.Hold;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import io.tenure.tck.Await;
import io.tenure.tck.FaultyStore;
import io.tenure.tck.LeaderOverlaps;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fast take-over (SPEC §4.7) with the leader's real lock session killed from another session,
 * as an operator or a connection proxy would: the standby takes over only once the old leader can
 * no longer believe it leads, so no two nodes answer {@code isLeader()} at once, and there is
 * exactly one leader change. One subclass per database whose session lock is a database session's
 * (PostgreSQL, MariaDB/MySQL); SQLite's lock is its process's ({@code SqliteFileLockTest}).
 */
abstract class SessionLockTakeOverContract {
  private static final Duration BOUND = Duration.ofSeconds(20);

  /**
   * @return the provider's fixture
   */
  abstract JdbcFixture fixture();

  /**
   * @return the id of the session that holds {@code store}'s leader lock, if any, as {@link #kill}
   *     takes it
   */
  abstract OptionalLong lockHolder(Connection connection, JdbcLeaseStore store) throws SQLException;

  /** Ends session {@code id} from {@code connection}, as an operator would. */
  abstract void kill(Connection connection, long id) throws SQLException;

  private JdbcFixture fixture;
  private TablePrefix prefix;
  private Store observer;
  private final List<TenureNode> nodes = new ArrayList<>();
  private final LeaderOverlaps overlaps = new LeaderOverlaps();
  private final List<String> demotions = new CopyOnWriteArrayList<>();
  private final List<Boolean> othersLeadingAtPromotion = new CopyOnWriteArrayList<>();

  @BeforeEach
  void open() {
    fixture = fixture();
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

  /** The session that holds this prefix's leader lock, if any. */
  private OptionalLong lockHolderPid() throws SQLException {
    try (Connection connection = fixture.openConnection().orElseThrow()) {
      return lockHolder(connection, (JdbcLeaseStore) observer.leases());
    }
  }

  private void terminate(long pid) throws SQLException {
    try (Connection connection = fixture.openConnection().orElseThrow()) {
      kill(connection, pid);
    }
  }

  private long awaitLockHolder() {
    long[] pid = {0};
    Await.until(
        BOUND,
        "a session holds the leader lock",
        () -> {
          try {
            OptionalLong holder = lockHolderPid();
            holder.ifPresent(p -> pid[0] = p);
            return holder.isPresent();
          } catch (SQLException e) {
            throw new IllegalStateException(e);
          }
        });
    return pid[0];
  }

  private void awaitLockFree() {
    Await.until(
        BOUND,
        "the killed session's lock is free",
        () -> {
          try {
            return lockHolderPid().isEmpty();
          } catch (SQLException e) {
            throw new IllegalStateException(e);
          }
        });
  }

  /** L14 with a real kill: a lost session is never reported as kept, even with nobody waiting. */
  @Test
  void a_lock_whose_session_was_killed_is_not_kept_but_taken_again_on_a_new_session()
      throws SQLException {
    try (LeaseStore.SessionLock lock = observer.leases().sessionLock().orElseThrow()) {
      assertThat(lock.hold()).isEqualTo(Hold.TAKEN);
      assertThat(lock.hold()).isEqualTo(Hold.KEPT);

      terminate(awaitLockHolder());
      awaitLockFree();

      assertThat(lock.hold()).as("its session was lost in between").isEqualTo(Hold.TAKEN);
      assertThat(lock.hold()).isEqualTo(Hold.KEPT);
    }
  }

  /** L14 with a real kill: the freed lock passes on, and the killed holder finds it taken. */
  @Test
  void a_killed_sessions_lock_passes_to_the_next_session_and_its_holder_is_refused()
      throws SQLException {
    try (LeaseStore.SessionLock first = observer.leases().sessionLock().orElseThrow();
        LeaseStore.SessionLock second = observer.leases().sessionLock().orElseThrow()) {
      assertThat(first.hold()).isEqualTo(Hold.TAKEN);
      assertThat(second.hold()).isEqualTo(Hold.REFUSED);

      terminate(awaitLockHolder());
      awaitLockFree();

      assertThat(second.hold()).isEqualTo(Hold.TAKEN);
      assertThat(first.hold())
          .as("its session was lost, the lock is another's")
          .isEqualTo(Hold.REFUSED);
      assertThat(second.hold()).isEqualTo(Hold.KEPT);
    }
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
    long aSession = awaitLockHolder();
    // a's lock checks stall (its lock thread is starved, say), so the standby gets the free lock
    // first.
    leaderStore.lockChecksDown(true);

    terminate(aSession);
    Await.until(
        BOUND,
        "another session holds the lock",
        () -> {
          try {
            OptionalLong holder = lockHolderPid();
            return holder.isPresent() && holder.getAsLong() != aSession;
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
      long holder = awaitLockHolder();
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
                  && lockHolderOtherThan(holder));
      assertThat(observer.leases().read().epoch()).isBetween(epoch, epoch + 1);
    }
    assertThat(overlaps.violations()).isEmpty();
  }

  private boolean lockHolderOtherThan(long notPid) {
    try {
      OptionalLong pid = lockHolderPid();
      return pid.isPresent() && pid.getAsLong() != notPid;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
