package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.server.Json;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/** One event, one line: the fields, their quoting, and which loggers write at which level. */
class LogFormatTest {
  private static final Instant TIME = Instant.parse("2026-11-30T11:06:09.857Z");
  private static final String ID = "c8301c9f-0c2b-4f0e-9d7e-3a3c2f0e1b11";

  private static LogLine line(String message, @Nullable Throwable error) {
    return new LogLine(
        TIME,
        Level.INFO,
        "node-1",
        ID,
        3L,
        "io.tenure.internal.agents.AgentRuntime",
        "tenure-leader-node-1",
        message,
        error);
  }

  @Test
  void a_logfmt_line_carries_time_level_node_id_epoch_logger_thread_and_message_in_that_order() {
    assertThat(LogFormat.LOGFMT.render(line("agent projection://a started", null), false))
        .isEqualTo(
            "2026-11-30T11:06:09.857Z INFO node=node-1 nodeId="
                + ID
                + " epoch=3"
                + " logger=io.tenure.internal.agents.AgentRuntime thread=tenure-leader-node-1"
                + " msg=\"agent projection://a started\"");
  }

  @Test
  void the_time_always_has_milliseconds_so_lines_align() {
    LogLine onTheSecond =
        new LogLine(
            Instant.parse("2026-01-02T03:04:05Z"),
            Level.WARN,
            null,
            null,
            null,
            "x",
            "main",
            "m",
            null);

    assertThat(LogFormat.LOGFMT.render(onTheSecond, false))
        .startsWith("2026-01-02T03:04:05.000Z WARN ");
  }

  @Test
  void values_with_spaces_quotes_equals_or_backslashes_are_quoted_and_escaped() {
    assertThat(LogFormat.value("plain-value_1.2:3/x")).isEqualTo("plain-value_1.2:3/x");
    assertThat(LogFormat.value("two words")).isEqualTo("\"two words\"");
    assertThat(LogFormat.value("a=b")).isEqualTo("\"a=b\"");
    assertThat(LogFormat.value("say \"hi\"")).isEqualTo("\"say \\\"hi\\\"\"");
    assertThat(LogFormat.value("C:\\tmp")).isEqualTo("\"C:\\\\tmp\"");
    assertThat(LogFormat.value("")).isEqualTo("\"\"");
  }

  @Test
  void a_message_spanning_lines_stays_on_one_line() {
    String rendered = LogFormat.LOGFMT.render(line("first\nsecond\r\tthird", null), false);

    assertThat(rendered)
        .doesNotContain("\n", "\r", "\t")
        .endsWith("msg=\"first\\nsecond\\r\\tthird\"");
  }

  @Test
  void absent_node_fields_are_left_out_not_written_empty() {
    LogLine beforeTheNode =
        new LogLine(
            TIME,
            Level.INFO,
            "node-1",
            null,
            null,
            "com.zaxxer.hikari.HikariDataSource",
            "main",
            "Start completed.",
            null);

    assertThat(LogFormat.LOGFMT.render(beforeTheNode, false))
        .isEqualTo(
            "2026-11-30T11:06:09.857Z INFO node=node-1 logger=com.zaxxer.hikari.HikariDataSource"
                + " thread=main msg=\"Start completed.\"")
        .doesNotContain("nodeId", "epoch");
  }

  @Test
  void a_throwable_is_its_to_string_and_its_stack_trace_follows_only_when_asked() {
    IllegalStateException failure = new IllegalStateException("lease lost at epoch 3");

    String quiet = LogFormat.LOGFMT.render(line("tick failed", failure), false);
    String verbose = LogFormat.LOGFMT.render(line("tick failed", failure), true);

    assertThat(quiet)
        .isEqualTo(quiet.strip())
        .doesNotContain("\n")
        .endsWith(
            "msg=\"tick failed\" error=\"java.lang.IllegalStateException: lease lost at epoch 3\"");
    assertThat(verbose.lines().toList()).first().isEqualTo(quiet);
    assertThat(verbose.lines().skip(1).toList())
        .isNotEmpty()
        .anySatisfy(frame -> assertThat(frame).contains("at io.tenure.cli.LogFormatTest"));
  }

  @Test
  void a_json_line_is_one_object_with_the_same_fields() {
    String rendered =
        LogFormat.JSON.render(
            line("agent \"a\" started\non node-1", new RuntimeException("x")), false);

    assertThat(rendered).doesNotContain("\n");
    Map<String, Object> fields = Json.parseObject(rendered);
    assertThat(fields)
        .containsExactly(
            Map.entry("time", "2026-11-30T11:06:09.857Z"),
            Map.entry("level", "INFO"),
            Map.entry("node", "node-1"),
            Map.entry("nodeId", ID),
            Map.entry("epoch", 3L),
            Map.entry("logger", "io.tenure.internal.agents.AgentRuntime"),
            Map.entry("thread", "tenure-leader-node-1"),
            Map.entry("msg", "agent \"a\" started\non node-1"),
            Map.entry("error", "java.lang.RuntimeException: x"));
  }

