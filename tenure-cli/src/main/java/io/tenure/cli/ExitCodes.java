package io.tenure.cli;

import io.tenure.SchemaMissingException;
import io.tenure.StoreUnavailableException;
import io.tenure.UnsupportedDatabaseException;
import java.util.LinkedHashMap;
import java.util.Map;

/** The exit codes scripts can rely on, and the one place that maps a failure to its code. */
final class ExitCodes {
  static final int OK = 0;
  static final int STORE_ERROR = 1;
  static final int USAGE = 2;
  static final int CONFLICT = 3;
  static final int NOT_FOUND = 4;
  static final int UNAVAILABLE = 5;
  static final int UNSUPPORTED = 6;

  /** An unattended demo lost or stranded a message, or a chaos run broke a safety invariant. */
  static final int INVARIANT_BROKEN = 7;

  /**
   * No Tenure schema where the command looked; only {@code migrate} and the node commands create
   * one.
   */
  static final int NO_SCHEMA = 8;

  private ExitCodes() {}

  /**
   * @return the exit code for a failure thrown by a command
   */
  static int of(Throwable failure) {
    return switch (failure) {
      case CommandFailure refusal -> refusal.exitCode();
      // The API reports malformed input (ids, states, URLs) as IllegalArgumentException, naming it.
      case IllegalArgumentException e -> USAGE;
      case UnsupportedDatabaseException e -> UNSUPPORTED;
      case SchemaMissingException e -> NO_SCHEMA;
      case StoreUnavailableException e -> UNAVAILABLE;
      default -> STORE_ERROR;
    };
  }

  /**
   * @return the codes and their meaning, in order, for the help text
   */
  static Map<String, String> help() {
    Map<String, String> codes = new LinkedHashMap<>();
    codes.put(" 0", "done (applied or already satisfied, found, cleared, replayed, purged)");
    codes.put(" 1", "store error or unexpected failure");
    codes.put(" 2", "usage error: unknown command or option, malformed argument");
    codes.put(
        " 3", "conflict: a marker in another state, a message whose status refuses the action");
    codes.put(" 4", "not found: no such marker, queue or message, or nothing matched");
    codes.put(" 5", "store unavailable: unreachable, bad credentials");
    codes.put(" 6", "unsupported database or store URL");
    codes.put(" 7", "demo or chaos: a message was lost or stranded, or a safety invariant broke");
    codes.put(
        " 8",
        "no Tenure schema: no SQLite file, no such database, or no (or an older) schema"
            + " for the prefix; run 'tenure migrate'");
    return codes;
  }
}
