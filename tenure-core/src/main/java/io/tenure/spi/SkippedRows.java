package io.tenure.spi;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Rows that a store's reads left out because this version cannot read them: an assignment row
 * written by hand with an {@code agent_uri} that is not {@code scheme://name}, or an event of a
 * kind a newer node recorded. Such a row never fails a read; it is reported here and in the log
 * (and, for assignments, in the cluster history).
 *
 * @param count how many times reads skipped a row since the store was opened: a row left out by ten
 *     reads counts ten
 * @param reasons the stored key ({@code agent_uri}, or an event's {@code kind}) of each distinct
 *     row skipped so far, the first {@link #MAX_ROWS} in key order, with why it cannot be read
 */
public record SkippedRows(long count, SortedMap<String, String> reasons) {
  /** The most distinct rows a report names. */
  public static final int MAX_ROWS = 100;

  /** Nothing skipped. */
  public static final SkippedRows NONE = new SkippedRows(0, new TreeMap<>());

  /**
   * @throws IllegalArgumentException if the count is negative or a map is missing
   */
  public SkippedRows {
    if (count < 0) {
      throw new IllegalArgumentException("a skipped-row count must not be negative, got " + count);
    }
    if (reasons == null) {
      throw new IllegalArgumentException("the skipped rows' reasons must not be null");
    }
    reasons = Collections.unmodifiableSortedMap(new TreeMap<>(reasons));
  }
}
