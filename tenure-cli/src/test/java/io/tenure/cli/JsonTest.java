package io.tenure.cli;

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

    assertThat(MiniJson.parseObject(Json.write(fields))).isEqualTo(fields);
  }

  @Test
  void a_type_it_does_not_know_is_refused_rather_than_written_as_to_string() {
    assertThatThrownBy(() -> Json.write(1.5d))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.lang.Double");
  }
}
