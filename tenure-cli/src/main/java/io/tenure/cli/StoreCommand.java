package io.tenure.cli;

import io.tenure.Markers;
import io.tenure.spi.Store;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A command that checks its arguments, opens the store, does one thing and closes the store.
 * Arguments are checked first so that bad input changes nothing: not even a SQLite file is created.
 */
abstract class StoreCommand implements Callable<Integer> {
  @Mixin StoreOptions storeOptions = new StoreOptions();

  @Option(
      names = "--no-migrate",
      description = "Do not create or upgrade the schema; fail if it is missing.")
  boolean noMigrate;

  @Spec CommandSpec spec;

  @Override
  public final Integer call() {
    checkArguments();
    try (Store store = storeOptions.open(!noMigrate)) {
      return run(store, new Output(spec.commandLine().getOut(), storeOptions.json));
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
