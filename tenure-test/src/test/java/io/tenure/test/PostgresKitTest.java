package io.tenure.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.Tenure;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The kit on PostgreSQL by URL: a fresh table prefix per test, dropped after it. An unreachable
 * server skips these tests with a loud message locally and fails them when {@code CI=true}, as the
 * providers' own tests do; {@code TENURE_TEST_POSTGRES_URL} points them at another server.
 */
class PostgresKitTest {
  static final String URL = url();

  @RegisterExtension static final TenureExtension TENURE = TenureExtension.url(URL);

  private static String url() {
    String override = System.getenv("TENURE_TEST_POSTGRES_URL");
    return override != null && !override.isBlank()
        ? override
        : "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
  }

  @BeforeAll
  static void requireReachable() {
    try (Connection ignored = DriverManager.getConnection(URL)) {
      // reachable
    } catch (SQLException e) {
      String message = "!!! PostgreSQL is not reachable at " + URL + " (" + e.getMessage() + ").";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        throw new AssertionError(message + " CI=true: an unreachable provider fails the build.", e);
      }
      System.err.println(message + " Its tests are SKIPPED; CI would fail.");
      Assumptions.abort(message);
    }
  }

  @Test
  void enqueue_drain_and_assert_on_a_prefix_of_its_own(Tenure tenure, TenureTestKit kit)
      throws SQLException {
    Queue emails = tenure.queue("emails", QueuePolicy.defaults().withMaxAttempts(1));
    emails.enqueue(OutgoingMessage.text("welcome"));
    emails.enqueue(OutgoingMessage.text("bounce"));

    DrainResult result =
        kit.drain(
            emails,
            delivery -> {
              if (delivery.text().equals("bounce")) {
                throw new IllegalStateException("mailbox full");
              }
            });

    assertThat(result.handled()).isEqualTo(1);
    assertThat(result.dead()).isEqualTo(1);
    kit.assertDeadLettered(emails, Messages.text("bounce"));
    assertThat(prefixOf(tenure)).matches("tt[0-9a-f]{12}_");
    assertThat(tables(prefixOf(tenure))).isNotEmpty();
  }

  @Test
  void the_clock_is_postgresqls_and_refuses_to_move(TestClock clock) {
    assertThat(clock.movable()).isFalse();
    assertThatThrownBy(() -> clock.advance(Duration.ofSeconds(1)))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("TestClock.advance(PT1S) refused: Tenure[postgresql");
  }

  /** The prefixes the sample's tests ran on. */
  static final List<String> PREFIXES = new CopyOnWriteArrayList<>();

  static class PrefixSample {
    @RegisterExtension static final TenureExtension TENURE = TenureExtension.url(URL);

    @Test
    void one(Tenure tenure) throws SQLException {
      see(tenure);
    }

    @Test
    void two(Tenure tenure) throws SQLException {
      see(tenure);
    }

    private static void see(Tenure tenure) throws SQLException {
      tenure.queue("q", QueuePolicy.defaults()).enqueue(OutgoingMessage.text("x"));
      String prefix = prefixOf(tenure);
      assertThat(tables(prefix)).isNotEmpty();
      PREFIXES.add(prefix);
    }
  }

  @Test
  void each_test_has_a_fresh_prefix_whose_tables_are_dropped_after_it() throws SQLException {
    PREFIXES.clear();
    EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(PrefixSample.class))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.succeeded(2));

    assertThat(PREFIXES).hasSize(2).doesNotHaveDuplicates();
    for (String prefix : PREFIXES) {
      assertThat(tables(prefix)).as("tables of " + prefix).isEmpty();
    }
  }

  private static String prefixOf(Tenure tenure) {
    return tenure.toString().replaceFirst(".*prefix ", "").replace("]", "");
  }

  private static List<String> tables(String prefix) throws SQLException {
    try (Connection connection = DriverManager.getConnection(URL);
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT table_name FROM information_schema.tables WHERE table_name LIKE '"
                    + prefix.replace("_", "\\_")
                    + "%'")) {
      List<String> tables = new java.util.ArrayList<>();
      while (rows.next()) {
        tables.add(rows.getString(1));
      }
      return tables;
    }
  }
}
