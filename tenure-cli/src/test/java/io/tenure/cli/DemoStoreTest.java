package io.tenure.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.Stores;
import io.tenure.spi.MembershipWrite;
import io.tenure.spi.NewNode;
import io.tenure.spi.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's file is also every command's default store: a run deletes only a file a demo made, and
 * none a demo is running on.
 */
class DemoStoreTest {
  @TempDir Path folder;

  @Test
  void a_file_a_demo_made_is_deleted_with_its_journal_files() throws Exception {
    Path file = folder.resolve("tenure.db");
    try (Store store = Stores.open("sqlite:" + file)) {
      DemoStore.mark(store);
    }
    Files.writeString(Path.of(file + "-wal"), "");

    DemoStore.clear(file);

    assertThat(file).doesNotExist();
    assertThat(Path.of(file + "-wal")).doesNotExist();
  }

  @Test
  void a_store_the_demo_did_not_make_is_refused_and_kept() throws Exception {
    Path file = folder.resolve("tenure.db");
    Stores.open("sqlite:" + file).close();
    Path notTenure = folder.resolve("other.db");
    Files.writeString(notTenure, "not a database");

    for (Path kept : new Path[] {file, notTenure}) {
      assertThatThrownBy(() -> DemoStore.clear(kept))
          .isInstanceOf(CommandFailure.class)
          .hasMessageContaining("did not make")
          .hasMessageContaining("--dir")
          .satisfies(
              e -> assertThat(((CommandFailure) e).exitCode()).isEqualTo(ExitCodes.CONFLICT));
      assertThat(kept).exists();
    }
  }

  @Test
  void a_demo_file_with_a_running_node_is_refused_and_kept() throws Exception {
    Path file = folder.resolve("tenure.db");
    try (Store store = Stores.open("sqlite:" + file)) {
      DemoStore.mark(store);
      NewNode node =
          new NewNode(UUID.randomUUID().toString(), "node-1", "", Set.of(), Duration.ofSeconds(3));
      assertThat(store.membership().join(node, store.membership().read().version()))
          .isEqualTo(MembershipWrite.APPLIED);
    }

    assertThatThrownBy(() -> DemoStore.clear(file))
        .isInstanceOf(CommandFailure.class)
        .hasMessageContaining("a demo is running on " + file)
        .hasMessageContaining("node-1");
    assertThat(file).exists();
  }

  @Test
  void a_missing_file_is_fine() throws Exception {
    DemoStore.clear(folder.resolve("absent.db"));

    assertThat(folder.resolve("absent.db")).doesNotExist();
  }
}
