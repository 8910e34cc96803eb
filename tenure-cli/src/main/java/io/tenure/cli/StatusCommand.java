package io.tenure.cli;

import io.tenure.spi.Store;
import io.tenure.spi.StoreDescription;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code tenure status}: what the store is, its schema version and the database clock. */
@Command(
    name = "status",
    description = {
      "Show the store, its schema version and the database clock.",
      "Prints provider, database, location, prefix, schema version, time precision and now. Creates"
          + " nothing: a store without a Tenure schema exits 8 naming the 'tenure migrate' command"
          + " that creates it."
    })
final class StatusCommand extends StoreCommand {
  @Override
  void checkArguments() {
    // Only the shared options, which picocli has already checked.
  }

  @Override
  int run(Store store, Output output) {
    StoreDescription description = store.describe();
    Instant now = store.now();
    if (output.json()) {
      output.object(json(description, now));
    } else {
      output.fields(text(description, now), "");
    }
    return ExitCodes.OK;
  }

  private static Map<String, Object> json(StoreDescription store, Instant now) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("provider", store.provider());
    fields.put("database", store.database());
    fields.put("location", store.location());
    fields.put("prefix", store.prefix().value());
    fields.put("schemaVersion", store.schemaVersion());
    fields.put("timePrecision", store.timePrecision());
    fields.put("now", now);
    return fields;
  }

  private static Map<String, String> text(StoreDescription store, Instant now) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("provider", store.provider());
    fields.put("database", store.database());
    fields.put("location", store.location());
    fields.put("prefix", store.prefix().value());
    fields.put("schema version", String.valueOf(store.schemaVersion()));
    fields.put("time precision", store.timePrecision());
    fields.put("database now", now.toString());
    return fields;
  }
}
