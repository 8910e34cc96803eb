package io.tenure.spi;

import java.util.regex.Pattern;

/**
 * The prefix of every table a store creates, so two clusters can share one database. Two stores
 * with different prefixes never see each other's rows.
 *
 * @param value {@code [a-z][a-z0-9_]{0,29}}, e.g. {@code tenure_} (the default)
 */
public record TablePrefix(String value) {
  // Declared before DEFAULT: the constructor needs it during class initialization.
  private static final Pattern FORM = Pattern.compile("[a-z][a-z0-9_]{0,29}");

  /** The prefix used when none is configured. */
  public static final TablePrefix DEFAULT = new TablePrefix("tenure_");

  /**
   * @throws IllegalArgumentException if the value is null or not of the form {@code
   *     [a-z][a-z0-9_]{0,29}}; the message names the value
   */
  public TablePrefix {
    if (value == null) {
      throw new IllegalArgumentException("table prefix must not be null");
    }
    if (!FORM.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "table prefix must match [a-z][a-z0-9_]{0,29} (lower-case letter first, at most 30"
              + " characters), got '"
              + value
              + "'");
    }
  }

  /**
   * @return a validated prefix
   * @throws IllegalArgumentException as the constructor
   */
  public static TablePrefix of(String value) {
    return new TablePrefix(value);
  }

  /**
   * @param table the unprefixed table name, e.g. {@code markers}
   * @return the prefixed name, e.g. {@code tenure_markers}
   */
  public String table(String table) {
    return value + table;
  }

  @Override
  public String toString() {
    return value;
  }
}
