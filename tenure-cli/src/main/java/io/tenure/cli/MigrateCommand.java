package io.tenure.cli;

import io.tenure.spi.Store;
import io.tenure.spi.StoreDescription;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code tenure migrate}: creates or upgrades the schema. Safe to run again, and from many hosts.
 */
@Command(
    name = "migrate",
    description = {
      "Create or upgrade the Tenure tables in the store.",
      "Idempotent, and safe when several hosts run it at once."
    })
final class MigrateCommand implements Callable<Integer> {
  @Mixin StoreOptions storeOptions = new StoreOptions();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    try (Store store = storeOptions.open(true)) {
      print(store.describe(), new Output(spec.commandLine().getOut(), storeOptions.json));
      return ExitCodes.OK;
    }
  }

  private static void print(StoreDescription store, Output output) {
    if (output.json()) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("provider", store.provider());
      fields.put("location", store.location());
      fields.put("prefix", store.prefix().value());
      fields.put("schemaVersion", store.schemaVersion());
      output.object(fields);
    } else {
      output.line(
          "schema v"
              + store.schemaVersion()
              + " in place for "
              + where(store)
              + " (prefix "
              + store.prefix()
              + ")");
    }
  }

  /**
   * @return the provider and location for a sentence, e.g. {@code sqlite tenure.db}
   */
  static String where(StoreDescription store) {
    String scheme = store.provider() + ":";
    String location = store.location();
    // "sqlite sqlite:tenure.db" would say the provider twice.
    return store.provider()
        + " "
        + (location.startsWith(scheme) ? location.substring(scheme.length()) : location);
  }
}
