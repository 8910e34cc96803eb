package io.tenure.cli;

import io.tenure.Queue;
import io.tenure.QueueControl;
import io.tenure.QueueLimits;
import io.tenure.RateLimit;
import io.tenure.server.QueueControlJson;
import io.tenure.spi.Store;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tenure queue limits [QUEUE] [--max-in-flight N] ...}: shows the queues' pause and limits
 * with their use, or, given a setting, replaces one queue's limits with the ones given.
 */
@Command(
    name = "limits",
    description = {
      "Show or set queues' cluster-wide limits, enforced inside every claim on every node.",
      "Without a setting: every paused or limited queue (or QUEUE alone) with its messages in"
          + " flight, its busiest groups and its claims in the rate's window.",
      "With a setting: QUEUE's limits become exactly the ones given (a limit left out is lifted);"
          + " --none lifts them all. Messages already in flight are not touched."
    })
final class QueueLimitsCommand extends StoreCommand {
  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "QUEUE",
      description = "The queue. Required with a setting.")
  @Nullable String queue;

  @Option(
      names = "--max-in-flight",
      paramLabel = "N",
      description = "At most N messages of the queue in flight across the cluster.")
  @Nullable Integer maxInFlight;

  @Option(
      names = "--max-in-flight-per-group",
      paramLabel = "N",
      description = "At most N in flight per message group (e.g. per tenant).")
  @Nullable Integer maxInFlightPerGroup;

  @Option(
      names = "--rate",
      paramLabel = "N/PERIOD",
      description = "At most N claims per PERIOD (a sliding window), e.g. 100/1s or 5000/1h.")
  @Nullable String rate;

  @Option(names = "--rate-per-group", description = "The rate applies to each group apart.")
  boolean ratePerGroup;

  @Option(names = "--none", description = "Lift every limit of QUEUE.")
  boolean none;

  private @Nullable QueueLimits limits;

  @Override
  void checkArguments() {
    if (queue != null) {
      Queue.checkName(queue);
    }
    boolean setting = maxInFlight != null || maxInFlightPerGroup != null || rate != null;
    if (none && (setting || ratePerGroup)) {
      throw new IllegalArgumentException("--none lifts every limit; give it alone");
    }
    if (ratePerGroup && rate == null) {
      throw new IllegalArgumentException("--rate-per-group needs --rate N/PERIOD");
    }
    if ((setting || none) && queue == null) {
      throw new IllegalArgumentException("setting limits needs the QUEUE");
    }
    if (none) {
      limits = QueueLimits.none();
    } else if (setting) {
      limits =
          new QueueLimits(
              maxInFlight == null ? 0 : maxInFlight,
              maxInFlightPerGroup == null ? 0 : maxInFlightPerGroup,
              rate == null ? null : rate(rate, ratePerGroup));
    }
  }

  @Override
  int run(Store store, Output output) {
    if (limits != null) {
      store.queues().controls().limit(queue, limits);
    }
    List<QueueControl> controls =
        queue == null
            ? store.queues().controls().list()
            : List.of(store.queues().controls().read(queue));
    if (output.json()) {
      output.object(Map.of("queues", controls.stream().map(QueueControlJson::of).toList()));
    } else if (controls.isEmpty()) {
      output.line("no queue is paused or limited.");
    } else {
      output.table(
          List.of("QUEUE", "STATE", "IN FLIGHT", "PER GROUP", "RATE", "BUSIEST GROUPS"),
          controls.stream().map(QueueLimitsCommand::row).toList());
    }
    return ExitCodes.OK;
  }

  private static List<String> row(QueueControl c) {
    QueueLimits l = c.limits();
    RateLimit r = l.rate();
    List<String> row = new ArrayList<>();
    row.add(c.queue());
    row.add(c.paused() ? "paused" : "running");
    row.add(c.inFlight() + (l.maxInFlight() == 0 ? "" : " / " + l.maxInFlight()));
    row.add(l.maxInFlightPerGroup() == 0 ? "-" : String.valueOf(l.maxInFlightPerGroup()));
    row.add(
        r == null
            ? "-"
            : c.claimsInWindow()
                + " / "
                + r.claims()
                + " per "
                + DurationConverter.text(r.per())
                + (r.perGroup() ? " per group" : ""));
    row.add(
        c.groupsInFlight().isEmpty()
            ? "-"
            : c.groupsInFlight().entrySet().stream()
                .limit(3)
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", ")));
    return row;
  }

  /**
   * @return {@code N/PERIOD} as a rate
   * @throws IllegalArgumentException naming the text if it is not one
   */
  static RateLimit rate(String text, boolean perGroup) {
    int slash = text.indexOf('/');
    if (slash <= 0) {
      throw new IllegalArgumentException(
          "--rate takes N/PERIOD, e.g. 100/1s or 5000/1h, got '" + text + "'");
    }
    int claims;
    try {
      claims = Integer.parseInt(text.substring(0, slash));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--rate takes N/PERIOD with N a whole number, got '" + text + "'");
    }
    Duration per;
    try {
      per = new DurationConverter().convert(text.substring(slash + 1));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("--rate " + text + ": " + e.getMessage());
    }
    return new RateLimit(claims, per, perGroup);
  }
}
