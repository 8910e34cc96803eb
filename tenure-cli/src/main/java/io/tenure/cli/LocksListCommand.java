package io.tenure.cli;

import io.tenure.LockInfo;
import io.tenure.server.LockJson;
import io.tenure.spi.Store;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code tenure locks list}: every named lock, its holder, token and expiry. */
@Command(
    name = "list",
    description = {
      "List the named locks: holder, fencing token and expiry, by the database clock.",
      "A lock is HELD while its holder renews it, RELEASED once given back but kept until its"
          + " keep-for time (lockAtLeastFor), and FREE once anyone may take it. A token grows with"
          + " every acquisition of its name."
    })
final class LocksListCommand extends StoreCommand {
  private static final int MAX = 10_000;

  @Override
  void checkArguments() {
    // No arguments: every lock is listed.
  }

  @Override
  int run(Store store, Output output) {
    List<LockInfo> locks = store.locks().list(MAX);
    if (output.json()) {
      output.object(Map.of("locks", locks.stream().map(LockJson::of).toList()));
    } else if (locks.isEmpty()) {
      output.line("no lock was ever taken.");
    } else {
      output.table(
          List.of("LOCK", "STATE", "HOLDER", "TOKEN", "EXPIRES IN"),
          locks.stream().map(LocksListCommand::row).toList());
    }
    return ExitCodes.OK;
  }

  private static List<String> row(LockInfo lock) {
    Duration left = Duration.between(lock.readAt(), lock.expiresAt());
    return List.of(
        lock.name(),
        LockJson.state(lock),
        lock.holder() == null ? "-" : lock.holder(),
        String.valueOf(lock.token()),
        left.isNegative() || left.isZero() ? "-" : QueueStatsCommand.age(left));
  }
}
