package io.tenure.jdbc.internal;

import java.nio.file.Path;

/**
 * Another process for {@code SqliteFileLockTest}: takes the lock file named by its first argument
 * the way a node does, prints what {@link SqliteFileLock#hold()} answered, and then either exits
 * ({@code probe}) or keeps the lock until it is killed ({@code hold}).
 */
final class SqliteFileLockHolder {
  private SqliteFileLockHolder() {}

  public static void main(String[] args) throws InterruptedException {
    SqliteFileLock lock = new SqliteFileLock(Path.of(args[0]));
    System.out.println(lock.hold());
    System.out.flush();
    if (args[1].equals("hold")) {
      new java.util.concurrent.CountDownLatch(1).await(); // until killed
    }
    // A probe ends without closing: the operating system releases what it took.
  }
}
