package io.tenure.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.spi.TablePrefix;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every queue statement of every database is complete: its constants resolve when the store is
 * made, and its parameters are all named (no question mark counted by hand).
 */
class QueueSqlTest {
  static Stream<Dialect> dialects() {
    return Stream.of(new PostgresDialect(), new MariaDbDialect("mariadb"), new SqliteDialect());
  }

  @ParameterizedTest
  @MethodSource("dialects")
  void every_statement_resolves_and_names_all_its_parameters(Dialect dialect) throws Exception {
    List<String> templates = templates(dialect.queueSql());
    assertThat(templates).hasSizeGreaterThan(30);
    for (String template : templates) {
      NamedStatement statement =
          NamedStatement.of(template, QueueSql.constants(dialect, TablePrefix.of("p_")));
      assertThat(statement.text()).as(template).doesNotContain("${").doesNotContain("?");
    }
  }

  /** Every text a QueueSql returns, directly, in an Optional, or in a capability record. */
  private static List<String> templates(QueueSql sql) throws Exception {
    List<String> found = new ArrayList<>();
    for (Method method : QueueSql.class.getDeclaredMethods()) {
      if (method.getParameterCount() == 0
          && !java.lang.reflect.Modifier.isStatic(method.getModifiers())) {
        collect(method.invoke(sql), found);
      }
    }
    return found;
  }

  private static void collect(Object value, List<String> found) throws Exception {
    switch (value) {
      case String text -> found.add(text);
      case Optional<?> optional when optional.isPresent() -> collect(optional.get(), found);
      case Optional<?> empty -> {}
      case Record record -> {
        for (RecordComponent component : record.getClass().getRecordComponents()) {
          collect(component.getAccessor().invoke(record), found);
        }
      }
      default -> throw new AssertionError("unexpected " + value);
    }
  }
}
