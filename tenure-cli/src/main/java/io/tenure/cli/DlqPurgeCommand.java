package io.tenure.cli;

import io.tenure.Queue;
import io.tenure.QueueStats;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Store;
import java.io.Console;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tenure dlq purge}: deletes dead letters for good, after a confirmation. */
@Command(
    name = "purge",
    description = {
      "Delete dead letters of a queue for good.",
      "Choose --all or filters. On a terminal it asks first unless --yes; without a terminal"
          + " it refuses (exit 2) unless --yes. Many are purged "
          + DeadLetters.CHUNK
          + " at a time, oldest first, with progress on stderr.",
      "Exits 4 if the queue is unknown or nothing matched."
    })
final class DlqPurgeCommand extends StoreCommand {
  @Parameters(index = "0", paramLabel = "QUEUE", description = "Queue name.")
  String queue = "";

  @Option(names = "--all", description = "Purge every dead letter of the queue.")
  boolean all;

  @Mixin DeadLetterFilter filter = new DeadLetterFilter();

  @Option(names = "--yes", description = "Do not ask for confirmation.")
  boolean yes;

  /** Where the confirmation is asked; tests put their own. */
  Terminal terminal = Terminal.system();

  @Override
  void checkArguments() {
    Queue.checkName(queue);
    filter.check();
    if (all == filter.any()) {
      throw new IllegalArgumentException(
          "choose what to purge: --all, or filters (--key, --error-contains, --older-than)");
    }
    if (!yes && !terminal.interactive()) {
      throw new IllegalArgumentException(
          "not on a terminal, so nobody can confirm: add --yes to purge; nothing purged");
    }
  }

  @Override
  int run(Store store, Output output) {
    QueueStats stats = DeadLetters.requireQueue(store, queue);
    QueueStore queues = store.queues();
    long expected = DeadLetters.count(queues, stats, filter);
    if (expected > 0 && !yes) {
      confirm(expected);
    }
    long purged =
        DeadLetters.inChunks(
            expected,
            limit -> queues.purge(DeadLetters.chunk(queue, filter, limit)),
            "purged",
            spec.commandLine().getErr());
    if (output.json()) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("queue", queue);
      fields.put("purged", purged);
      output.object(fields);
    } else {
      output.line(sentence(purged));
    }
    return purged == 0 ? ExitCodes.NOT_FOUND : ExitCodes.OK;
  }

  private void confirm(long expected) {
    String question =
        "Delete "
            + DeadLetters.deadLetters(expected)
            + " from "
            + DeadLetters.describe(queue, filter)
            + " for good? [y/N] ";
    String answer = terminal.ask(question);
    if (answer == null || !answer.strip().toLowerCase(Locale.ROOT).matches("y|yes")) {
      throw new CommandFailure(ExitCodes.USAGE, "not confirmed; nothing purged");
    }
  }

  private String sentence(long purged) {
    String where = DeadLetters.describe(queue, filter);
    return purged == 0
        ? "no dead letters in " + where + "; nothing purged."
        : "purged " + DeadLetters.deadLetters(purged) + " from " + where + ".";
  }

  /** The terminal a person confirms on, if there is one. */
  interface Terminal {
    /**
     * @return true if both ends are a terminal, so a person can answer
     */
    boolean interactive();

    /**
     * @return the line typed after the question, or null at end of input
     */
    @Nullable String ask(String question);

    /** The process's own terminal, through {@link System#console()}. */
    static Terminal system() {
      return new Terminal() {
        @Override
        public boolean interactive() {
          Console console = System.console();
          return console != null && isTerminal(console);
        }

        @Override
        public @Nullable String ask(String question) {
          Console console = System.console();
          return console == null ? null : console.readLine("%s", question);
        }
      };
    }

    /**
     * Java 22 made {@code System.console()} non-null even when redirected and added {@code
     * isTerminal()} to tell; on Java 21 a console exists only on a terminal. Called reflectively
     * because the launcher is compiled for 21.
     */
    private static boolean isTerminal(Console console) {
      try {
        return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
      } catch (NoSuchMethodException e) {
        return true;
      } catch (ReflectiveOperationException e) {
        return false;
      }
    }
  }
}
