package io.tenure;

import org.jspecify.annotations.Nullable;

/**
 * What a handler last reported of its work on a message (SPEC §12.5), kept with the message across
 * retries until it is reported again.
 *
 * @param fraction how much is done, 0 to 1
 * @param note a short text for operators, at most {@link #MAX_NOTE_LENGTH} characters, or null
 */
public record MessageProgress(double fraction, @Nullable String note) {
  /** The longest note. */
  public static final int MAX_NOTE_LENGTH = 1000;

  /**
   * @throws IllegalArgumentException if the fraction is not between 0 and 1, or the note is longer
   *     than {@link #MAX_NOTE_LENGTH} or not well-formed UTF-16
   */
  public MessageProgress {
    if (!(fraction >= 0.0 && fraction <= 1.0)) {
      throw new IllegalArgumentException("progress must be between 0 and 1, got " + fraction);
    }
    if (note != null) {
      Limits.checkWellFormed("progress note", note);
      if (note.length() > MAX_NOTE_LENGTH) {
        throw new IllegalArgumentException(
            "progress note must be at most "
                + MAX_NOTE_LENGTH
                + " characters, got "
                + note.length());
      }
    }
  }
}
