package io.tenure;

import org.jspecify.annotations.Nullable;

/**
 * The database refused a write with a constraint violation that Tenure did not expect (an expected
 * duplicate key of a create-if-absent is a result, never this exception). This indicates a schema
 * that was changed by hand or a bug; it is not retried.
 */
public class ConstraintViolationException extends StoreException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message which write was refused
   * @param cause the underlying failure
   */
  public ConstraintViolationException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
