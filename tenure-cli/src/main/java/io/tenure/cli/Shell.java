package io.tenure.cli;

import java.util.regex.Pattern;

/** Words of commands the launcher prints for the user to paste into a shell. */
final class Shell {
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:=@,+%-]+");

  private Shell() {}

  /**
   * @return {@code word} as is if a shell reads it unchanged, else in single quotes
   */
  static String quote(String word) {
    return PLAIN.matcher(word).matches() ? word : "'" + word.replace("'", "'\\''") + "'";
  }
}
