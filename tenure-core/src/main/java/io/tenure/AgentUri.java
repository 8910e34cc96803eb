package io.tenure;

import java.util.regex.Pattern;

/**
 * The identity of an agent: {@code scheme://name}, e.g. {@code projection://orders}. The scheme
 * names the agent family that builds and lists it.
 *
 * @param scheme lower-case letters, digits, {@code +.-}, starting with a letter, at most 32
 * @param name 1 to 200 of letters, digits and {@code ._~:/@-}, no whitespace
 */
public record AgentUri(String scheme, String name) {
  /** Longest URI accepted, in characters. */
  public static final int MAX_LENGTH = 255;

  private static final Pattern SCHEME = Pattern.compile("[a-z][a-z0-9+.-]{0,31}");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._~:/@-]{1,200}");

  /**
   * @throws IllegalArgumentException naming the part and its value if malformed
   */
  public AgentUri {
    if (scheme != null) {
      Limits.checkWellFormed("agent scheme", scheme);
    }
    if (name != null) {
      Limits.checkWellFormed("agent name", name);
    }
    if (scheme == null || !SCHEME.matcher(scheme).matches()) {
      throw new IllegalArgumentException(
          "agent scheme must match [a-z][a-z0-9+.-]{0,31}, got '" + scheme + "'");
    }
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "agent name must be 1 to 200 of letters, digits and ._~:/@- (no whitespace), got '"
              + name
              + "'");
    }
  }

  /**
   * @param uri {@code scheme://name}
   * @return the parsed URI
   * @throws IllegalArgumentException naming the value if it is not {@code scheme://name}
   */
  public static AgentUri parse(String uri) {
    Limits.checkWellFormed("agent URI", uri);
    int separator = uri.indexOf("://");
    if (separator < 0) {
      throw new IllegalArgumentException(
          "agent URI must look like scheme://name, got '" + uri + "'");
    }
    return new AgentUri(uri.substring(0, separator), uri.substring(separator + 3));
  }

  @Override
  public String toString() {
    return scheme + "://" + name;
  }
}
