package io.tenure.cli;

import io.tenure.Marker;
import io.tenure.MarkerChange;
import io.tenure.spi.Store;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tenure markers save}: the one upsert, last writer wins; meant for imports. */
@Command(
    name = "save",
    description = {
      "Write a marker whatever is stored (last writer wins).",
      "Meant for imports and restores; use 'transition' for anything that must not overwrite a"
          + " concurrent change."
    })
final class MarkersSaveCommand extends StoreCommand {
  @Mixin MarkerArguments arguments = new MarkerArguments();

  @Option(
      names = "--at",
      paramLabel = "INSTANT",
      converter = InstantConverter.class,
      description =
          "When it was marked, e.g. 2024-05-01T12:00:00Z. Default: the database clock now.")
  @Nullable Instant at;

  private MarkerChange change; // set by checkArguments, before run

  @Override
  void checkArguments() {
    change = arguments.change();
  }

  @Override
  int run(Store store, Output output) {
    // The database clock, like transitions: markers from one store compare on one clock.
    Instant markedAt = at != null ? at : store.now();
    Marker marker = new Marker(change.key(), change.state(), change.reason(), markedAt);
    markers(store).save(marker);
    if (output.json()) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("saved", true);
      fields.put("marker", MarkerView.json(marker));
      output.object(fields);
    } else {
      output.line(
          "saved: %s is %s (last writer wins: any earlier marker was replaced)."
              .formatted(marker.key(), change.state()));
      MarkerView.print(output, marker);
    }
    return ExitCodes.OK;
  }
}
