package io.tenure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.ConstraintViolationException;
import io.tenure.MarkerChange;
import io.tenure.MarkerKey;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * SPEC §1.3 / §1.8: insert-if-absent absorbs exactly one error, the key already being there. Any
 * other constraint the row breaks is reported, never read as "someone else got there first" (which
 * would return created=false, or loop looking for a row that is not there). This is why MariaDB
 * does not use INSERT IGNORE and SQLite not INSERT OR IGNORE.
 */
class InsertIfAbsentHidesNoOtherErrorTest {
  private JdbcFixture fixture;

  @AfterEach
  void close() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @ParameterizedTest
  @EnumSource(JdbcFixture.Kind.class)
  void a_row_another_constraint_rejects_is_a_constraint_violation_not_already_there(
      JdbcFixture.Kind kind) throws SQLException {
    fixture = JdbcFixture.of(kind);
    TablePrefix prefix = fixture.freshPrefix();
    Store store = fixture.open(prefix);
    forbidTheReason(kind, prefix, "forbidden");

    assertThatThrownBy(
            () ->
                store.markers().createIfAbsent(MarkerChange.of("t", "r", "ARCHIVED", "forbidden")))
        .isInstanceOf(ConstraintViolationException.class)
        .hasMessageContaining("create marker t/r");
    assertThat(store.markers().find(MarkerKey.of("t", "r"))).isEmpty();
    assertThat(
            store
                .markers()
                .createIfAbsent(MarkerChange.of("t", "r", "ARCHIVED", "allowed"))
                .created())
        .isTrue();
  }

  /**
   * A second unique key is what the blanket forms would swallow on every database (INSERT IGNORE,
   * INSERT OR IGNORE, ON CONFLICT DO NOTHING without a target); MariaDB's INSERT IGNORE would still
   * raise the CHECK above, MySQL 8's would not.
   */
  @ParameterizedTest
  @EnumSource(JdbcFixture.Kind.class)
  void a_row_that_duplicates_another_unique_key_is_a_constraint_violation_not_already_there(
      JdbcFixture.Kind kind) throws SQLException {
    fixture = JdbcFixture.of(kind);
    TablePrefix prefix = fixture.freshPrefix();
    Store store = fixture.open(prefix);
    execute(
        "CREATE UNIQUE INDEX "
            + prefix.value()
            + "one_per_state ON "
            + prefix.table("markers")
            + " (tenant, state)");
    assertThat(
            store.markers().createIfAbsent(MarkerChange.of("t", "a", "ARCHIVED", null)).created())
        .isTrue();

    assertThatThrownBy(
            () -> store.markers().createIfAbsent(MarkerChange.of("t", "b", "ARCHIVED", null)))
        .isInstanceOf(ConstraintViolationException.class)
        .hasMessageContaining("create marker t/b");
    assertThat(store.markers().find(MarkerKey.of("t", "b"))).isEmpty();
  }

  /**
   * A constraint the schema does not have, added as a caller might (SQLite cannot add CHECKs
   * later).
   */
  private void forbidTheReason(JdbcFixture.Kind kind, TablePrefix prefix, String reason)
      throws SQLException {
    String table = prefix.table("markers");
    String sql =
        kind == JdbcFixture.Kind.SQLITE
            ? "CREATE TRIGGER "
                + prefix.value()
                + "no_forbidden BEFORE INSERT ON "
                + table
                + " WHEN NEW.reason = '"
                + reason
                + "' BEGIN SELECT RAISE(ABORT, 'reason is forbidden'); END"
            : "ALTER TABLE "
                + table
                + " ADD CONSTRAINT "
                + prefix.value()
                + "no_forbidden"
                + " CHECK (reason IS NULL OR reason <> '"
                + reason
                + "')";
    execute(sql);
  }

  private void execute(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(StoreUrls.toJdbcUrl(fixture.url()));
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
