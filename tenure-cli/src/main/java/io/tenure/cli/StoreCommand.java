package io.tenure.cli;

import io.tenure.Markers;
import io.tenure.SchemaMissingException;
import io.tenure.spi.Store;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that checks its arguments, opens the store, does one thing and closes the store.
 * Arguments are checked first so that bad input changes nothing: not even a SQLite file is created.
 * The store is opened without migrating: a command may read or change rows, never the schema, so a
 * missing schema (or SQLite file, or database) is reported with the {@code tenure migrate} command
 * that creates it ({@link ExitCodes#NO_SCHEMA}).
 */
abstract class StoreCommand implements Callable<Integer> {
  @Mixin StoreOptions storeOptions = new StoreOptions();

  @Spec CommandSpec spec;

  @Override
  public final Integer call() {
    checkArguments();
    try (Store store = storeOptions.openExisting()) {
      return run(store, new Output(spec.commandLine().getOut(), storeOptions.json));
    } catch (SchemaMissingException e) {
      // A table dropped after the open: the same advice as a schema missing at open.
      throw storeOptions.missing(e);
    }
  }

  /**
   * Validates the arguments before the store is opened.
   *
   * @throws IllegalArgumentException naming the bad value
   */
  abstract void checkArguments();

  /**
   * @return the exit code
   */
  abstract int run(Store store, Output output);

  /** The markers service over the store, without hooks: the command line has none to run. */
  static Markers markers(Store store) {
    return Markers.builder(store.markers()).build();
  }
}
