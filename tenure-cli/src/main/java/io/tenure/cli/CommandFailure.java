package io.tenure.cli;

/**
 * A refusal a command decides itself, with the exit code it documents: an unknown queue or message
 * ({@link ExitCodes#NOT_FOUND}), a message in the wrong state ({@link ExitCodes#CONFLICT}). The
 * message is the one line the user sees; nothing was changed.
 */
final class CommandFailure extends RuntimeException {
  private final int exitCode;

  /**
   * @param exitCode one of {@link ExitCodes}
   * @param message one line saying what was wrong and what to do
   */
  CommandFailure(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  /**
   * @return the exit code the command documents for this refusal
   */
  int exitCode() {
    return exitCode;
  }
}
