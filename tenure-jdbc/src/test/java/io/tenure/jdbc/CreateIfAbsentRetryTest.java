package io.tenure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.MarkerChange;
import io.tenure.spi.CreateResult;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC §7 / MarkerStore#createIfAbsent: when the insert finds a row but a concurrent clear deletes
 * it before the read, the store inserts again instead of returning a missing marker. PostgreSQL's
 * {@code ON CONFLICT DO NOTHING} takes no lock on the row it conflicted with, so this window is
 * real there (MariaDB's duplicate-key error locks the row; SQLite holds the write lock throughout).
 * The window is forced: a proxy deletes the row on another connection right before the read.
 */
class CreateIfAbsentRetryTest {
  private final JdbcFixture fixture = JdbcFixture.of(JdbcFixture.Kind.POSTGRES);

  @AfterEach
  void close() {
    fixture.close();
  }

  @Test
  void a_row_cleared_between_insert_and_read_is_inserted_again() throws SQLException {
    TablePrefix prefix = fixture.freshPrefix();
    fixture.open(prefix).markers().createIfAbsent(MarkerChange.of("t", "r", "ARCHIVED", "first"));
    AtomicInteger deletions = new AtomicInteger();
    DataSource clearingBeforeTheFirstRead = clearBeforeFirstRead(prefix, deletions);

    try (Store store =
        JdbcStore.builder().dataSource(clearingBeforeTheFirstRead).prefix(prefix).build()) {
      CreateResult result =
          store.markers().createIfAbsent(MarkerChange.of("t", "r", "SOFT_DELETED", "second"));

      assertThat(deletions).hasValue(1);
      assertThat(result.created()).isTrue();
      assertThat(result.marker().state()).isEqualTo("SOFT_DELETED");
      assertThat(result.marker().reason()).isEqualTo("second");
    }
  }

  /** A data source whose first marker read inside a transaction is preceded by a foreign delete. */
  private DataSource clearBeforeFirstRead(TablePrefix prefix, AtomicInteger deletions)
      throws SQLException {
    String url = fixture.url();
    String select =
        "SELECT tenant, resource, state, reason, marked_at FROM " + prefix.table("markers");
    return (DataSource)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              if (!method.getName().equals("getConnection")) {
                throw new UnsupportedOperationException(method.getName());
              }
              Connection real = DriverManager.getConnection(url);
              return Proxy.newProxyInstance(
                  getClass().getClassLoader(),
                  new Class<?>[] {Connection.class},
                  (p, m, a) -> {
                    if (m.getName().equals("prepareStatement")
                        && ((String) a[0]).startsWith(select)
                        && !real.getAutoCommit()
                        && deletions.get() == 0) {
                      deleteElsewhere(url, prefix);
                      deletions.incrementAndGet();
                    }
                    try {
                      return m.invoke(real, a);
                    } catch (InvocationTargetException e) {
                      throw e.getCause();
                    }
                  });
            });
  }

  private static void deleteElsewhere(String url, TablePrefix prefix) throws SQLException {
    try (Connection other = DriverManager.getConnection(url);
        PreparedStatement delete =
            other.prepareStatement(
                "DELETE FROM "
                    + prefix.table("markers")
                    + " WHERE tenant = 't' AND resource = 'r'")) {
      assertThat(delete.executeUpdate()).isEqualTo(1);
    }
  }
}