  @Test
  void a_json_line_leaves_absent_fields_out_and_carries_the_stack_trace_as_a_field() {
    LogLine bare =
        new LogLine(
            TIME, Level.ERROR, null, null, null, "x", "main", "boom", new RuntimeException("x"));

    Map<String, Object> fields = Json.parseObject(LogFormat.JSON.render(bare, true));

    assertThat(fields).doesNotContainKeys("node", "nodeId", "epoch");
    assertThat((String) fields.get("stack"))
        .startsWith("java.lang.RuntimeException: x")
        .contains("\tat ");
  }

  @Test
  void a_handlers_and_an_agents_line_name_what_they_work_on_after_the_node_fields() {
    org.slf4j.MDC.clear();
    try (var log = mdc(io.tenure.LogKeys.QUEUE, "emails", io.tenure.LogKeys.MESSAGE_ID, "42")) {
      LogLine handler = LogLine.now(Level.INFO, "app.Mailer", "sent", null);
      assertThat(LogFormat.LOGFMT.render(handler, false))
          .contains(" logger=app.Mailer ")
          .containsSubsequence(" INFO ", "queue=emails messageId=42", "logger=");
    }
    try (var log =
        mdc(
            io.tenure.LogKeys.AGENT,
            "queue://ledger",
            io.tenure.LogKeys.EPOCH,
            "7",
            io.tenure.LogKeys.QUEUE,
            "ledger")) {
      Map<String, Object> fields =
          Json.parseObject(LogFormat.JSON.render(LogLine.now(Level.INFO, "x", "m", null), false));
      assertThat(fields)
          .containsEntry("agent", "queue://ledger")
          .containsEntry("agentEpoch", "7")
          .containsEntry("queue", "ledger")
          .doesNotContainKey("messageId");
    }
    try (var log = mdc(io.tenure.LogKeys.EPOCH, "3")) {
      assertThat(LogFormat.LOGFMT.render(LogLine.now(Level.INFO, "x", "m", null), false))
          .as("an epoch without an agent is the leader's, which the line has as epoch")
          .doesNotContain("agentEpoch");
    }
  }

  /** Puts MDC keys until closed, as the runtime does around a handler or an agent's call. */
  private static AutoCloseableMdc mdc(String... keysAndValues) {
    for (int i = 0; i < keysAndValues.length; i += 2) {
      org.slf4j.MDC.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return org.slf4j.MDC::clear;
  }

  private interface AutoCloseableMdc extends AutoCloseable {
    @Override
    void close();
  }

  @Test
  void the_longest_dotted_prefix_with_a_level_decides_else_the_default() {
    LogLevels levels =
        LogLevels.of(
            "warn",
            Map.of("com.zaxxer.hikari", "off", "io.tenure", "debug", "io.tenure.jdbc", "error"));

    assertThat(levels.enabled("com.zaxxer.hikari.pool.HikariPool", Level.ERROR)).isFalse();
    assertThat(levels.enabled("io.tenure.internal.cluster.LeaderElector", Level.DEBUG)).isTrue();
    assertThat(levels.enabled("io.tenure.internal.cluster.LeaderElector", Level.TRACE)).isFalse();
    assertThat(levels.enabled("io.tenure.jdbc.JdbcStore", Level.WARN)).isFalse();
    assertThat(levels.enabled("io.tenure.jdbcx.Other", Level.DEBUG))
        .as("a prefix ends at a dot")
        .isTrue();
    assertThat(levels.enabled("org.sqlite.Core", Level.INFO)).isFalse();
    assertThat(levels.enabled("org.sqlite.Core", Level.WARN)).isTrue();
  }

  @Test
  void a_level_the_user_sets_with_a_system_property_wins_and_a_bad_one_is_ignored() {
    Properties user = new Properties();
    user.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
    user.setProperty("org.slf4j.simpleLogger.log.com.zaxxer.hikari", "INFO");
    user.setProperty("org.slf4j.simpleLogger.log.io.tenure", "loud");

    LogLevels levels =
        LogLevels.of("warn", Map.of("com.zaxxer.hikari", "off", "io.tenure", "debug"))
            .overriddenBy(user);

    assertThat(levels.enabled("org.sqlite.Core", Level.WARN)).isFalse();
    assertThat(levels.enabled("com.zaxxer.hikari.HikariDataSource", Level.INFO)).isTrue();
    assertThat(levels.enabled("io.tenure.x.Y", Level.DEBUG)).isTrue();
  }

  @Test
  void an_unknown_level_in_the_launcher_is_refused_naming_it() {
    assertThatThrownBy(() -> LogLevels.of("loud", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'loud'");
  }

  @Test
  void log_format_option_values_are_read_in_any_case_and_others_are_refused() {
    LogFormat.Converter converter = new LogFormat.Converter();

    assertThat(converter.convert("json")).isEqualTo(LogFormat.JSON);
    assertThat(converter.convert("LOGFMT")).isEqualTo(LogFormat.LOGFMT);
    assertThatThrownBy(() -> converter.convert("xml"))
        .hasMessageContaining("'xml'")
        .hasMessageContaining("logfmt or json");
  }

  @Test
  void slf4j_finds_this_provider_and_no_other() {
    assertThat(LoggerFactory.getLogger("io.tenure.any")).isInstanceOf(TenureLogger.class);
  }
}
