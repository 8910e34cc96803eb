package io.tenure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tenure.QueueMessage;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.NewMessage;
import io.tenure.spi.QueueStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two claims at once both take messages (SPEC §6.2: claims skip what peers hold, never wait for
 * it). The first claim is held between its statements and its commit, with its rows locked, while
 * the second runs. On MariaDB a locking read that sorts locks every row it sorts: a claim of 10
 * that chose from a window of 1,000 with {@code ORDER BY ... LIMIT 10 FOR UPDATE SKIP LOCKED} held
 * all 1,000, and the second claim got nothing (found in review). Servers only: SQLite's writers run
 * one at a time by design.
 */
class ConcurrentClaimTest {
  private JdbcFixture fixture;
  private HikariDataSource pool;

  @AfterEach
  void close() {
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
  void a_claim_while_another_is_uncommitted_takes_other_messages(JdbcFixture.Kind kind)
      throws Exception {
    fixture = JdbcFixture.of(kind);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(fixture.url());
    config.setMaximumPoolSize(4);
    pool = new HikariDataSource(config);
    AtomicBoolean holdNextCommit = new AtomicBoolean();
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    DataSource gated = gatedCommits(pool, holdNextCommit, held, release);
    try (JdbcStore store =
        JdbcStore.builder().dataSource(gated).prefix(fixture.freshPrefix()).build()) {
      QueueStore queues = store.queues();
      for (int batch = 0; batch < 2; batch++) {
        queues.enqueue(
            new ArrayList<>(
                Collections.nCopies(
                    QueueStore.MAX_BATCH,
                    new NewMessage(
                        "jobs",
                        null,
                        new byte[] {1},
                        "text/plain",
                        Map.of(),
                        0,
                        3,
                        Duration.ZERO,
                        null))));
      }
      ClaimRequest claim = ClaimRequest.of("jobs", "node", 10, Duration.ofMinutes(5));

      holdNextCommit.set(true);
      CompletableFuture<List<QueueMessage>> first =
          CompletableFuture.supplyAsync(() -> queues.claim(claim));
      assertThat(held.await(10, TimeUnit.SECONDS))
          .as("the first claim reached its commit")
          .isTrue();
      List<QueueMessage> second = queues.claim(claim);
      release.countDown();

      assertThat(second).as("the second claim, while the first holds its rows").hasSize(10);
      List<Long> firstIds = first.get(10, TimeUnit.SECONDS).stream().map(QueueMessage::id).toList();
      assertThat(firstIds)
          .hasSize(10)
          .doesNotContainAnyElementsOf(second.stream().map(QueueMessage::id).toList());
    }
  }

  /** A data source whose next commit, once {@code hold} is set, waits for {@code release}. */
  private static DataSource gatedCommits(
      HikariDataSource pool, AtomicBoolean hold, CountDownLatch held, CountDownLatch release) {
    return (DataSource)
        Proxy.newProxyInstance(
            ConcurrentClaimTest.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              Object result = invoke(pool, method, args);
              if (!method.getName().equals("getConnection")) {
                return result;
              }
              Connection connection = (Connection) result;
              return Proxy.newProxyInstance(
                  ConcurrentClaimTest.class.getClassLoader(),
                  new Class<?>[] {Connection.class},
                  (p, m, a) -> {
                    if (m.getName().equals("commit") && hold.compareAndSet(true, false)) {
                      held.countDown();
                      release.await(10, TimeUnit.SECONDS);
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
}
