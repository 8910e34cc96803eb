package io.tenure.cli;

import io.tenure.Markers;
import io.tenure.NodeInfo;
import io.tenure.SchemaMissingException;
import io.tenure.Stores;
import io.tenure.spi.MembershipView;
import io.tenure.spi.Store;
import io.tenure.spi.StoreSettings;
import io.tenure.spi.TablePrefix;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The demo's own SQLite file. Each run starts on a fresh one, and that file is also the launcher's
 * default store, so the demo deletes only a file that a demo made (it carries a marker saying so)
 * and that no running demo is using.
 */
final class DemoStore {
  static final String TENANT = "tenure-demo";
  static final String RESOURCE = "store";
  static final String STATE = "DEMO";

  /** A node that heart-beat this recently is taken to be running. */
  private static final Duration RUNNING = Duration.ofSeconds(10);

  private DemoStore() {}

  /**
   * Deletes {@code file} (and its journal files) if a demo made it and none runs on it.
   *
   * @throws CommandFailure with {@link ExitCodes#CONFLICT} if the file holds anything else, or a
   *     running demo's nodes; nothing is deleted then
   */
  static void clear(Path file) throws IOException {
    if (Files.exists(file)) {
      requireIdleDemoFile(file);
    }
    for (String suffix : new String[] {"", "-wal", "-shm", "-journal"}) {
      Files.deleteIfExists(Path.of(file + suffix));
    }
  }

  /** Marks a freshly migrated store as the demo's, so that the next run may delete it. */
  static void mark(Store store) {
    Markers.builder(store.markers())
        .build()
        .transition(
            TENANT,
            RESOURCE,
            STATE,
            "made by 'tenure demo'; the next demo run deletes this file and starts afresh");
  }

  private static void requireIdleDemoFile(Path file) {
    String refusal =
        file
            + " holds a store that 'tenure demo' did not make, and each demo starts on a fresh"
            + " file; nothing was deleted: move it away or give the demo another --dir";
    try (Store store = Stores.open(StoreSettings.existing("sqlite:" + file, TablePrefix.DEFAULT))) {
      if (store.markers().find(io.tenure.MarkerKey.of(TENANT, RESOURCE)).isEmpty()) {
        throw new CommandFailure(ExitCodes.CONFLICT, refusal);
      }
      MembershipView view = store.membership().read();
      running(view)
          .ifPresent(
              node -> {
                throw new CommandFailure(
                    ExitCodes.CONFLICT,
                    "a demo is running on "
                        + file
                        + " ("
                        + node.name()
                        + " heart-beat "
                        + QueueStatsCommand.age(Duration.between(node.heartbeatAt(), view.readAt()))
                        + " ago); stop it with Ctrl-C, or give this one another --dir");
              });
    } catch (SchemaMissingException e) {
      throw new CommandFailure(ExitCodes.CONFLICT, refusal);
    } catch (io.tenure.StoreException e) {
      // Not readable as a Tenure store (another program's file, or not SQLite at all): not the
      // demo's.
      throw new CommandFailure(
          ExitCodes.CONFLICT,
          refusal + " (it cannot be read as a Tenure store: " + e.getMessage() + ")");
    }
  }

  private static Optional<NodeInfo> running(MembershipView view) {
    return view.nodes().stream()
        .filter(n -> n.status() != io.tenure.NodeStatus.DEAD)
        .filter(n -> Duration.between(n.heartbeatAt(), view.readAt()).compareTo(RUNNING) < 0)
        .findFirst();
  }
}
