package io.tenure;

import org.jspecify.annotations.Nullable;

/**
 * The store URL or the database behind a data source is not one Tenure supports. Tenure never falls
 * back to a guess: an unknown database is refused before Tenure writes anything.
 */
public class UnsupportedDatabaseException extends TenureException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what was found and what is supported
   * @param cause the underlying failure, if any
   */
  public UnsupportedDatabaseException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
