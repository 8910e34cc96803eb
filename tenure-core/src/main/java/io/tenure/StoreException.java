package io.tenure;

import org.jspecify.annotations.Nullable;

/**
 * A store operation failed for a reason that is not a normal result. Losing a race is never
 * reported with this type: it is a return value. Subclasses say why, so callers can tell a retry
 * from an outage.
 */
public class StoreException extends TenureException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what failed, naming the table, prefix or row concerned
   * @param cause the underlying failure, usually a {@link java.sql.SQLException}
   */
  public StoreException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
