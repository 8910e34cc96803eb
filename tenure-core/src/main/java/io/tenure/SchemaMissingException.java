package io.tenure;

import org.jspecify.annotations.Nullable;

/**
 * A table Tenure needs does not exist: the schema was never migrated, was dropped, is older than
 * this build, or the table prefix is wrong; or the database itself (a SQLite file, a server's
 * database) does not exist. Not retryable; run {@code tenure migrate} or open the store with
 * migration on (a server's database must be created first).
 */
public class SchemaMissingException extends StoreException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message which table or prefix is missing
   * @param cause the underlying failure
   */
  public SchemaMissingException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
