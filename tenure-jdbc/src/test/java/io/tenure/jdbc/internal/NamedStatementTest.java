package io.tenure.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.MessageStatus;
import io.tenure.jdbc.internal.NamedStatement.Params;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Named parameters, constants and sections, bound on a real (in-memory SQLite) connection. */
class NamedStatementTest {
  private static final Map<String, String> CONSTANTS =
      Map.of("now", "1000", "now_plus", "(1000 + ?)", "now_minus", "(1000 - ?)", "t", "things");

  private final Connection connection;

  NamedStatementTest() throws SQLException {
    connection = DriverManager.getConnection("jdbc:sqlite::memory:");
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  @Test
  void a_parameter_named_twice_is_bound_at_both_places() throws SQLException {
    NamedStatement statement = NamedStatement.of("SELECT :a, :b, :a", CONSTANTS);

    assertThat(row(statement, Params.of("a", "x").and("b", 2))).containsExactly("x", "2", "x");
    assertThat(statement.jdbcText(Params.of("a", "x").and("b", 2))).isEqualTo("SELECT ?, ?, ?");
  }

  @Test
  void constants_and_statuses_are_substituted_once_into_the_text() {
    NamedStatement statement =
        NamedStatement.of("SELECT ${now}, ${PENDING}, ${now + :lease} FROM ${t}", CONSTANTS);

    assertThat(statement.text()).isEqualTo("SELECT 1000, 'PENDING', (1000 + :lease) FROM things");
  }

  @Test
  void a_duration_is_bound_as_whole_microseconds() throws SQLException {
    NamedStatement statement = NamedStatement.of("SELECT ${now + :lease}", CONSTANTS);

    assertThat(row(statement, Params.of("lease", Duration.ofMillis(1500).plusNanos(999))))
        .containsExactly(String.valueOf(1000 + 1_500_000));
  }

  @Test
  void a_list_becomes_one_placeholder_per_element() throws SQLException {
    NamedStatement statement =
        NamedStatement.of("SELECT count(*) FROM (SELECT 1 AS x) WHERE 1 IN (:ids)", CONSTANTS);
    Params params = Params.of("ids", List.of(3L, 2L, 1L));

    assertThat(statement.jdbcText(params)).endsWith("IN (?, ?, ?)");
    assertThat(row(statement, params)).containsExactly("1");
    assertThatThrownBy(() -> statement.jdbcText(Params.of("ids", List.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(":ids");
  }

  @Test
  void a_status_value_is_written_as_a_literal_so_a_partial_index_can_serve_it() {
    NamedStatement statement = NamedStatement.of("SELECT 1 WHERE status = :status", CONSTANTS);

    assertThat(statement.jdbcText(Params.of("status", MessageStatus.DEAD)))
        .isEqualTo("SELECT 1 WHERE status = 'DEAD'");
  }

  @Test
  void an_if_section_is_kept_only_when_its_value_is_not_null() throws SQLException {
    NamedStatement statement =
        NamedStatement.of("SELECT :a /*if b*/|| :b/*end*/ /*if c*/|| :c/*end*/", CONSTANTS);

    assertThat(row(statement, Params.of("a", "x").and("b", "y").and("c", null)))
        .containsExactly("xy");
    assertThat(statement.jdbcText(Params.of("a", "x").and("b", null).and("c", null)).strip())
        .isEqualTo("SELECT ?");
  }

  @Test
  void an_each_section_is_written_once_per_row_joined_by_its_separator() throws SQLException {
    NamedStatement values = NamedStatement.of("VALUES /*each ,*/(:a, :b)/*end*/", CONSTANTS);
    NamedStatement any = NamedStatement.of("SELECT 1 WHERE /*each OR*/(:a = :b)/*end*/", CONSTANTS);
    List<Params> rows = List.of(Params.of("a", 1).and("b", 2), Params.of("a", 3).and("b", 3));

    assertThat(values.jdbcText(Params.of().rows(rows))).isEqualTo("VALUES (?, ?), (?, ?)");
    assertThat(rows(values, Params.of().rows(rows)))
        .containsExactly(List.of("1", "2"), List.of("3", "3"));
    assertThat(any.jdbcText(Params.of().rows(rows))).isEqualTo("SELECT 1 WHERE (? = ?) OR (? = ?)");
    assertThat(rows(any, Params.of().rows(rows))).hasSize(1);
  }

  @Test
  void quoted_text_and_casts_are_not_parameters() {
    NamedStatement statement = NamedStatement.of("SELECT ':nope', 1::int, :yes", CONSTANTS);

    assertThat(statement.jdbcText(Params.of("yes", 1))).isEqualTo("SELECT ':nope', 1::int, ?");
  }

  @Test
  void a_parameter_without_a_value_is_refused_by_name() {
    NamedStatement statement = NamedStatement.of("SELECT :queue", CONSTANTS);

    assertThatThrownBy(() -> statement.jdbcText(Params.of("queu", "q")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no value for parameter :queue");
  }

  @Test
  void an_unknown_constant_or_an_unclosed_section_is_refused_when_the_statement_is_made() {
    assertThatThrownBy(() -> NamedStatement.of("SELECT ${nope}", CONSTANTS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("${nope}");
    assertThatThrownBy(() -> NamedStatement.of("SELECT 1 /*if a*/, :a", CONSTANTS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("without an end");
    assertThatThrownBy(() -> NamedStatement.of("SELECT 1/*end*/", CONSTANTS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("without a section");
  }

  private List<String> row(NamedStatement statement, Params params) throws SQLException {
    return rows(statement, params).get(0);
  }

  private List<List<String>> rows(NamedStatement statement, Params params) throws SQLException {
    List<List<String>> found = new ArrayList<>();
    try (PreparedStatement prepared = statement.prepare(connection, params);
        ResultSet rows = prepared.executeQuery()) {
      while (rows.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= rows.getMetaData().getColumnCount(); i++) {
          row.add(rows.getString(i));
        }
        found.add(row);
      }
    }
    return found;
  }
}
