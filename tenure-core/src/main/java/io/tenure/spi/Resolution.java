package io.tenure.spi;

import io.tenure.Limits;
import java.time.Duration;

/** How a claimed message ends its claim (SPEC §6.3). Every outcome is conditional on the claim. */
public record Resolution(MessageClaim claim, Outcome outcome) {
  /** The outcome of one claim. */
  public sealed interface Outcome {
    /**
     * Whether an exclusive queue's guard is read for it: a finish (done, dead letter), and a retry
     * so that a demoted owner learns it.
     */
    default boolean terminal() {
      return false;
    }
  }

  /** Handled: deleted, or kept as {@code DONE} (with the time it was done) if {@code keep}. */
  public record Done(boolean keep) implements Outcome {
    @Override
    public boolean terminal() {
      return true;
    }
  }

  /**
   * A failure to try again: back to {@code PENDING}, available {@code in} after now, {@code
   * last_error := error}, the attempt kept. The consumer decided it (attempts remain); the store
   * applies it as told, whatever the attempts, and never turns it into a dead letter.
   */
  public record Retry(Duration in, String error) implements Outcome {
    /**
     * @throws IllegalArgumentException if {@code in} is negative or longer than {@link
     *     Limits#MAX_DURATION}
     */
    public Retry {
      Limits.checkNotNegative("retry delay", in, Limits.MAX_DURATION);
    }

    /**
     * True: a guarded batch with a retry reads the guard, so a demoted owner learns it; being a
     * re-pend, the retry lands even when the guard refuses (SPEC §6.9).
     */
    @Override
    public boolean terminal() {
      return true;
    }
  }

  /**
   * A dead letter: {@code DEAD} now, {@code last_error := error}. The consumer decided it (not
   * retryable, or the last attempt failed).
   */
  public record DeadLetter(String error) implements Outcome {
    @Override
    public boolean terminal() {
      return true;
    }
  }

  /**
   * Back to {@code PENDING} as it was: the attempt is given back, {@code available_at} unchanged.
   */
  public record Release() implements Outcome {}

  /** Snoozed: {@code PENDING}, available {@code in} after now; the attempt is given back. */
  public record Reschedule(Duration in) implements Outcome {
    /**
     * @throws IllegalArgumentException if {@code in} is negative or longer than {@link
     *     Limits#MAX_DURATION}
     */
    public Reschedule {
      Limits.checkNotNegative("reschedule delay", in, Limits.MAX_DURATION);
    }
  }
}
