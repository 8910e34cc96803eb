package io.tenure.cli;

import io.tenure.SchemaMissingException;
import io.tenure.Stores;
import io.tenure.spi.Store;
import io.tenure.spi.StoreSettings;
import io.tenure.spi.TablePrefix;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * The options every command that touches a store shares: where it is, which tables, what output.
 */
final class StoreOptions {
  /**
   * The store used when neither {@code --store} nor {@code TENURE_STORE} names one; the demo's too.
   */
  static final String DEFAULT_URL = "sqlite:tenure-data/tenure.db";

  /** The environment variable that names the store when {@code --store} is not given. */
  static final String STORE_VARIABLE = "TENURE_STORE";

  // The default comes from TENURE_STORE when set (EnvironmentDefaults), else from this annotation.
  @Option(
      names = "--store",
      paramLabel = "URL",
      defaultValue = DEFAULT_URL,
      // No URL in the text: picocli's line breaker splits words after ':' and '.'.
      description =
          "Store URL: a SQLite file or a PostgreSQL, MariaDB or MySQL database (the forms are in"
              + " 'tenure --help'). Default: $"
              + STORE_VARIABLE
              + " if set, else the SQLite file"
              + " the demo runs on, in the folder tenure-data.")
  String url = DEFAULT_URL;

  @Option(
      names = "--prefix",
      paramLabel = "PREFIX",
      defaultValue = "tenure_",
      converter = PrefixConverter.class,
      description =
          "Table prefix: a lowercase letter, then up to 29 lowercase letters, digits or"
              + " underscores. Default: ${DEFAULT-VALUE}.")
  TablePrefix prefix = TablePrefix.DEFAULT;

  @Option(
      names = "--json",
      description = "Print JSON instead of text. Errors stay one line on stderr.")
  boolean json;

  /** The command these options are mixed into, to tell a typed --store from a default one. */
  @Spec(Spec.Target.MIXEE)
  @Nullable CommandSpec mixee;

  /**
   * Opens the store's current schema without creating or changing any: what every command but
   * {@code migrate} and the node commands does. The caller closes it.
   *
   * @throws CommandFailure with {@link ExitCodes#NO_SCHEMA} naming what is missing and the {@code
   *     tenure migrate} command that creates it
   */
  Store openExisting() {
    try {
      return Stores.open(StoreSettings.existing(url, prefix));
    } catch (SchemaMissingException e) {
      throw missing(e);
    }
  }

  /** Opens the store, creating or upgrading its schema; the caller closes it. */
  Store openMigrated() {
    return Stores.open(new StoreSettings(url, prefix, true));
  }

  /**
   * Opens the store as it is, without migrating: a missing schema is reported on first use. Only
   * {@code migrate} uses it, to read the version before it migrates.
   */
  Store openAsIs() {
    return Stores.open(new StoreSettings(url, prefix, false));
  }

  /**
   * @return the refusal the user sees for {@code e}: what is missing, then the exact command that
   *     creates it for this store and prefix
   */
  CommandFailure missing(SchemaMissingException e) {
    String launcher = mixee == null ? "tenure" : TenureCommand.launcher(mixee);
    String message =
        String.valueOf(e.getMessage()).replace(" or open the store with migration on", "");
    message =
        message.contains("run 'tenure migrate'")
            ? message.replace("'tenure migrate'", migrateCommand())
            : message + "; run " + migrateCommand();
    if (isDefaultStore()) {
      message += ", or " + launcher + " demo for a demo cluster on it";
    }
    return new CommandFailure(ExitCodes.NO_SCHEMA, message);
  }

  /**
   * The migrate command for this store: {@code --store} only if it was typed, {@code --prefix} if
   * not the default.
   */
  String migrateCommand() {
    StringBuilder command =
        new StringBuilder(mixee == null ? "tenure" : TenureCommand.launcher(mixee))
            .append(" migrate");
    if (storeTyped()) {
      command.append(" --store ").append(Shell.quote(Stores.maskSecrets(url)));
    }
    if (!prefix.equals(TablePrefix.DEFAULT)) {
      command.append(" --prefix ").append(prefix.value());
    }
    return command.toString();
  }

  /**
   * @return true if {@code --store} was on the command line (not taken from {@code TENURE_STORE} or
   *     the default): only then must a suggested command repeat it
   */
  boolean storeTyped() {
    ParseResult parsed = mixee == null ? null : mixee.commandLine().getParseResult();
    return parsed != null && parsed.hasMatchedOption("--store");
  }

  private boolean isDefaultStore() {
    return !storeTyped() && url.equals(DEFAULT_URL) && prefix.equals(TablePrefix.DEFAULT);
  }
}
