package io.tenure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.NewMessage;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Resolution;
import io.tenure.spi.TablePrefix;
import io.tenure.tck.Await;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One message per key in flight (SPEC §6.2) while a dead letter is replayed. A replayed message
 * keeps its old id, so its key's head moves back in time, under claims that chose the key's next
 * message on a view in which the replayed one was dead:
 *
 * <ul>
 *   <li>a claim holds the key's next message, uncommitted, when the replay runs: the replay waits
 *       for it (it locks its key's unfinished messages first), so a third claim never reads the
 *       replayed message as pending while the next one still reads as pending;
 *   <li>the replay committed after the claim's snapshot but before the claim locked the next
 *       message, which no lock can see: the claim re-checks its keyed messages in a new statement
 *       and gives back the one that an older pending, or a peer's in-flight, message overtook. No
 *       real replay can be timed into that gap, so the claim is held just before its re-check while
 *       another connection re-pends the dead letter with a plain UPDATE.
 * </ul>
 *
 * <p>The pool is the caller's, at REPEATABLE READ (MariaDB's default): Tenure's write transactions
 * still run at READ COMMITTED, which the re-check's plain read relies on. Servers only: SQLite and
 * the in-memory store write one at a time.
 */
class ReplayClaimRaceTest {
  /** Text only the claim's key re-check has (PostgreSQL's UPDATE, MariaDB's SELECT). */
  private static final String RECHECK = "f.id <> c.id";

  private static final Duration BOUND = Duration.ofSeconds(10);
  private static final NewMessage KEYED =
      new NewMessage("q", "k", new byte[] {1}, "text/plain", Map.of(), 0, 3, Duration.ZERO, null);

  private JdbcFixture fixture;
  private HikariDataSource pool;
  private final Gate commit = new Gate();
  private final Gate recheck = new Gate();

  /** Threads of their own: the common pool may have one, which a held claim would occupy. */
  private final ExecutorService threads = Executors.newCachedThreadPool();

  private long lastLockPoll;

