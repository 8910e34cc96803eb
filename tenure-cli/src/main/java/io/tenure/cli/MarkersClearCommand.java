package io.tenure.cli;

import io.tenure.Marker;
import io.tenure.MarkerChange;
import io.tenure.MarkerKey;
import io.tenure.spi.Store;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tenure markers clear}: deletes a marker only if it is in the expected state. */
@Command(
    name = "clear",
    description = {
      "Delete the marker of a resource, only if it is in EXPECTED_STATE.",
      "Exit 0 if deleted, 4 if there was no marker in that state."
    })
final class MarkersClearCommand extends StoreCommand {
  @Parameters(index = "0", paramLabel = "TENANT", description = "Tenant id.")
  String tenant = "";

  @Parameters(index = "1", paramLabel = "RESOURCE", description = "Resource id.")
  String resource = "";

  @Parameters(index = "2", paramLabel = "EXPECTED_STATE", description = "The state to clear.")
  String expectedState = "";

  private MarkerKey key; // set by checkArguments, before run

  @Override
  void checkArguments() {
    key = MarkerKey.of(tenant, resource);
    MarkerChange.requireValidState(expectedState);
  }

  @Override
  int run(Store store, Output output) {
    if (markers(store).clear(key.tenant(), key.resource(), expectedState)) {
      String sentence = "cleared: %s was %s; it has no marker now.".formatted(key, expectedState);
      report(output, true, null, sentence);
      return ExitCodes.OK;
    }
    // Read what is there only to explain the refusal; the delete has already decided.
    Optional<Marker> current = markers(store).get(key.tenant(), key.resource());
    report(output, false, current.orElse(null), notCleared(current));
    return ExitCodes.NOT_FOUND;
  }

  private String notCleared(Optional<Marker> current) {
    return current
        .map(m -> "not cleared: " + key + " is " + m.state() + ", not " + expectedState + ".")
        .orElse("not cleared: " + key + " has no marker.");
  }

  private void report(Output output, boolean cleared, @Nullable Marker current, String sentence) {
    if (output.json()) {
      Map<String, @Nullable Object> fields = new LinkedHashMap<>();
      fields.put("cleared", cleared);
      fields.put("tenant", key.tenant());
      fields.put("resource", key.resource());
      fields.put("expectedState", expectedState);
      fields.put("marker", current == null ? null : MarkerView.json(current));
      output.object(fields);
      return;
    }
    output.line(sentence);
    if (current != null) {
      MarkerView.print(output, current);
    }
  }
}
