package io.tenure.cli;

import io.tenure.Queue;
import io.tenure.spi.Store;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tenure queue pause QUEUE} and {@code tenure queue resume QUEUE}. */
abstract class QueuePauseCommand extends StoreCommand {
  @Parameters(index = "0", paramLabel = "QUEUE", description = "The queue's name.")
  String queue;

  @Override
  final void checkArguments() {
    Queue.checkName(queue);
  }

  @Override
  final int run(Store store, Output output) {
    boolean changed = store.queues().controls().pause(queue, paused());
    String done =
        paused()
            ? (changed ? "paused" : "was paused already")
            : (changed ? "resumed" : "was not paused");
    if (output.json()) {
      Map<String, @Nullable Object> fields = new LinkedHashMap<>();
      fields.put("queue", queue);
      fields.put("paused", paused());
      fields.put("changed", changed);
      output.object(fields);
    } else {
      output.line("queue '" + queue + "': " + done + ".");
    }
    return ExitCodes.OK;
  }

  abstract boolean paused();

  @Command(
      name = "pause",
      description = {
        "Pause a queue, durably and cluster-wide: no node claims its messages until it is resumed.",
        "Messages already in flight finish. A queue may be paused before it has messages."
      })
  static final class Pause extends QueuePauseCommand {
    @Override
    boolean paused() {
      return true;
    }
  }

  @Command(
      name = "resume",
      description = {
        "Resume a paused queue: every node's next claim takes its messages again (on PostgreSQL"
            + " at once, by notification)."
      })
  static final class Resume extends QueuePauseCommand {
    @Override
    boolean paused() {
      return false;
    }
  }
}