  @AfterEach
  void close() {
    commit.release();
    recheck.release();
    threads.shutdownNow();
    if (pool != null) {
      pool.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = JdbcFixture.Kind.class,
      names = {"POSTGRES", "MARIADB"})
  void a_replay_by_id_waits_for_a_claim_that_holds_its_keys_next_message(JdbcFixture.Kind kind)
      throws Exception {
    replayWaitsForTheClaim(kind, (queues, dead) -> queues.replay(dead) ? 1 : 0);
  }

  @ParameterizedTest
  @EnumSource(
      value = JdbcFixture.Kind.class,
      names = {"POSTGRES", "MARIADB"})
  void a_replay_by_query_waits_for_a_claim_that_holds_its_keys_next_message(JdbcFixture.Kind kind)
      throws Exception {
    replayWaitsForTheClaim(
        kind,
        (queues, dead) ->
            queues.replay(new MessageQuery("q", MessageStatus.DEAD, "k", null, null, 0, 100)));
  }

  private void replayWaitsForTheClaim(JdbcFixture.Kind kind, Replay replay) throws Exception {
    TablePrefix prefix = open(kind);
    try (JdbcStore store = JdbcStore.builder().dataSource(gated()).prefix(prefix).build()) {
      QueueStore queues = store.queues();
      long[] ids = deadHeadAndPendingNext(queues);
      long dead = ids[0];
      long next = ids[1];

      commit.arm();
      CompletableFuture<List<QueueMessage>> x =
          CompletableFuture.supplyAsync(() -> queues.claim(one()), threads);
      commit.awaitReached("claim X reached its commit");
      CompletableFuture<Integer> replayed =
          CompletableFuture.supplyAsync(() -> replay.run(queues, dead), threads);
      Await.until(
          BOUND,
          "the replay waits for a lock or is done",
          () -> replayed.isDone() || replayWaitsForALock(kind, prefix));

      // X holds the key's next message, uncommitted: a claim now must not take the replayed one.
      List<QueueMessage> y = queues.claim(ten());
      assertThat(y)
          .as(
              "claim Y while X holds message %d uncommitted and message %d is being replayed",
              next, dead)
          .extracting(QueueMessage::id)
          .doesNotContain(dead, next);
      assertThat(replayed).as("the replay, while X holds its key's next message").isNotDone();

      commit.release();
      assertThat(x.get(BOUND.toSeconds(), TimeUnit.SECONDS))
          .extracting(QueueMessage::id)
          .containsExactly(next);
      assertThat(replayed.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo(1);
      assertThat(inFlight(queues)).containsExactly(next);
      assertThat(queues.claim(ten()))
          .as("the replayed message waits for its key's message in flight")
          .isEmpty();

      finish(queues, next);
      assertThat(queues.claim(ten())).extracting(QueueMessage::id).containsExactly(dead);
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = JdbcFixture.Kind.class,
      names = {"POSTGRES", "MARIADB"})
  void a_claim_gives_back_a_keyed_message_whose_older_message_became_pending_after_its_snapshot(
      JdbcFixture.Kind kind) throws Exception {
    TablePrefix prefix = open(kind);
    try (JdbcStore store = JdbcStore.builder().dataSource(gated()).prefix(prefix).build()) {
      QueueStore queues = store.queues();
      long[] ids = deadHeadAndPendingNext(queues);
      long dead = ids[0];
      long next = ids[1];

      recheck.arm();
      CompletableFuture<List<QueueMessage>> x =
          CompletableFuture.supplyAsync(() -> queues.claim(one()), threads);
      recheck.awaitReached(
          "claim X took the key's next message and reached its re-check (or its commit)");
      repend(prefix, dead);
      recheck.release();

      assertThat(x.get(BOUND.toSeconds(), TimeUnit.SECONDS))
          .as("claim X, overtaken by the replayed message")
          .isEmpty();
      QueueMessage given = queues.find(next).orElseThrow();
      assertThat(given.status()).isEqualTo(MessageStatus.PENDING);
      assertThat(given.attempts()).as("the attempt given back").isZero();
      assertThat(given.claimToken()).isNull();
      assertThat(queues.claim(ten())).extracting(QueueMessage::id).containsExactly(dead);
      assertThat(inFlight(queues)).containsExactly(dead);
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = JdbcFixture.Kind.class,
      names = {"POSTGRES", "MARIADB"})
  void a_claim_gives_back_a_keyed_message_whose_older_message_a_peer_claimed_meanwhile(
      JdbcFixture.Kind kind) throws Exception {
    TablePrefix prefix = open(kind);
    try (JdbcStore store = JdbcStore.builder().dataSource(gated()).prefix(prefix).build()) {
      QueueStore queues = store.queues();
      long[] ids = deadHeadAndPendingNext(queues);
      long dead = ids[0];
      long next = ids[1];

      recheck.arm();
      CompletableFuture<List<QueueMessage>> x =
          CompletableFuture.supplyAsync(() -> queues.claim(one()), threads);
      recheck.awaitReached(
          "claim X took the key's next message and reached its re-check (or its commit)");
      repend(prefix, dead);
      // Y reads X's message as still pending, so the re-pended one is the key's head: Y takes it
      // and commits before X re-checks. X then finds it in flight, not pending.
      List<QueueMessage> y = queues.claim(ten());
      recheck.release();

      assertThat(y).extracting(QueueMessage::id).containsExactly(dead);
      assertThat(x.get(BOUND.toSeconds(), TimeUnit.SECONDS))
          .as("claim X, after Y took the older message")
          .isEmpty();
      assertThat(inFlight(queues)).as("messages of key k in flight").containsExactly(dead);
      assertThat(queues.find(next).orElseThrow().status()).isEqualTo(MessageStatus.PENDING);
    }
  }

  /** Enqueues two messages of key k and dead-letters the first; returns both ids. */
  private static long[] deadHeadAndPendingNext(QueueStore queues) {
    queues.enqueue(List.of(KEYED, KEYED));
    QueueMessage head = queues.claim(one()).get(0);
    assertThat(
            queues
                .resolve(
                    List.of(new Resolution(head.claim(), new Resolution.DeadLetter("poison"))),
                    null)
                .applied())
        .containsExactly(head.id());
    QueueMessage next =
        queues.list(new MessageQuery("q", MessageStatus.PENDING, "k", null, null, 0, 10)).get(0);
    return new long[] {head.id(), next.id()};
  }

  private static ClaimRequest one() {
    return ClaimRequest.of("q", "node", 1, Duration.ofMinutes(5));
  }

  private static ClaimRequest ten() {
    return ClaimRequest.of("q", "node", 10, Duration.ofMinutes(5));
  }

  private static List<Long> inFlight(QueueStore queues) {
    return queues
        .list(new MessageQuery("q", MessageStatus.INFLIGHT, "k", null, null, 0, 10))
        .stream()
        .map(QueueMessage::id)
        .toList();
  }

  private static void finish(QueueStore queues, long id) {
    QueueMessage message = queues.find(id).orElseThrow();
    assertThat(
            queues
                .resolve(List.of(new Resolution(message.claim(), new Resolution.Done(false))), null)
                .applied())
        .containsExactly(id);
  }

  /**
   * What a replay committed between the claim's snapshot and its lock would have left: the dead
   * letter pending.
   */
  private void repend(TablePrefix prefix, long id) throws SQLException {
    try (Connection connection = fixture.openConnection().orElseThrow();
        PreparedStatement statement =
            connection.prepareStatement(
                "UPDATE "
                    + prefix.table("messages")
                    + " SET status = 'PENDING', attempts = 0, finished_at = NULL WHERE id = ? AND status = 'DEAD'")) {
      statement.setLong(1, id);
      assertThat(statement.executeUpdate()).isEqualTo(1);
    }
  }

  /**
   * Whether a statement on this prefix's messages waits for a row lock, as the database reports it.
   * MariaDB refreshes information_schema.innodb_trx only if nobody read it for 0.1 s, so it is read
   * at most every 0.2 s: read more often, it would show its first state for ever.
   */
  private boolean replayWaitsForALock(JdbcFixture.Kind kind, TablePrefix prefix) {
    if (kind == JdbcFixture.Kind.MARIADB) {
      if (System.nanoTime() - lastLockPoll < TimeUnit.MILLISECONDS.toNanos(200)) {
        return false;
      }
      lastLockPoll = System.nanoTime();
    }
    String sql =
        kind == JdbcFixture.Kind.POSTGRES
            ? "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE ?"
            : "SELECT count(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT' AND trx_query LIKE ?";
    try (Connection connection = fixture.openConnection().orElseThrow();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, "%" + prefix.table("messages") + "%");
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return rows.getInt(1) > 0;
      }
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }

  private TablePrefix open(JdbcFixture.Kind kind) {
    fixture = JdbcFixture.of(kind);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(fixture.url());
    config.setMaximumPoolSize(4);
    config.setTransactionIsolation("TRANSACTION_REPEATABLE_READ");
    pool = new HikariDataSource(config);
    return fixture.freshPrefix();
  }

  /**
   * The pool, with {@link #commit} on every commit and {@link #recheck} on preparing the re-check
   * or, were there none, on the commit: either way after the claim's UPDATE, before its commit.
   */
  private DataSource gated() {
    return (DataSource)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              Object result = invoke(pool, method, args);
              if (!method.getName().equals("getConnection")) {
                return result;
              }
              Connection connection = (Connection) result;
              return Proxy.newProxyInstance(
                  getClass().getClassLoader(),
                  new Class<?>[] {Connection.class},
                  (p, m, a) -> {
                    if (m.getName().equals("commit")) {
                      commit.pass();
                      recheck.pass();
                    } else if (m.getName().equals("prepareStatement")
                        && String.valueOf(a[0]).contains(RECHECK)) {
                      recheck.pass();
                    }
                    return invoke(connection, m, a);
                  });
            });
  }

  private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args)
      throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @FunctionalInterface
  private interface Replay {
    int run(QueueStore queues, long dead);
  }

  /** Once armed, holds the first call that passes it until released. */
  private static final class Gate {
    private final AtomicBoolean armed = new AtomicBoolean();
    private final CountDownLatch reached = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    void arm() {
      armed.set(true);
    }

    void pass() throws InterruptedException {
      if (armed.compareAndSet(true, false)) {
        reached.countDown();
        if (!released.await(BOUND.toSeconds(), TimeUnit.SECONDS)) {
          throw new AssertionError("a gate was never released");
        }
      }
    }

    void awaitReached(String what) throws InterruptedException {
      assertThat(reached.await(BOUND.toSeconds(), TimeUnit.SECONDS)).as(what).isTrue();
    }

    void release() {
      released.countDown();
    }
  }
}
