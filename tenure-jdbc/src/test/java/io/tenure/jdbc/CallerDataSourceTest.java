package io.tenure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tenure.Marker;
import io.tenure.MarkerKey;
import io.tenure.Markers;
import io.tenure.TransitionResult.Outcome;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A data source the caller configured (auto-commit off, its own isolation level) works as a store,
 * and gets every connection back exactly as it configured it.
 */
class CallerDataSourceTest {
  /**
   * SQLite knows only SERIALIZABLE and READ_UNCOMMITTED; PostgreSQL and MariaDB default to neither,
   * and Tenure's writes run in READ COMMITTED, so a level Tenure forgets to restore shows.
   */
  private static final int CALLER_ISOLATION = Connection.TRANSACTION_SERIALIZABLE;

  private JdbcFixture fixture;
  private HikariDataSource callerPool;

  @AfterEach
  void close() {
    if (callerPool != null) {
      callerPool.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  @ParameterizedTest
  @EnumSource(JdbcFixture.Kind.class)
  void a_pool_with_auto_commit_off_works_and_gets_its_connections_back_unchanged(
      JdbcFixture.Kind kind) {
    fixture = JdbcFixture.of(kind);
    TablePrefix prefix = fixture.freshPrefix();
    callerPool = callerPool();
    List<String> returned = new CopyOnWriteArrayList<>();

    try (Store store =
        JdbcStore.builder().dataSource(watched(callerPool, returned)).prefix(prefix).build()) {
      Markers markers = Markers.builder(store.markers()).build();
      assertThat(markers.transition("t", "r", "ARCHIVED", "committed?").outcome())
          .isEqualTo(Outcome.APPLIED);

      Store second = fixture.openWithoutMigration(prefix);
      assertThat(second.describe().schemaVersion())
          .isEqualTo(store.describe().schemaVersion())
          .isPositive();
      assertThat(second.markers().find(MarkerKey.of("t", "r")))
          .map(Marker::reason)
          .contains("committed?");
    }
    assertThat(returned)
        .isNotEmpty()
        .containsOnly("autoCommit=false isolation=" + CALLER_ISOLATION);
  }

  @ParameterizedTest
  @EnumSource(JdbcFixture.Kind.class)
  void heartbeats_and_lease_statements_use_the_coordination_data_source(JdbcFixture.Kind kind) {
    fixture = JdbcFixture.of(kind);
    callerPool = callerPool();
    List<String> main = new CopyOnWriteArrayList<>();
    List<String> coordination = new CopyOnWriteArrayList<>();
    try (HikariDataSource coordinationPool = callerPool();
        Store store =
            JdbcStore.builder()
                .dataSource(watched(callerPool, main))
                .coordinationDataSource(watched(coordinationPool, coordination))
                .prefix(fixture.freshPrefix())
                .build()) {
      main.clear();
      store.membership().heartbeat("nobody");
      store.leases().acquire("n1", java.time.Duration.ofSeconds(5));
      assertThat(coordination).hasSize(2);
      assertThat(main).isEmpty();
    }
  }

  @org.junit.jupiter.api.Test
  void a_coordination_data_source_without_a_main_one_is_refused() {
    JdbcStore.Builder builder = JdbcStore.builder().url("sqlite:/nonexistent/never-created.db");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> builder.coordinationDataSource(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("coordination data source");
    builder.coordinationDataSource(new HikariDataSource());
    org.assertj.core.api.Assertions.assertThatThrownBy(builder::build)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("coordinationDataSource(...) goes with dataSource(...)");
  }

  private HikariDataSource callerPool() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(StoreUrls.toJdbcUrl(fixture.url()));
    config.setMaximumPoolSize(3);
    config.setAutoCommit(false);
    config.setTransactionIsolation("TRANSACTION_SERIALIZABLE");
    return new HikariDataSource(config);
  }

  /** The caller's pool, watched: records each connection's settings as Tenure gives it back. */
  private static DataSource watched(DataSource pool, List<String> returned) {
    return (DataSource)
        Proxy.newProxyInstance(
            CallerDataSourceTest.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              Object result = forward(method, pool, args);
              return method.getName().equals("getConnection")
                  ? recording((Connection) result, returned)
                  : result;
            });
  }

  private static Connection recording(Connection connection, List<String> returned) {
    return (Connection)
        Proxy.newProxyInstance(
            CallerDataSourceTest.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              if (method.getName().equals("close")) {
                returned.add(
                    "autoCommit="
                        + connection.getAutoCommit()
                        + " isolation="
                        + connection.getTransactionIsolation());
              }
              return forward(method, connection, args);
            });
  }

  private static Object forward(java.lang.reflect.Method method, Object target, Object[] args)
      throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
