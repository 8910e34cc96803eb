package io.tenure.cli;

import io.tenure.Marker;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** How a marker looks in text and in JSON, the same in every command. */
final class MarkerView {
  private MarkerView() {}

  /**
   * @return the marker as a JSON object; {@code reason} is null when none was given
   */
  static Map<String, @Nullable Object> json(Marker marker) {
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    fields.put("tenant", marker.tenant());
    fields.put("resource", marker.resource());
    fields.put("state", marker.state());
    fields.put("reason", marker.reason());
    fields.put("markedAt", marker.markedAt());
    return fields;
  }

  /**
   * @return the marker as labelled text fields, in display order
   */
  static Map<String, String> fields(Marker marker) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("tenant", marker.tenant());
    fields.put("resource", marker.resource());
    fields.put("state", marker.state());
    fields.put("reason", marker.reason() == null ? "(none)" : marker.reason());
    fields.put("marked at", marker.markedAt().toString());
    return fields;
  }

  /** Prints the marker's fields indented under a sentence that said what happened. */
  static void print(Output output, Marker marker) {
    output.fields(fields(marker), "  ");
  }
}
