package io.tenure;

import org.jspecify.annotations.Nullable;

/**
 * The store cannot be reached or refused us: connection refused or lost, bad credentials, the
 * server shutting down, a store already closed. Callers may retry later; nothing was changed by the
 * failed call unless it says otherwise.
 */
public class StoreUnavailableException extends StoreException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what could not be reached, with the URL (secrets masked)
   * @param cause the underlying failure
   */
  public StoreUnavailableException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
