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
      "Idempotent, and safe when several hosts run it at once. Besides the node commands (node,"
          + " demo, chaos) it is the only command that creates or changes a schema; a server's"
          + " database itself must exist."
    })
final class MigrateCommand implements Callable<Integer> {
  @Mixin StoreOptions storeOptions = new StoreOptions();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Integer before = versionBefore();
    java.io.PrintWriter err = spec.commandLine().getErr();
    if (before != null) {
      // Progress on stderr: stdout stays the result (one JSON object with --json).
      err.println(
          "tenure: schema " + (before == 0 ? "not there yet" : "at v" + before) + "; migrating...");
      err.flush();
    }
    long start = System.nanoTime();
    try (Store store = storeOptions.openMigrated()) {
      int after = store.describe().schemaVersion();
      if (before != null) {
        err.println(
            "tenure: "
                + (after == before ? "already up to date" : "v" + before + " -> v" + after)
                + " in "
                + (System.nanoTime() - start) / 1_000_000
                + " ms");
        err.flush();
      }
      print(store.describe(), new Output(spec.commandLine().getOut(), storeOptions.json));
      return ExitCodes.OK;
    }
  }

  /**
   * The schema version in place before this run (0 for none), or null when the store cannot be
   * opened without migrating (a SQLite file that does not exist yet): no progress is shown then.
   *
   * @throws StoreUnavailableException or UnsupportedDatabaseException: the real error, reported
   *     once
   */
  private @org.jspecify.annotations.Nullable Integer versionBefore() {
    try (Store store = storeOptions.openAsIs()) {
      return store.describe().schemaVersion();
    } catch (io.tenure.StoreUnavailableException | io.tenure.UnsupportedDatabaseException e) {
      throw e;
    } catch (io.tenure.SchemaMissingException e) {
      return 0;
    } catch (RuntimeException e) {
      return null;
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
