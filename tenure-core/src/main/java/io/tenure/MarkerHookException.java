package io.tenure;

/**
 * One or more after-hooks threw. The write itself is done and is not undone: {@link #result()} says
 * what it was. The first hook failure is the cause, the others are suppressed.
 */
public class MarkerHookException extends TenureException {
  private static final long serialVersionUID = 1L;
  private final transient TransitionResult result;

  /**
   * @param message which transition's hooks failed
   * @param result what the transition did
   * @param cause the first hook failure
   */
  public MarkerHookException(String message, TransitionResult result, Throwable cause) {
    super(message, cause);
    this.result = result;
  }

  /**
   * @return what the transition did before its after-hooks failed
   */
  public TransitionResult result() {
    return result;
  }
}
