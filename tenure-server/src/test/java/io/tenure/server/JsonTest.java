package io.tenure.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

  @Test
  void quotes_backslashes_and_control_characters_are_escaped() {
    assertThat(Json.write("a\"b\\c\nd\re\tf\bg\fh\u0001i\u007f"))
        .isEqualTo("\"a\\\"b\\\\c\\nd\\re\\tf\\bg\\fh\\u0001i\\u007f\"");
  }

  @Test
  void non_ascii_is_escaped_so_the_output_is_ascii_whatever_the_terminal_encoding() {
    assertThat(Json.write("é✓𝄞")).isEqualTo("\"\\u00e9\\u2713\\ud834\\udd1e\"");
  }

  @Test
  void an_unpaired_surrogate_is_escaped_rather_than_written_as_invalid_text() {
    assertThat(Json.write("x\ud800y")).isEqualTo("\"x\\ud800y\"");
  }

  @Test
  void objects_keep_their_order_and_nest() {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("b", 1);
    fields.put("a", Arrays.asList(true, null, 2L, "s"));
    fields.put("at", Instant.parse("2024-05-01T12:00:00Z"));
    fields.put("empty", Map.of());
    fields.put("none", List.of());

    assertThat(Json.write(fields))
        .isEqualTo(
            "{\"b\":1,\"a\":[true,null,2,\"s\"],\"at\":\"2024-05-01T12:00:00Z\",\"empty\":{},"
                + "\"none\":[]}");
  }

  @Test
  void what_it_writes_the_test_parser_reads_back() {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("text", "q\"\\\n\u0000é𝄞");
    fields.put("list", List.of(1L, "two"));

    assertThat(Json.parseObject(Json.write(fields))).isEqualTo(fields);
  }

  @Test
  void a_type_it_does_not_know_is_refused_rather_than_written_as_to_string() {
    assertThatThrownBy(() -> Json.write(java.util.UUID.randomUUID()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.util.UUID");
    assertThatThrownBy(() -> Json.write(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.lang.Double");
  }

  @Test
  void a_finite_double_is_written_as_a_number() {
    assertThat(Json.write(java.util.List.of(1.5d, 250d))).isEqualTo("[1.5,250.0]");
  }

  @Test
  void parsing_allows_white_space_and_reads_numbers_as_long_or_double() {
    assertThat(Json.parseObject(" { \"a\" : [ 1 , -2.5e1 ] ,\n \"b\": { } , \"c\": null } "))
        .containsEntry("a", java.util.List.of(1L, -25.0))
        .containsEntry("b", java.util.Map.of())
        .containsEntry("c", null);
  }

  @Test
  void malformed_json_is_refused_with_the_position() {
    for (String bad :
        new String[] {
          "",
          "[1]",
          "{\"a\":1} x",
          "{\"a\":}",
          "{\"a\":1,\"a\":2}",
          "{\"a\":\"x",
          "{a:1}",
          "{\"uri\":\"x\",",
          "{\"a\":1, "
        }) {
      assertThatThrownBy(() -> Json.parseObject(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("invalid JSON");
    }
  }

  @Test
  void nesting_is_read_up_to_the_cap_and_refused_past_it_before_the_stack_overflows() {
    String deepest =
        "{\"a\":" + "[".repeat(Json.MAX_DEPTH - 1) + "]".repeat(Json.MAX_DEPTH - 1) + "}";
    assertThat(Json.parseObject(deepest)).containsKey("a");

    for (String bad :
        new String[] {
          "{\"a\":" + "[".repeat(Json.MAX_DEPTH) + "]".repeat(Json.MAX_DEPTH) + "}",
          "{\"a\":" + "{\"b\":".repeat(Json.MAX_DEPTH) + "1" + "}".repeat(Json.MAX_DEPTH + 1),
          "[".repeat(30_000),
          "{\"a\":" + "[".repeat(1_000_000)
        }) {
      assertThatThrownBy(() -> Json.parseObject(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("nested deeper than 64 levels")
          .hasMessageContaining("at character");
    }
  }
}
