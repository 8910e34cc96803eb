package io.tenure.cli;

import io.tenure.Marker;
import io.tenure.MarkerKey;
import io.tenure.spi.Store;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tenure markers get}: shows one marker; exit 4 if there is none. */
@Command(
    name = "get",
    description = {"Show the marker of one resource.", "Exit 4 if it has none."})
final class MarkersGetCommand extends StoreCommand {
  @Parameters(index = "0", paramLabel = "TENANT", description = "Tenant id.")
  String tenant = "";

  @Parameters(index = "1", paramLabel = "RESOURCE", description = "Resource id.")
  String resource = "";

  private MarkerKey key; // set by checkArguments, before run

  @Override
  void checkArguments() {
    key = MarkerKey.of(tenant, resource);
  }

  @Override
  int run(Store store, Output output) {
    Optional<Marker> marker = markers(store).get(key.tenant(), key.resource());
    if (output.json()) {
      output.object(json(key, marker.orElse(null)));
    } else if (marker.isPresent()) {
      output.fields(MarkerView.fields(marker.get()), "");
    } else {
      output.line("no marker for " + key);
    }
    return marker.isPresent() ? ExitCodes.OK : ExitCodes.NOT_FOUND;
  }

  /** Both cases carry {@code found}, so a script can branch on it as well as on the exit code. */
  static Map<String, @Nullable Object> json(MarkerKey key, @Nullable Marker marker) {
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    fields.put("found", marker != null);
    fields.put("tenant", key.tenant());
    fields.put("resource", key.resource());
    fields.put("marker", marker == null ? null : MarkerView.json(marker));
    return fields;
  }
}
