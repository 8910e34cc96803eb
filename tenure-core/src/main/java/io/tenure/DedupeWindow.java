package io.tenure;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * How long a message's dedupe key keeps a second message with that key out of its queue (SPEC
 * §12.6). The window belongs to the stored message: an enqueue compares against the window of the
 * message that holds the key, not its own.
 *
 * <ul>
 *   <li>{@link #untilDeleted()} (the default): while the message is stored, whatever its status; a
 *       done message is deleted at once unless the queue keeps done messages.
 *   <li>{@link #whileActive()}: while it is pending (waiting, delayed or waiting for a retry) or in
 *       flight; once it is done, dead or cancelled the next enqueue with the key is a new message.
 *   <li>{@link #afterFinish(Duration)}: while active and for that long after it finished (done,
 *       dead or cancelled), on the database clock; such a message is kept, done, at least that
 *       long, whatever the queue's retention.
 * </ul>
 *
 * @param afterFinish null for {@link #untilDeleted()}; else how long after its finish the key stays
 *     taken, zero for {@link #whileActive()}
 */
public record DedupeWindow(@Nullable Duration afterFinish) {
  private static final DedupeWindow UNTIL_DELETED = new DedupeWindow(null);
  private static final DedupeWindow WHILE_ACTIVE = new DedupeWindow(Duration.ZERO);

  /**
   * @throws IllegalArgumentException if {@code afterFinish} is negative or longer than {@link
   *     Limits#MAX_RETENTION}
   */
  public DedupeWindow {
    if (afterFinish != null) {
      Limits.checkNotNegative("dedupe window", afterFinish, Limits.MAX_RETENTION);
    }
  }

  /** The key is taken for as long as the message is stored. */
  public static DedupeWindow untilDeleted() {
    return UNTIL_DELETED;
  }

  /** The key is taken while the message is pending or in flight. */
  public static DedupeWindow whileActive() {
    return WHILE_ACTIVE;
  }

  /**
   * The key is taken while the message is active and for {@code period} after it finished.
   *
   * @throws IllegalArgumentException if the period is null, negative or longer than {@link
   *     Limits#MAX_RETENTION}
   */
  public static DedupeWindow afterFinish(Duration period) {
    if (period == null) {
      throw new IllegalArgumentException("dedupe window must not be null");
    }
    return period.isZero() ? WHILE_ACTIVE : new DedupeWindow(period);
  }

  /**
   * @return true if a finished message must be kept for this window: the period after its finish is
   *     longer than zero
   */
  public boolean keepsFinished() {
    return afterFinish != null && !afterFinish.isZero();
  }

  @Override
  public String toString() {
    if (afterFinish == null) {
      return "until deleted";
    }
    return afterFinish.isZero() ? "while active" : "for " + afterFinish + " after finish";
  }
}
