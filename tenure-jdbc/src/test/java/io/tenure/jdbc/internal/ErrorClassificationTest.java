package io.tenure.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.ConstraintViolationException;
import io.tenure.ContentionException;
import io.tenure.SchemaMissingException;
import io.tenure.StoreException;
import io.tenure.StoreUnavailableException;
import io.tenure.jdbc.JdbcFixture;
import io.tenure.jdbc.JdbcFixture.Kind;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each dialect's classifier, fed real errors provoked on real databases: contention, a missing
 * table, a lost or refused connection, an unexpected constraint violation.
 */
class ErrorClassificationTest {

  /**
   * @return a table name no concurrent run uses: these tests share the servers' {@code test}
   *     database with every other run on the machine
   */
  private static String uniqueTable() {
    return "tenure_cls_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }

  private static RuntimeException translated(Dialect dialect, Statement statement, String sql) {
    Jdbc jdbc = new Jdbc(null, dialect, "test", () -> false);
    try {
      statement.execute(sql);
    } catch (SQLException e) {
      return jdbc.translate("test statement", e);
    }
    throw new AssertionError("expected " + sql + " to fail");
  }

  @Nested
  class Postgres {
    private final String url = JdbcFixture.of(Kind.POSTGRES).url();
    private final Dialect dialect = new PostgresDialect();

    @Test
    void a_missing_table_is_schema_missing() throws SQLException {
      try (Connection c = DriverManager.getConnection(url);
          Statement s = c.createStatement()) {
        assertThat(translated(dialect, s, "SELECT * FROM tenure_no_such_table"))
            .isInstanceOf(SchemaMissingException.class);
      }
    }

    @Test
    void a_row_locked_by_another_transaction_with_nowait_is_contention() throws SQLException {
      try (Connection holder = DriverManager.getConnection(url);
          Connection waiter = DriverManager.getConnection(url);
          Statement h = holder.createStatement();
          Statement w = waiter.createStatement()) {
        String table = uniqueTable();
        h.execute("CREATE TABLE " + table + " (id int primary key)");
        h.execute("INSERT INTO " + table + " VALUES (1)");
        try {
          holder.setAutoCommit(false);
          h.execute("SELECT * FROM " + table + " WHERE id = 1 FOR UPDATE");
          assertThat(
                  translated(
                      dialect, w, "SELECT * FROM " + table + " WHERE id = 1 FOR UPDATE NOWAIT"))
              .isInstanceOf(ContentionException.class);
          holder.rollback();
        } finally {
          holder.setAutoCommit(true);
          h.execute("DROP TABLE " + table);
        }
      }
    }

    @Test
    void an_unexpected_duplicate_is_a_constraint_violation() throws SQLException {
      try (Connection c = DriverManager.getConnection(url);
          Statement s = c.createStatement()) {
        s.execute("CREATE TEMP TABLE t_dup (id int primary key)");
        s.execute("INSERT INTO t_dup VALUES (1)");
        assertThat(translated(dialect, s, "INSERT INTO t_dup VALUES (1)"))
            .isInstanceOf(ConstraintViolationException.class);
      }
    }

    @Test
    void a_terminated_connection_is_unavailable() throws SQLException {
      try (Connection victim = DriverManager.getConnection(url);
          Connection admin = DriverManager.getConnection(url);
          Statement v = victim.createStatement();
          Statement a = admin.createStatement()) {
        var rows = v.executeQuery("SELECT pg_backend_pid()");
        rows.next();
        a.execute("SELECT pg_terminate_backend(" + rows.getInt(1) + ")");
        assertThat(translated(dialect, v, "SELECT 1"))
            .isInstanceOf(StoreUnavailableException.class);
      }
    }

    @Test
    void an_unknown_role_is_unavailable() {
      String badUser = url.replace("user=postgres", "user=tenure_no_such_role");
      assertThatThrownBy(() -> DriverManager.getConnection(badUser))
          .isInstanceOfSatisfying(
              SQLException.class,
              e ->
                  assertThat(new Jdbc(null, dialect, "t", () -> false).translate("login", e))
                      .isInstanceOf(StoreUnavailableException.class));
    }

    @Test
    void serialization_failures_and_deadlocks_are_contention() {
      assertThat(dialect.classify(new SQLException("x", "40001"))).isEqualTo(SqlFailure.CONTENTION);
      assertThat(dialect.classify(new SQLException("x", "40P01"))).isEqualTo(SqlFailure.CONTENTION);
      assertThat(dialect.classify(new SQLException("x", "55P03"))).isEqualTo(SqlFailure.CONTENTION);
      assertThat(dialect.classify(new SQLException("x", "42601"))).isEqualTo(SqlFailure.OTHER);
    }
  }

  @Nested
  class MariaDb {
    private final String url = JdbcFixture.of(Kind.MARIADB).url();
    private final Dialect dialect = new MariaDbDialect("mariadb");

    @Test
    void a_missing_table_is_schema_missing() throws SQLException {
      try (Connection c = DriverManager.getConnection(url);
          Statement s = c.createStatement()) {
        assertThat(translated(dialect, s, "SELECT * FROM tenure_no_such_table"))
            .isInstanceOf(SchemaMissingException.class);
      }
    }

    @Test
    void a_lock_wait_timeout_is_contention() throws SQLException {
      try (Connection holder = DriverManager.getConnection(url);
          Connection waiter = DriverManager.getConnection(url);
          Statement h = holder.createStatement();
          Statement w = waiter.createStatement()) {
        String table = uniqueTable();
        h.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY) ENGINE=InnoDB");
        h.execute("INSERT INTO " + table + " VALUES (1)");
        try {
          holder.setAutoCommit(false);
          h.execute("SELECT * FROM " + table + " WHERE id = 1 FOR UPDATE");
          w.execute("SET SESSION innodb_lock_wait_timeout = 1");
          assertThat(translated(dialect, w, "UPDATE " + table + " SET id = 2 WHERE id = 1"))
              .isInstanceOf(ContentionException.class);
          holder.rollback();
        } finally {
          holder.setAutoCommit(true);
          h.execute("DROP TABLE " + table);
        }
      }
    }

    @Test
    void an_unexpected_duplicate_is_a_constraint_violation_not_an_absent_row() throws SQLException {
      try (Connection c = DriverManager.getConnection(url);
          Statement s = c.createStatement()) {
        s.execute(
            "CREATE TEMPORARY TABLE t_dup (id INT PRIMARY KEY, code INT, UNIQUE KEY uq_code (code))");
        s.execute("INSERT INTO t_dup VALUES (1, 1)");
        RuntimeException onOtherKey = translated(dialect, s, "INSERT INTO t_dup VALUES (2, 1)");
        assertThat(onOtherKey).isInstanceOf(ConstraintViolationException.class);
        assertThat(dialect.isDuplicateKey((SQLException) onOtherKey.getCause())).isFalse();
        assertThatThrownBy(() -> s.execute("INSERT INTO t_dup VALUES (1, 2)"))
            .isInstanceOfSatisfying(
                SQLException.class, e -> assertThat(dialect.isDuplicateKey(e)).isTrue());
      }
    }

    @Test
    void the_primary_key_is_recognised_in_every_message_language_and_server_form() {
      for (String primary :
          List.of(
              "(conn=7) Duplicate entry 'acme-doc' for key 'PRIMARY'",
              "(conn=7) Doppelter Eintrag 'acme-doc' f\u00fcr Schl\u00fcssel 'PRIMARY'",
              "Duplicate entry 'acme-doc' for key 'tenure_markers.PRIMARY'",
              "'acme-doc' \u306f\u7d22\u5f15 'PRIMARY' \u3067\u91cd\u8907\u3057\u3066\u3044\u307e\u3059\u3002")) {
        assertThat(dialect.isDuplicateKey(new SQLException(primary, "23000", 1062)))
            .as(primary)
            .isTrue();
      }
      for (String other :
          List.of(
              "Duplicate entry '1' for key 'uq_code'",
              "Duplicate entry '1' for key 't_dup.uq_code'",
              "Duplicate entry 'x' for key 'PRIMARY' for key 'uq_code'",
              "Duplicate entry 'PRIMARY' for key 'NOT_PRIMARY'")) {
        assertThat(dialect.isDuplicateKey(new SQLException(other, "23000", 1062)))
            .as(other)
            .isFalse();
      }
      assertThat(dialect.isDuplicateKey(new SQLException("for key 'PRIMARY'", "23000", 1048)))
          .isFalse();
    }

    @Test
    void a_killed_connection_is_unavailable() throws SQLException {
      try (Connection victim = DriverManager.getConnection(url);
          Connection admin = DriverManager.getConnection(url);
          Statement v = victim.createStatement();
          Statement a = admin.createStatement()) {
        var rows = v.executeQuery("SELECT CONNECTION_ID()");
        rows.next();
        a.execute("KILL " + rows.getLong(1));
        assertThat(translated(dialect, v, "SELECT 1"))
            .isInstanceOf(StoreUnavailableException.class);
      }
    }

    @Test
    void bad_credentials_are_unavailable() {
      String badUser = url.replace("user=root", "user=tenure_nobody&password=wrong");
      assertThatThrownBy(() -> DriverManager.getConnection(badUser))
          .isInstanceOfSatisfying(
              SQLException.class,
              e ->
                  assertThat(new Jdbc(null, dialect, "t", () -> false).translate("login", e))
                      .isInstanceOf(StoreUnavailableException.class));
    }

    @Test
    void
        a_statement_beyond_max_allowed_packet_is_too_large_whether_the_server_or_the_driver_refuses_it() {
      // As the driver reports them (recorded on MariaDB 10.11 with Connector/J 3.5): the server's
      // refusal, which only a caller's pool that does not tell the driver the limit meets, then the
      // driver's own, which Tenure's pools get; both end the connection, neither is an outage.
      SQLException server =
          new SQLNonTransientConnectionException(
              "(conn=438) Got a packet bigger than 'max_allowed_packet' bytes", "08S01", 1153);
      SQLException driver =
          new SQLNonTransientConnectionException(
              "(conn=454) Packet too big for current server max_allowed_packet value",
              "08000",
              -1,
              new java.io.IOException(
                  "query size (17039852) is >= to max_allowed_packet (16777216)"));
      SQLException reset =
          new SQLNonTransientConnectionException(
              "(conn=439) Socket error",
              "08000",
              -1,
              new java.net.SocketException("Connection reset by peer"));

      assertThat(dialect.classify(server)).isEqualTo(SqlFailure.TOO_LARGE);
      assertThat(dialect.classify(driver)).isEqualTo(SqlFailure.TOO_LARGE);
      assertThat(dialect.classify(reset)).isEqualTo(SqlFailure.UNAVAILABLE);
      assertThat(new Jdbc(null, dialect, "t", () -> false).translate("enqueue 1 messages", driver))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("query size (17039852) is >= to max_allowed_packet (16777216)")
          .hasMessageContaining("nothing was written");
    }

    @Test
    void deadlocks_are_contention() {
      assertThat(dialect.classify(new SQLException("x", "40001", 1213)))
          .isEqualTo(SqlFailure.CONTENTION);
      assertThat(dialect.classify(new SQLException("x", "HY000", 1205)))
          .isEqualTo(SqlFailure.CONTENTION);
      assertThat(dialect.classify(new SQLException("x", "42000", 1064)))
          .isEqualTo(SqlFailure.OTHER);
    }
  }

