package io.tenure;

import org.jspecify.annotations.Nullable;

/** Base type of every exception Tenure throws on purpose. Unchecked. */
public class TenureException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what went wrong, naming the value, node, epoch or row concerned
   */
  public TenureException(String message) {
    super(message);
  }

  /**
   * @param message what went wrong, naming the value, node, epoch or row concerned
   * @param cause the underlying failure
   */
  public TenureException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
