package io.tenure.jdbc.internal;

import io.tenure.MessageStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A statement's complete text with named parameters, parsed once into positions and bound by name,
 * so no caller counts question marks. Beyond {@code :name}, the text may hold:
 *
 * <ul>
 *   <li>{@code ${name}}: a constant (a table, a status) substituted once, when the statement is
 *       made, from the map given to {@link #of}; every {@link MessageStatus} is known as {@code
 *       ${PENDING}} and so on, a quoted literal, so a status is spelled in one place (the enum that
 *       the row mapper also reads);
 *   <li>{@code /*if name*}{@code /} ... {@code /*end*}{@code /}: a section kept only when {@code
 *       name} is bound to a value that is not null (an optional filter);
 *   <li>{@code /*each SEP*}{@code /} ... {@code /*end*}{@code /}: a section written once per row of
 *       {@link Params#rows}, joined by {@code SEP} ({@code ,} or {@code OR}), each row's parameters
 *       bound from that row (a multi-row insert).
 * </ul>
 *
 * A {@link List} value becomes one placeholder per element ({@code id IN (:ids)}), or, written as
 * {@code = ANY(:ids)}, one BIGINT array (one text for any count, so PostgreSQL prepares it once,
 * and no chunks: {@link #updateInChunks}); a {@link Duration} is bound as microseconds, the one
 * place that conversion happens; a {@link MessageStatus} is written into the text as a literal, as
 * a partial index only serves a statement whose own text implies its predicate.
 */
final class NamedStatement {
  private static final Pattern CONSTANT =
      Pattern.compile("\\$\\{(?:now ([+-]) :([A-Za-z]\\w*)|([A-Za-z_]+))}");
  private static final Pattern MARK =
      Pattern.compile("'[^']*'|/\\*(if|each) ([A-Za-z_,]+)\\*/|/\\*end\\*/|(?<!:):([A-Za-z]\\w*)");

  private final String text;
  private final List<Part> parts;

  private NamedStatement(String text, List<Part> parts) {
    this.text = text;
    this.parts = parts;
  }

  /** A piece of the text: literal SQL, a parameter, or a section of pieces. */
  private sealed interface Part {}

  private record Sql(String sql) implements Part {}

  /** {@code array}: the parameter is written {@code ANY(:name)}, and binds a list as one array. */
  private record Parameter(String name, boolean array) implements Part {}

  private record IfBound(String name, List<Part> parts) implements Part {}

  private record Each(String separator, List<Part> parts) implements Part {}

  /**
   * @param template the statement, with {@code ${name}} constants
   * @param constants the constants' values; the statuses are added
   * @throws IllegalArgumentException if the template names an unknown constant or is malformed
   */
  static NamedStatement of(String template, Map<String, String> constants) {
    Matcher constant = CONSTANT.matcher(template);
    StringBuilder resolved = new StringBuilder();
    while (constant.find()) {
      String value;
      if (constant.group(1) != null) {
        // The clock plus or minus microseconds: the dialect's expression has one ?, named here.
        String clock = constants.get(constant.group(1).equals("+") ? "now_plus" : "now_minus");
        value = clock.replace("?", ":" + constant.group(2));
      } else {
        value = constants.get(constant.group(3));
        if (value == null) {
          value = statusLiteral(constant.group(3));
        }
      }
      constant.appendReplacement(resolved, Matcher.quoteReplacement(value));
    }
    constant.appendTail(resolved);
    String text = resolved.toString().strip();
    List<List<Part>> open = new ArrayList<>(List.of(new ArrayList<>()));
    List<Part> sections = new ArrayList<>();
    Matcher mark = MARK.matcher(text);
    int at = 0;
    while (mark.find()) {
      List<Part> current = open.get(open.size() - 1);
      current.add(new Sql(text.substring(at, mark.start())));
      at = mark.end();
      String found = mark.group();
      if (found.startsWith("'")) {
        current.add(new Sql(found));
      } else if (mark.group(3) != null) {
        current.add(
            new Parameter(
                mark.group(3), text.substring(0, mark.start()).stripTrailing().endsWith("ANY(")));
      } else if (mark.group(1) != null) {
        sections.add(
            mark.group(1).equals("if")
                ? new IfBound(mark.group(2), new ArrayList<>())
                : new Each(mark.group(2).equals(",") ? ", " : " OR ", new ArrayList<>()));
        open.add(new ArrayList<>());
      } else {
        if (sections.isEmpty()) {
          throw new IllegalArgumentException("an end without a section in: " + text);
        }
        List<Part> inner = open.remove(open.size() - 1);
        Part section = sections.remove(sections.size() - 1);
        open.get(open.size() - 1)
            .add(
                section instanceof IfBound o
                    ? new IfBound(o.name(), List.copyOf(inner))
                    : new Each(((Each) section).separator(), List.copyOf(inner)));
      }
    }
    if (!sections.isEmpty()) {
      throw new IllegalArgumentException("a section without an end in: " + text);
    }
    open.get(0).add(new Sql(text.substring(at)));
    return new NamedStatement(text, List.copyOf(open.get(0)));
  }

  private static String statusLiteral(String name) {
    try {
      return literal(MessageStatus.valueOf(name));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown constant ${" + name + "} in a statement", e);
    }
  }

  private static String literal(MessageStatus status) {
    return "'" + status.name() + "'";
  }

  /** The text as written, constants substituted, parameters named: for reading and EXPLAIN. */
  String text() {
    return text;
  }

  /** The JDBC text for these values: sections resolved, lists expanded, a ? per parameter. */
  String jdbcText(Params params) {
    StringBuilder sql = new StringBuilder();
    render(parts, params, sql, new ArrayList<>());
    return sql.toString();
  }

  /** Prepares and binds the statement for {@code params}. */
  PreparedStatement prepare(Connection connection, Params params) throws SQLException {
    return prepare(connection, params, false);
  }

  /** {@link #prepare}, asking for the generated keys. */
  PreparedStatement prepare(Connection connection, Params params, boolean generatedKeys)
      throws SQLException {
    StringBuilder sql = new StringBuilder();
    List<Object> values = new ArrayList<>();
    render(parts, params, sql, values);
    PreparedStatement statement =
        generatedKeys
            ? connection.prepareStatement(sql.toString(), java.sql.Statement.RETURN_GENERATED_KEYS)
            : connection.prepareStatement(sql.toString());
    try {
      bind(statement, values);
    } catch (SQLException | RuntimeException e) {
      statement.close();
      throw e;
    }
    return statement;
  }

  /** Binds {@code params} to a statement prepared from {@link #jdbcText} of the same shape. */
  void bind(PreparedStatement statement, Params params) throws SQLException {
    List<Object> values = new ArrayList<>();
    render(parts, params, new StringBuilder(), values);
    bind(statement, values);
  }

  /** Runs an update or delete. */
  int update(Connection connection, Params params) throws SQLException {
    try (PreparedStatement statement = prepare(connection, params)) {
      return statement.executeUpdate();
    }
  }

  /** Ids per statement where a list of ids is split: a bound on the statement's size. */
  static final int IDS_PER_STATEMENT = 250;

  /**
   * Runs an update or delete over {@code ids} as {@code :ids}, {@value #IDS_PER_STATEMENT} a
   * statement.
   *
   * @return the rows it changed
   */
  int updateInChunks(Connection connection, Params params, List<Long> ids) throws SQLException {
    if (parts.stream().anyMatch(p -> p instanceof Parameter parameter && parameter.array())) {
      return update(connection, params.and("ids", ids));
    }
    int changed = 0;
    for (List<Long> chunk : chunks(ids)) {
      changed += update(connection, params.and("ids", chunk));
    }
    return changed;
  }

  /** {@code all} in lists of {@value #IDS_PER_STATEMENT}. */
  static <T> List<List<T>> chunks(List<T> all) {
    List<List<T>> chunks = new ArrayList<>();
    for (int from = 0; from < all.size(); from += IDS_PER_STATEMENT) {
      chunks.add(all.subList(from, Math.min(all.size(), from + IDS_PER_STATEMENT)));
    }
    return chunks;
  }

  /** Runs a query and reads the first column of every row as an id. */
  List<Long> ids(Connection connection, Params params) throws SQLException {
    return query(connection, params, rows -> rows.getLong(1));
  }

  /** Runs a query and maps every row. */
  <T> List<T> query(Connection connection, Params params, RowMapper<T> mapper) throws SQLException {
    try (PreparedStatement statement = prepare(connection, params);
        ResultSet rows = statement.executeQuery()) {
      List<T> found = new ArrayList<>();
      while (rows.next()) {
        found.add(mapper.map(rows));
      }
      return found;
    }
  }

  /** Runs one JDBC batch, an entry per {@code Params}; the statement must have no lists. */
  void batch(Connection connection, List<Params> entries) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(jdbcText(entries.get(0)))) {
      for (Params entry : entries) {
        bind(statement, entry);
        statement.addBatch();
      }
      statement.executeBatch();
    }
  }

  /** Reads one row. */
  @FunctionalInterface
  /**
   * A value that binds itself, for the types only the dialect knows how to write (an instant:
   * {@link #instant}).
   */
  interface Bindable {
    void bind(PreparedStatement statement, int index) throws SQLException;
  }

  /** A null for a BIGINT column: PostgreSQL refuses a VARCHAR null there. */
  static final Bindable NULL_BIGINT = (statement, index) -> statement.setNull(index, Types.BIGINT);

  /** An instant, written as the dialect writes times. */
  static Bindable instant(Dialect dialect, java.time.Instant value) {
    return (statement, index) -> dialect.setInstant(statement, index, value);
  }

  interface RowMapper<T> {
    T map(ResultSet rows) throws SQLException;
  }

  private static void render(List<Part> parts, Params params, StringBuilder sql, List<Object> out) {
    for (Part part : parts) {
      switch (part) {
        case Sql text -> sql.append(text.sql());
        case Parameter parameter -> {
          Object value = params.value(parameter.name());
          if (value instanceof MessageStatus status) {
            sql.append(literal(status));
          } else if (value instanceof List<?> list) {
            if (list.isEmpty()) {
              throw new IllegalArgumentException("list :" + parameter.name() + " is empty");
            }
            if (parameter.array()) {
              sql.append('?');
              Object[] elements = list.toArray();
              out.add(
                  (Bindable)
                      (statement, index) ->
                          statement.setArray(
                              index, statement.getConnection().createArrayOf("bigint", elements)));
              continue;
            }
            sql.append(String.join(", ", java.util.Collections.nCopies(list.size(), "?")));
            out.addAll(list);
          } else {
            sql.append('?');
            out.add(value);
          }
        }
        case IfBound section -> {
          if (params.has(section.name()) && params.value(section.name()) != null) {
            render(section.parts(), params, sql, out);
          }
        }
        case Each each -> {
          List<Params> rows = params.rows();
          for (int i = 0; i < rows.size(); i++) {
            sql.append(i == 0 ? "" : each.separator());
            render(each.parts(), rows.get(i), sql, out);
          }
        }
      }
    }
  }

  private static void bind(PreparedStatement statement, List<Object> values) throws SQLException {
    for (int i = 0; i < values.size(); i++) {
      int index = i + 1;
      switch (values.get(i)) {
        case null -> statement.setNull(index, Types.VARCHAR);
        case String s -> statement.setString(index, s);
        case Integer n -> statement.setInt(index, n);
        case Long n -> statement.setLong(index, n);
        case Double d -> statement.setDouble(index, d);
        case byte[] bytes -> statement.setBytes(index, bytes);
        case Duration duration -> statement.setLong(index, micros(duration));
        case Boolean b -> statement.setBoolean(index, b);
        case Bindable bindable -> bindable.bind(statement, index);
        default ->
            throw new IllegalArgumentException(
                "cannot bind a " + values.get(i).getClass().getName());
      }
    }
  }

  /** A duration in whole microseconds, as every table stores durations and time offsets. */
  static long micros(Duration duration) {
    return Math.multiplyExact(duration.getSeconds(), 1_000_000L) + duration.getNano() / 1000;
  }

  /** Values by name, and the rows of an {@code each} section. */
  static final class Params {
    private final Map<String, Object> values = new java.util.HashMap<>();
    private List<Params> rows = List.of();

    static Params of() {
      return new Params();
    }

    static Params of(String name, @org.jspecify.annotations.Nullable Object value) {
      return new Params().and(name, value);
    }

    /** Adds a value; null binds SQL NULL, or drops an {@code if} section of that name. */
    Params and(String name, @org.jspecify.annotations.Nullable Object value) {
      values.put(name, value);
      return this;
    }

    /** Adds every value of {@code more}. */
    Params and(Params more) {
      values.putAll(more.values);
      return this;
    }

    /** The rows of the statement's {@code each} section. */
    Params rows(List<Params> rows) {
      this.rows = List.copyOf(rows);
      return this;
    }

    List<Params> rows() {
      return rows;
    }

    /** The values by name, read-only; the rows of an {@code each} section are not among them. */
    Map<String, Object> values() {
      return java.util.Collections.unmodifiableMap(values);
    }

    boolean has(String name) {
      return values.containsKey(name);
    }

    @org.jspecify.annotations.Nullable
    Object value(String name) {
      if (!values.containsKey(name)) {
        throw new IllegalArgumentException("no value for parameter :" + name);
      }
      return values.get(name);
    }
  }
}
