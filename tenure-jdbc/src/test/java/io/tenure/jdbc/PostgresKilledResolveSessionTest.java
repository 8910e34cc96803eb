package io.tenure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tenure.ConsumerStats;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.TenureNode;
import io.tenure.tck.Await;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * SPEC §6.3 on PostgreSQL with a real killed session: the pooled connection a consumer's resolver
 * borrows for a done is terminated ({@code pg_terminate_backend}) before its first statement. The
 * write fails as unavailable, is tried again on another connection, and lands: the message runs
 * once, not again after its lease (five minutes here). Only this test's own sessions are killed:
 * the pid of the connection just borrowed, checked against this pool's application_name.
 */
class PostgresKilledResolveSessionTest {
  private static final Duration BOUND = Duration.ofSeconds(60);
  private final String application = "tenure-test-" + UUID.randomUUID().toString().substring(0, 8);
  private final JdbcFixture fixture = JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
  private HikariDataSource pool;
  private TenureNode node;
  private JdbcStore store;

  @AfterEach
  void close() {
    if (node != null) {
      node.close();
    }
    if (store != null) {
      store.close();
    }
    if (pool != null) {
      pool.close();
    }
    fixture.close();
  }

  @Test
  void a_done_whose_session_is_killed_is_written_on_another_connection() throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(fixture.url());
    config.setMaximumPoolSize(6);
    config.addDataSourceProperty("ApplicationName", application);
    pool = new HikariDataSource(config);
    AtomicBoolean armed = new AtomicBoolean();
    AtomicInteger killed = new AtomicInteger();
    DataSource killing = killNextResolveSession(pool, armed, killed);
    store = JdbcStore.builder().dataSource(killing).prefix(fixture.freshPrefix()).build();
    Queue jobs =
        Queue.on(store.queues(), "jobs", QueuePolicy.defaults().withLease(Duration.ofMinutes(5)));
    long id = jobs.enqueue(OutgoingMessage.text("once"));
    AtomicInteger runs = new AtomicInteger();

    node =
        TenureNode.builder(store)
            .name("n1")
            .consumer(
                jobs,
                1,
                d -> {
                  runs.incrementAndGet();
                  armed.set(
                      true); // the resolver's next connection, the one for this done, is killed
                })
            .build();
    node.start();

    Await.until(
        BOUND,
        "done written",
        () -> jobs.message(id).isEmpty() && node.consumerStats().get(0).handled() == 1);
    assertThat(killed).as("sessions killed").hasValue(1);
    assertThat(runs).hasValue(1);
    ConsumerStats stats = node.consumerStats().get(0);
    assertThat(stats.unwritten()).isZero();
    assertThat(stats.lostClaims()).isZero();
  }

  /** The pool, killing the session of the first connection a resolver borrows once armed. */
  private DataSource killNextResolveSession(
      DataSource real, AtomicBoolean armed, AtomicInteger killed) {
    return (DataSource)
        Proxy.newProxyInstance(
            DataSource.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              Object result;
              try {
                result = method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
              if (method.getName().equals("getConnection")
                  && Thread.currentThread().getName().startsWith("tenure-resolve-")
                  && armed.compareAndSet(true, false)) {
                kill(((Connection) result).unwrap(PGConnection.class).getBackendPID());
                killed.incrementAndGet();
              }
              return result;
            });
  }

  /** Terminates the session {@code pid} if it is one of this test's, and waits until it is gone. */
  private void kill(int pid) throws SQLException {
    try (Connection admin = DriverManager.getConnection(fixture.url())) {
      try (PreparedStatement terminate =
          admin.prepareStatement(
              "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = ? AND application_name = ?")) {
        terminate.setInt(1, pid);
        terminate.setString(2, application);
        try (ResultSet rows = terminate.executeQuery()) {
          assertThat(rows.next() && rows.getBoolean(1))
              .as("session %d of %s terminated", pid, application)
              .isTrue();
        }
      }
      Await.until(
          BOUND,
          "session " + pid + " gone",
          () -> {
            try (PreparedStatement alive =
                admin.prepareStatement("SELECT 1 FROM pg_stat_activity WHERE pid = ?")) {
              alive.setInt(1, pid);
              try (ResultSet rows = alive.executeQuery()) {
                return !rows.next();
              }
            } catch (SQLException e) {
              throw new AssertionError(e);
            }
          });
    }
  }
}
