package io.tenure.cli;

import io.tenure.MarkerChange;
import io.tenure.TransitionResult;
import io.tenure.spi.Store;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code tenure markers transition}: creates a marker only if the resource has none. */
@Command(
    name = "transition",
    description = {
      "Put a resource in a state if it has no marker yet.",
      "Race-safe: of concurrent transitions of one resource, at most one is applied.",
      "Exit 0 if applied or already in that state, 3 if it is in another state."
    })
final class MarkersTransitionCommand extends StoreCommand {
  @Mixin MarkerArguments arguments = new MarkerArguments();

  private MarkerChange change; // set by checkArguments, before run

  @Override
  void checkArguments() {
    change = arguments.change();
  }

  @Override
  int run(Store store, Output output) {
    TransitionResult result = markers(store).transition(change);
    if (output.json()) {
      output.object(json(result));
    } else {
      print(result, output);
    }
    return exitCode(result);
  }

  private void print(TransitionResult result, Output output) {
    String key = change.key().toString();
    switch (result) {
      case TransitionResult.Applied applied -> {
        output.line("APPLIED: " + key + " is now " + change.state() + ".");
        MarkerView.print(output, applied.marker());
      }
      case TransitionResult.AlreadySatisfied satisfied -> {
        output.line(
            "ALREADY_SATISFIED: " + key + " was already " + change.state() + "; nothing changed.");
        MarkerView.print(output, satisfied.marker());
      }
      case TransitionResult.Conflict conflict -> {
        output.line(
            "CONFLICT: %s is %s, not %s; nothing changed. Clear it first to change its state."
                .formatted(key, conflict.existing().state(), change.state()));
        MarkerView.print(output, conflict.existing());
      }
      case TransitionResult.Vetoed vetoed ->
          output.line("VETOED: " + key + " was not changed: " + vetoed.reason());
    }
  }

  private static Map<String, @Nullable Object> json(TransitionResult result) {
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    fields.put("outcome", result.outcome());
    switch (result) {
      case TransitionResult.Applied applied ->
          fields.put("marker", MarkerView.json(applied.marker()));
      case TransitionResult.AlreadySatisfied satisfied ->
          fields.put("marker", MarkerView.json(satisfied.marker()));
      case TransitionResult.Conflict conflict ->
          fields.put("marker", MarkerView.json(conflict.existing()));
      case TransitionResult.Vetoed vetoed -> fields.put("reason", vetoed.reason());
    }
    return fields;
  }

  private static int exitCode(TransitionResult result) {
    return switch (result.outcome()) {
      case APPLIED, ALREADY_SATISFIED -> ExitCodes.OK;
      // The command line adds no hooks, so a veto cannot happen; if one did, it refused the change
      // just as a conflict does.
      case CONFLICT, VETOED -> ExitCodes.CONFLICT;
    };
  }
}
