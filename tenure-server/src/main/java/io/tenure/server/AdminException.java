package io.tenure.server;

/**
 * An admin call that cannot be served: the status code and a one-line message saying what was wrong
 * and what to do. The server answers {@code {"error": message}} with the status.
 */
public final class AdminException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;

  public AdminException(int status, String message) {
    super(message);
    this.status = status;
  }

  public int status() {
    return status;
  }

  /** 400: bad input, nothing changed. */
  public static AdminException badRequest(String message) {
    return new AdminException(400, message);
  }

  /** 404: no such path, queue, message or agent. */
  public static AdminException notFound(String message) {
    return new AdminException(404, message);
  }

  /** 409: refused by a rule, nothing changed. */
  public static AdminException conflict(String message) {
    return new AdminException(409, message);
  }
}
