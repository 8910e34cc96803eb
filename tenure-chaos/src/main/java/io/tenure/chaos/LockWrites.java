package io.tenure.chaos;

import io.tenure.HeldLock;
import io.tenure.Stores;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One lock holder's fenced writes (SPEC §11), made the way an application makes them: in its own
 * JDBC transaction on the store's database, {@link HeldLock#fence} first, then the work and a row
 * in the harness's protected table, committed only if the fence held.
 *
 * <p>The checker needs the writes in the order they committed, which neither an id nor a timestamp
 * taken inside the transaction gives (a holder frozen between its insert and its commit commits
 * later than its row says). So each write also takes the next number of a one-row counter, and that
 * row stays locked until its transaction ends: the numbers of committed writes are their commit
 * order. The history line commits with the write, so the history lists exactly the committed ones.
 *
 * <p>Not thread-safe: one per writing thread, each with its own connection.
 */
final class LockWrites implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LockWrites.class);

  private final History history;
  private final String node;
  private final Duration work;
  private @Nullable Connection connection;

  /**
   * @param work how long each write works between its fence and its commit, as an application's
   *     transaction would; longer work widens the window a frozen holder can resume in
   */
  LockWrites(History history, String node, Duration work) {
    this.history = history;
    this.node = node;
    this.work = work;
  }

  /**
   * Makes one fenced write under {@code lock}.
   *
   * @return whether it committed: false if the fence refused it, or the database failed it
   * @throws InterruptedException if interrupted while working (the write is rolled back)
   */
  boolean write(HeldLock lock, long sequence) throws InterruptedException {
    try {
      Connection c = connection();
      try {
        if (!lock.fence(c)) {
          c.rollback();
          refused(lock, sequence);
          return false;
        }
        if (!work.isZero()) {
          Thread.sleep(work);
        }
        history.lockWrite(c, lock.name(), lock.token(), node, sequence);
        c.commit();
        return true;
      } catch (InterruptedException | SQLException | RuntimeException e) {
        rollback(c, e);
        throw e;
      }
    } catch (SQLException | RuntimeException e) {
      // A killed session, a restarting server: the write did not commit (or, if only the commit's
      // reply was lost, its history line did, which is what the checker reads).
      LOG.warn(
          "lock {} (token {}): fenced write {} failed: {}",
          lock.name(),
          lock.token(),
          sequence,
          Stores.maskSecrets(e.toString()));
      closeQuietly();
      return false;
    }
  }

  private void refused(HeldLock lock, long sequence) {
    try {
      history.record(
          HistoryEvent.Kind.LOCK_WRITE_REFUSED,
          node,
          null,
          lock.name(),
          0,
          null,
          lock.token(),
          null,
          "write " + sequence);
    } catch (RuntimeException e) {
      LOG.warn("could not record a refused fenced write: {}", e.toString());
    }
  }

  private Connection connection() throws SQLException {
    if (connection == null || connection.isClosed()) {
      connection = history.openConnection();
      connection.setAutoCommit(false);
    }
    return connection;
  }

  private void rollback(Connection c, Exception cause) {
    try {
      c.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
      closeQuietly();
    }
  }

  private void closeQuietly() {
    try {
      if (connection != null) {
        connection.close();
      }
    } catch (SQLException e) {
      // already broken
    }
    connection = null;
  }

  @Override
  public void close() {
    closeQuietly();
  }
}
