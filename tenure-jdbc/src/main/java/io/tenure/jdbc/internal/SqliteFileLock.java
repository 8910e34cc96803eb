package io.tenure.jdbc.internal;

import io.tenure.spi.LeaseStore;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An OS lock on a file beside a SQLite database ({@code <db>-<prefix>leader.lock}), which the
 * operating system releases when the holding process ends, however it ends. SQLite is one host, so
 * the processes that compete for the lease compete for this file.
 *
 * <p>Java's file locks are POSIX record locks on Unix: they belong to the process, and closing any
 * descriptor of the file drops every lock the process holds on it. So each JVM opens the file
 * through one channel ({@link Slot}) shared by every lock on that path, closed only when none is
 * left; which of them holds it is kept here, and a second one is refused as a second process would
 * be. A second copy of Tenure in another class loader of the same JVM has its own slots and must
 * not lock the same file.
 *
 * <p>The file is created by the first {@link #hold()}, never before: only nodes that can lead hold,
 * so read-only commands create nothing. Tenure never deletes it. If something else deletes or
 * replaces it, another process can lock the new file while this one still locks the old one: so the
 * lock counts as kept only while the path still names the file this channel locked (its {@code
 * fileKey}, device and inode), and otherwise the next {@link #hold()} starts over on the new file.
 */
final class SqliteFileLock implements LeaseStore.SessionLock {
  /** The one channel per lock file in this JVM. Guarded by itself. */
  private static final Map<Path, Slot> SLOTS = new HashMap<>();

  private final Path file;

  /** Counted among its slot's users (guarded by {@link #SLOTS}). */
  private boolean using;

  SqliteFileLock(Path file) {
    this.file = file.toAbsolutePath().normalize();
  }

  /**
   * @return the lock file beside {@code database} for the tables of {@code prefix}
   */
  static Path beside(Path database, String prefix) {
    return database.resolveSibling(database.getFileName() + "-" + prefix + "leader.lock");
  }

  /** The path it locks, for tests. */
  Path file() {
    return file;
  }

  /** One open channel on a lock file, and the lock on it if one of this JVM's users holds it. */
  private static final class Slot {
    @Nullable FileChannel channel;

    /** The identity of the file the channel has open, as the path named it. */
    @Nullable Object fileKey;

    @Nullable FileLock lock;
    @Nullable SqliteFileLock holder;
    int users;
  }

  @Override
  public Hold hold() {
    synchronized (SLOTS) {
      Slot slot = SLOTS.computeIfAbsent(file, f -> new Slot());
      if (!using) {
        using = true;
        slot.users++;
      }
      if (slot.holder == this) {
        if (slot.lock != null && slot.lock.isValid() && stillTheFile(slot)) {
          // Only this process releases it, and its channel has held it since the last check.
          return Hold.KEPT;
        }
        closeChannel(slot); // the path names another file now, or none: start over
      } else if (slot.holder != null) {
        return Hold.REFUSED; // another node in this process, as another process would be
      }
      return take(slot);
    }
  }

  private Hold take(Slot slot) {
    try {
      if (slot.channel == null || !stillTheFile(slot)) {
        closeChannel(slot);
        open(slot);
      }
      FileLock lock = slot.channel.tryLock();
      if (lock == null) {
        return Hold.REFUSED;
      }
      if (!stillTheFile(slot)) {
        // Replaced between the open and the lock: this lock is on a file nobody else will open.
        closeChannel(slot);
        return Hold.REFUSED;
      }
      slot.lock = lock;
      slot.holder = this;
      return Hold.TAKEN;
    } catch (OverlappingFileLockException e) {
      // Locked through another channel of this JVM, outside these slots: held, as far as we know.
      return Hold.REFUSED;
    } catch (IOException | RuntimeException e) {
      closeChannel(slot);
      return Hold.UNAVAILABLE;
    }
  }

  /** Opens the file, creating it, and notes which file the path named before and after. */
  private void open(Slot slot) throws IOException {
    Object before = fileKey();
    FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    Object after = fileKey();
    if (after == null || (before != null && !before.equals(after))) {
      channel.close();
      throw new IOException("the lock file " + file + " changed while it was opened");
    }
    slot.channel = channel;
    slot.fileKey = after;
  }

  private boolean stillTheFile(Slot slot) {
    Object now = fileKey();
    return now != null && Objects.equals(now, slot.fileKey);
  }

  /**
   * @return the path's file identity now, by {@code stat}, which opens no descriptor (closing one
   *     would drop this process's lock); null if the file is gone or cannot be read
   */
  private @Nullable Object fileKey() {
    try {
      return Files.readAttributes(file, BasicFileAttributes.class).fileKey();
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      return null;
    }
  }

  @Override
  public void release() {
    synchronized (SLOTS) {
      Slot slot = SLOTS.get(file);
      if (slot != null && slot.holder == this) {
        try {
          if (slot.lock != null) {
            slot.lock.release();
          }
          slot.lock = null;
          slot.holder = null;
        } catch (IOException | RuntimeException e) {
          closeChannel(slot); // closing the channel releases it
        }
      }
    }
  }

  @Override
  public void close() {
    synchronized (SLOTS) {
      release();
      if (!using) {
        return;
      }
      using = false;
      Slot slot = SLOTS.get(file);
      if (slot != null && --slot.users == 0) {
        closeChannel(slot);
        SLOTS.remove(file);
      }
    }
  }

  /** Closes the slot's channel, which releases its lock: only when no user holds or needs it. */
  private static void closeChannel(Slot slot) {
    slot.lock = null;
    slot.holder = null;
    slot.fileKey = null;
    if (slot.channel != null) {
      try {
        slot.channel.close();
      } catch (IOException ignored) {
        // Closed or not, this process no longer relies on it.
      }
      slot.channel = null;
    }
  }
}