  @Nested
  class Sqlite {
    private final Dialect dialect = new SqliteDialect();

    @Test
    void a_write_lock_held_elsewhere_is_contention(@TempDir Path dir) throws SQLException {
      String url = "jdbc:sqlite:" + dir.resolve("busy.db");
      try (Connection holder = DriverManager.getConnection(url);
          Connection waiter = DriverManager.getConnection(url);
          Statement h = holder.createStatement();
          Statement w = waiter.createStatement()) {
        h.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
        w.execute("PRAGMA busy_timeout = 0");
        h.execute("BEGIN IMMEDIATE");
        assertThat(translated(dialect, w, "BEGIN IMMEDIATE"))
            .isInstanceOf(ContentionException.class);
        h.execute("ROLLBACK");
      }
    }

    @Test
    void begin_takes_the_write_lock_at_once_so_writers_queue_at_begin_not_fail_at_commit(
        @TempDir Path dir) throws SQLException {
      String url = "jdbc:sqlite:" + dir.resolve("immediate.db");
      try (Connection holder = DriverManager.getConnection(url);
          Connection waiter = DriverManager.getConnection(url);
          Statement w = waiter.createStatement()) {
        w.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
        w.execute("PRAGMA busy_timeout = 0");
        dialect.begin(holder);
        try {
          assertThat(translated(dialect, w, "BEGIN IMMEDIATE"))
              .isInstanceOf(ContentionException.class);
        } finally {
          dialect.rollback(holder);
        }
      }
    }

    @Test
    void a_missing_table_is_schema_missing(@TempDir Path dir) throws SQLException {
      try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("m.db"));
          Statement s = c.createStatement()) {
        assertThat(translated(dialect, s, "SELECT * FROM tenure_markers"))
            .isInstanceOf(SchemaMissingException.class);
      }
    }

    @Test
    void an_unexpected_duplicate_is_a_constraint_violation(@TempDir Path dir) throws SQLException {
      try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("d.db"));
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
        s.execute("INSERT INTO t VALUES (1)");
        assertThat(translated(dialect, s, "INSERT INTO t VALUES (1)"))
            .isInstanceOf(ConstraintViolationException.class);
      }
    }

    @Test
    void anything_else_is_a_plain_store_exception(@TempDir Path dir) throws SQLException {
      try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("o.db"));
          Statement s = c.createStatement()) {
        RuntimeException e = translated(dialect, s, "SELEC 1");
        assertThat(e)
            .isExactlyInstanceOf(StoreException.class)
            .hasMessageContaining("test statement on test");
      }
    }
  }
}
