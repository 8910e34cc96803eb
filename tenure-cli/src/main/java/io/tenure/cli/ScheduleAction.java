package io.tenure.cli;

import io.tenure.Schedule;
import io.tenure.Schedules;
import io.tenure.Tenure;
import io.tenure.spi.Store;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Parameters;

/**
 * A schedule command that acts on one schedule by name: the name is checked before the store is
 * opened, and an unknown one exits 4.
 */
abstract class ScheduleAction extends StoreCommand {
  @Parameters(index = "0", paramLabel = "SCHEDULE", description = "The schedule's name.")
  String name;

  @Override
  final void checkArguments() {
    Schedule.checkName(name);
  }

  @Override
  final int run(Store store, Output output) {
    if (store.schedules().read(name).isEmpty()) {
      throw new CommandFailure(ExitCodes.NOT_FOUND, "no schedule named '" + name + "'");
    }
    // Over the command's store, which the command closes: the Tenure is not closed here.
    Schedules schedules = Tenure.on(store, "tenure-cli").schedules();
    String done = act(schedules);
    if (output.json()) {
      Map<String, @Nullable Object> fields = new LinkedHashMap<>();
      fields.put("schedule", name);
      fields.put("result", done);
      output.object(fields);
    } else {
      output.line("schedule '" + name + "': " + done + ".");
    }
    return ExitCodes.OK;
  }

  /**
   * @return what was done, in a few words
   */
  abstract String act(Schedules schedules);
}
