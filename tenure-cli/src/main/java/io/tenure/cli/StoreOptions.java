package io.tenure.cli;

import io.tenure.Stores;
import io.tenure.spi.Store;
import io.tenure.spi.StoreSettings;
import io.tenure.spi.TablePrefix;
import picocli.CommandLine.Option;

/**
 * The options every command that touches a store shares: where it is, which tables, what output.
 */
final class StoreOptions {
  /** The store used when neither {@code --store} nor {@code TENURE_STORE} names one. */
  static final String DEFAULT_URL = "sqlite:tenure-data/tenure.db";

  /** The environment variable that names the store when {@code --store} is not given. */
  static final String STORE_VARIABLE = "TENURE_STORE";

  // The default comes from TENURE_STORE when set (EnvironmentDefaults), else from this annotation.
  @Option(
      names = "--store",
      paramLabel = "URL",
      defaultValue = DEFAULT_URL,
      description = {
        "Store URL: sqlite:PATH, jdbc:postgresql://...,",
        "jdbc:mariadb://... or jdbc:mysql://...",
        "Default: $" + STORE_VARIABLE + " if set,",
        "else " + DEFAULT_URL
      })
  String url = DEFAULT_URL;

  @Option(
      names = "--prefix",
      paramLabel = "PREFIX",
      defaultValue = "tenure_",
      converter = PrefixConverter.class,
      description = "Table prefix, [a-z][a-z0-9_]{0,29}. Default: ${DEFAULT-VALUE}")
  TablePrefix prefix = TablePrefix.DEFAULT;

  @Option(
      names = "--json",
      description = {"Print one JSON object instead of text.", "Errors stay one line on stderr."})
  boolean json;

  /**
   * Opens the store; the caller closes it.
   *
   * @param migrate whether to create or upgrade the schema
   */
  Store open(boolean migrate) {
    return Stores.open(new StoreSettings(url, prefix, migrate));
  }
}
