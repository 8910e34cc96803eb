package io.tenure;

import org.jspecify.annotations.Nullable;

/**
 * A table Tenure needs does not exist: the schema was never migrated, was dropped, or the table
 * prefix is wrong. Not retryable; run {@code tenure migrate} or open the store with migration on.
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
