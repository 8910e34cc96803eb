package io.tenure.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.TenureNode;
import io.tenure.jdbc.JdbcFixture;
import io.tenure.spi.LeaseStore;
import io.tenure.spi.LeaseStore.SessionLock.Hold;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import io.tenure.tck.Await;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite's leader lock (LeaseStore L13, L14): an OS lock on a file beside the database, held by the
 * process, released by the operating system when the process dies. Other processes are real JVMs
 * ({@link SqliteFileLockHolder}); nodes in this JVM compete as other processes would.
 */
class SqliteFileLockTest {
  private static final Duration BOUND = Duration.ofSeconds(20);

  @TempDir Path directory;
  private Path file;
  private final List<Process> processes = new ArrayList<>();
  private final List<SqliteFileLock> locks = new ArrayList<>();

  @BeforeEach
  void name() {
    file = SqliteFileLock.beside(directory.resolve("tenure.db"), "tenure_");
  }

  @AfterEach
  void stop() throws InterruptedException {
    locks.forEach(SqliteFileLock::close);
    for (Process process : processes) {
      process.destroyForcibly();
      process.waitFor();
    }
  }

  private SqliteFileLock lock() {
    SqliteFileLock lock = new SqliteFileLock(file);
    locks.add(lock);
    return lock;
  }

  /** Starts another JVM that takes the lock; returns once it has answered. */
  private Process otherProcess(String mode, Hold expected) throws IOException {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process process =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                SqliteFileLockHolder.class.getName(),
                file.toString(),
                mode)
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    processes.add(process);
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    assertThat(out.readLine()).as("the other process's hold()").isEqualTo(expected.name());
    return process;
  }

  @Test
  void a_lock_another_process_holds_is_refused_and_taken_once_that_process_is_killed()
      throws Exception {
    Process holder = otherProcess("hold", Hold.TAKEN);
    SqliteFileLock lock = lock();
    assertThat(lock.hold()).isEqualTo(Hold.REFUSED);
    assertThat(lock.hold()).isEqualTo(Hold.REFUSED);

    holder.destroyForcibly(); // SIGKILL: nothing of the process runs any more
    holder.waitFor();

    assertThat(lock.hold()).as("the OS released the dead process's lock").isEqualTo(Hold.TAKEN);
    assertThat(lock.hold()).isEqualTo(Hold.KEPT);
    otherProcess("probe", Hold.REFUSED);
    assertThat(lock.hold()).isEqualTo(Hold.KEPT);
  }

  @Test
  void a_node_of_this_process_that_is_refused_and_closes_leaves_the_holders_lock_in_place()
      throws Exception {
    SqliteFileLock holder = lock();
    SqliteFileLock other = lock();
    assertThat(holder.hold()).isEqualTo(Hold.TAKEN);
    assertThat(other.hold()).as("as another process would be").isEqualTo(Hold.REFUSED);

    // POSIX locks belong to the process: a second descriptor of the file, closed, would drop it.
    other.close();
    lock().close();

    otherProcess("probe", Hold.REFUSED);
    assertThat(holder.hold()).isEqualTo(Hold.KEPT);
    holder.release();
    otherProcess("probe", Hold.TAKEN);
  }

  @Test
  void a_lock_file_replaced_under_its_holder_is_not_kept() throws Exception {
    SqliteFileLock lock = lock();
    assertThat(lock.hold()).isEqualTo(Hold.TAKEN);

    Files.delete(file);
    Process other = otherProcess("hold", Hold.TAKEN); // a new file, locked by another process

    assertThat(lock.hold()).as("the path names another process's file now").isEqualTo(Hold.REFUSED);
    other.destroyForcibly();
    other.waitFor();
    assertThat(lock.hold()).isEqualTo(Hold.TAKEN);
    assertThat(lock.hold()).isEqualTo(Hold.KEPT);
  }

  @Test
  void a_lock_file_deleted_under_its_holder_is_not_kept_but_made_and_taken_anew() throws Exception {
    SqliteFileLock lock = lock();
    assertThat(lock.hold()).isEqualTo(Hold.TAKEN);

    Files.delete(file);

    assertThat(lock.hold()).isEqualTo(Hold.TAKEN);
    assertThat(file).exists();
    otherProcess("probe", Hold.REFUSED);
    assertThat(lock.hold()).isEqualTo(Hold.KEPT);
  }

  @Test
  void asking_for_the_lock_and_closing_it_unused_creates_no_file() throws Exception {
    JdbcFixture fixture = JdbcFixture.of(JdbcFixture.Kind.SQLITE);
    try (fixture) {
      TablePrefix prefix = fixture.freshPrefix();
      Store store = fixture.open(prefix);
      Path database = Path.of(fixture.url().substring("sqlite:".length()));
      Path lockFile = SqliteFileLock.beside(database, prefix.value());

      LeaseStore.SessionLock unused = store.leases().sessionLock().orElseThrow();
      unused.release();
      unused.close();
      Store existing = fixture.openRequiringSchema(prefix);
      existing.leases().read();
      existing.leases().sessionLock().orElseThrow().close();
      assertThat(lockFile).doesNotExist();

      // A node that never leads never asks for it.
      TenureNode follower = TenureNode.builder(store).name("follower").promotable(false).build();
      follower.start();
      Await.until(
          BOUND,
          "the follower is active",
          () ->
              !store.membership().read().nodes().isEmpty()
                  && store.membership().read().nodes().get(0).status()
                      == io.tenure.NodeStatus.ACTIVE);
      follower.close();
      assertThat(lockFile).doesNotExist();

      // The positive control: a node that leads makes and takes it.
      TenureNode leader = TenureNode.builder(fixture.open(prefix)).name("leader").build();
      leader.start();
      Await.until(
          BOUND, "the leader records its lock", () -> store.leases().read().sessionLocked());
      assertThat(lockFile).exists();
      leader.close();
    }
  }

  @Test
  void an_in_memory_database_has_no_file_and_so_no_lock() throws SQLException {
    SqliteDialect dialect = new SqliteDialect();
    try (Connection memory = DriverManager.getConnection("jdbc:sqlite::memory:")) {
      assertThat(dialect.databaseFile(memory)).isEmpty();
    }
    Path database = directory.resolve("file.db");
    try (Connection onFile = DriverManager.getConnection("jdbc:sqlite:" + database)) {
      assertThat(dialect.databaseFile(onFile)).contains(database);
    }
  }
}
