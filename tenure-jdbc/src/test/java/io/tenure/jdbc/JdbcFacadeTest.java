package io.tenure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tenure.MessageFilter;
import io.tenure.NodeInfo;
import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.QueueStats;
import io.tenure.SchemaMissingException;
import io.tenure.Tenure;
import io.tenure.TenureNode;
import io.tenure.TransitionResult;
import io.tenure.UnsupportedDatabaseException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The {@link Tenure} entry point on real databases: opened by URL through the JDBC provider, and on
 * a caller's data source, which it borrows and never closes; bad input refused before anything is
 * created.
 */
class JdbcFacadeTest {
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
  @EnumSource(
      value = JdbcFixture.Kind.class,
      names = {"SQLITE", "POSTGRES"})
  void opened_by_url_and_by_data_source_two_tenures_share_one_prefix(JdbcFixture.Kind kind) {
    fixture = JdbcFixture.of(kind);
    String prefix = fixture.freshPrefix().value();
    callerPool = pool(fixture.url());

    try (Tenure byUrl = Tenure.builder(fixture.url()).prefix(prefix).poolSize(2).open()) {
      Queue orders = byUrl.queue("orders", QueuePolicy.defaults());
      long id = orders.enqueue(OutgoingMessage.text("order 1").key("customer-1"));
      assertThat(byUrl.markers().transition("acme", "invoice-1", "ARCHIVED", null))
          .isInstanceOf(TransitionResult.Applied.class);

      try (Tenure bySource = Tenure.builder(callerPool).prefix(prefix).open()) {
        assertThat(bySource.admin().queues())
            .extracting(QueueStats::queue, QueueStats::pending)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("orders", 1L));
        assertThat(bySource.admin().message(id)).isPresent();
        assertThat(bySource.markers().get("acme", "invoice-1")).isPresent();
        assertThat(bySource.admin().deadLetters("orders", MessageFilter.ALL, 0, 10)).isEmpty();
        assertThat(bySource.toString())
            .contains(kind == JdbcFixture.Kind.SQLITE ? "sqlite" : "postgresql");
      }
    }
    // Closing the Tenure left the caller's pool open and usable.
    assertThat(callerPool.isClosed()).isFalse();
    assertThat(countTables(callerPool, prefix)).isPositive();
  }

  @ParameterizedTest
  @EnumSource(
      value = JdbcFixture.Kind.class,
      names = {"SQLITE", "POSTGRES"})
  void a_node_built_from_a_tenure_joins_on_its_store(JdbcFixture.Kind kind) {
    fixture = JdbcFixture.of(kind);
    String prefix = fixture.freshPrefix().value();
    try (Tenure tenure = Tenure.builder(fixture.url()).prefix(prefix).open();
        TenureNode node = tenure.node().name("facade-node").build()) {
      node.start();
      assertThat(tenure.admin().nodes()).extracting(NodeInfo::name).containsExactly("facade-node");
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = JdbcFixture.Kind.class,
      names = {"SQLITE", "POSTGRES"})
  void requiring_a_schema_that_is_missing_creates_no_table(JdbcFixture.Kind kind) {
    fixture = JdbcFixture.of(kind);
    String prefix = fixture.freshPrefix().value();
    callerPool = pool(fixture.url());
    assertThatThrownBy(
            () ->
                Tenure.builder(callerPool)
                    .prefix(prefix)
                    .migrate(false)
                    .requireSchema(true)
                    .open()
                    .close())
        .isInstanceOf(SchemaMissingException.class);
    assertThat(countTables(callerPool, prefix)).isZero();
  }

  @Test
  void an_unsupported_database_behind_a_data_source_is_refused_and_nothing_written() {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:facade-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    assertThatThrownBy(() -> Tenure.builder(h2).open().close())
        .isInstanceOf(UnsupportedDatabaseException.class);
    assertThat(countTables(h2, "")).isZero();
  }

  @Test
  void bad_sqlite_input_creates_no_file(@TempDir Path dir) {
    Path file = dir.resolve("sub").resolve("app.db");
    String url = "sqlite:" + file;
    assertThatThrownBy(() -> Tenure.builder(url).prefix("Bad Prefix"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'Bad Prefix'");
    assertThatThrownBy(() -> Tenure.open("sqlit:" + file))
        .isInstanceOf(UnsupportedDatabaseException.class)
        .hasMessageContaining("sqlit:" + file)
        .hasMessageContaining("sqlite:PATH");
    assertThatThrownBy(() -> Tenure.builder(url).migrate(false).requireSchema(true).open())
        .isInstanceOf(SchemaMissingException.class);
    assertThat(Files.exists(dir.resolve("sub"))).isFalse();
  }

  private static HikariDataSource pool(String url) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(StoreUrls.toJdbcUrl(url));
    config.setMaximumPoolSize(4);
    return new HikariDataSource(config);
  }

  /** Tables whose name starts with {@code prefix} (H2: every table of the PUBLIC schema). */
  private static int countTables(javax.sql.DataSource source, String prefix) {
    try (Connection connection = source.getConnection();
        ResultSet tables =
            connection.getMetaData().getTables(null, null, "%", new String[] {"TABLE"})) {
      int count = 0;
      while (tables.next()) {
        String name = tables.getString("TABLE_NAME").toLowerCase(java.util.Locale.ROOT);
        String schema = tables.getString("TABLE_SCHEM");
        boolean system = schema != null && schema.equalsIgnoreCase("INFORMATION_SCHEMA");
        if (!system && name.startsWith(prefix)) {
          count++;
        }
      }
      return count;
    } catch (java.sql.SQLException e) {
      throw new AssertionError(e);
    }
  }
}
