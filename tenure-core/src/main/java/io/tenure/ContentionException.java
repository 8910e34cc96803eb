package io.tenure;

import org.jspecify.annotations.Nullable;

/**
 * The database gave up on a statement because of concurrent writers: a deadlock, a serialization
 * failure, a lock wait timeout or a busy SQLite file. The statement changed nothing and is safe to
 * retry.
 */
public class ContentionException extends StoreException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message which operation met contention
   * @param cause the underlying failure
   */
  public ContentionException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
