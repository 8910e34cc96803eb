package io.tenure.spi;

import io.tenure.Limits;
import java.time.Duration;

/** How a claimed message ends its claim (SPEC §6.3). Every outcome is conditional on the claim. */
public record Resolution(MessageClaim claim, Outcome outcome) {
  /** The outcome of one claim. */
  public sealed interface Outcome {
    /** Whether it ends the message's work (done or dead); an exclusive queue guards these. */
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
   * Failed: back to {@code PENDING}, available {@code retryIn} after now, if attempts remain
   * ({@code attempts < max_attempts}); otherwise {@code DEAD}. Either way {@code last_error :=
   * error}.
   */
  public record Failed(Duration retryIn, String error) implements Outcome {
    /**
     * @throws IllegalArgumentException if {@code retryIn} is negative or longer than {@link
     *     Limits#MAX_DURATION}
     */
    public Failed {
      Limits.checkNotNegative("retry delay", retryIn, Limits.MAX_DURATION);
    }

    @Override
    public boolean terminal() {
      return true; // it may end as a dead letter
    }
  }

  /** Not retryable: {@code DEAD} now, {@code last_error := error}. */
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
