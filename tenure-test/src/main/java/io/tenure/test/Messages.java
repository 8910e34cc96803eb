package io.tenure.test;

import io.tenure.QueueMessage;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

/**
 * Predicates on queue messages for {@link TenureTestKit}'s assertions, each with a description the
 * failure messages print (a lambda prints as "the predicate given"). They combine with {@code and},
 * {@code or} and {@code negate}, keeping their descriptions.
 *
 * <pre>{@code
 * kit.assertEnqueued(emails, Messages.text("welcome user 7").and(Messages.key("user-7")));
 * }</pre>
 */
public final class Messages {
  private Messages() {}

  /**
   * @return any message
   */
  public static Predicate<QueueMessage> any() {
    return new Described("any message", m -> true);
  }

  /**
   * @param text the whole payload, as UTF-8 text
   * @throws IllegalArgumentException if null
   */
  public static Predicate<QueueMessage> text(String text) {
    require("text", text);
    return new Described("text '" + text + "'", m -> payloadText(m).equals(text));
  }

  /**
   * @param part a part of the payload, as UTF-8 text
   * @throws IllegalArgumentException if null
   */
  public static Predicate<QueueMessage> textContaining(String part) {
    require("text part", part);
    return new Described("text containing '" + part + "'", m -> payloadText(m).contains(part));
  }

  /**
   * @param key the ordering key
   * @throws IllegalArgumentException if null
   */
  public static Predicate<QueueMessage> key(String key) {
    require("key", key);
    return new Described("key '" + key + "'", m -> key.equals(m.key()));
  }

  /**
   * @param name a header's name
   * @param value its value
   * @throws IllegalArgumentException if either is null
   */
  public static Predicate<QueueMessage> header(String name, String value) {
    require("header name", name);
    require("header value", value);
    return new Described(
        "header " + name + ": '" + value + "'", m -> value.equals(m.headers().get(name)));
  }

  /**
   * @param description what the predicate matches, as failure messages print it
   * @param predicate the test
   * @return the predicate with that description
   * @throws IllegalArgumentException if either is null
   */
  public static Predicate<QueueMessage> matching(
      String description, Predicate<? super QueueMessage> predicate) {
    require("description", description);
    require("predicate", predicate);
    return new Described(description, predicate);
  }

  /**
   * @return how a failure message names {@code predicate}: its description, its own {@code
   *     toString} if it has one, else "the predicate given"
   */
  static String describe(Predicate<?> predicate) {
    if (predicate instanceof Described described) {
      return described.description();
    }
    Class<?> type = predicate.getClass();
    String text = predicate.toString();
    if (type.isHidden() || type.isSynthetic() || text.startsWith(type.getName() + "@")) {
      return "the predicate given";
    }
    return text;
  }

  /** The payload as UTF-8 text (bytes that are no UTF-8 become U+FFFD). */
  static String payloadText(QueueMessage message) {
    return new String(message.payload(), StandardCharsets.UTF_8);
  }

  private static void require(String what, Object value) {
    if (value == null) {
      throw new IllegalArgumentException(what + " must not be null");
    }
  }

  /** A predicate and what it matches. */
  private record Described(String description, Predicate<? super QueueMessage> test)
      implements Predicate<QueueMessage> {
    @Override
    public boolean test(QueueMessage message) {
      return test.test(message);
    }

    @Override
    public Predicate<QueueMessage> and(Predicate<? super QueueMessage> other) {
      require("predicate", other);
      return new Described(description + " and " + describe(other), m -> test(m) && other.test(m));
    }

    @Override
    public Predicate<QueueMessage> or(Predicate<? super QueueMessage> other) {
      require("predicate", other);
      return new Described(
          "(" + description + " or " + describe(other) + ")", m -> test(m) || other.test(m));
    }

    @Override
    public Predicate<QueueMessage> negate() {
      return new Described("not " + description, m -> !test(m));
    }

    @Override
    public String toString() {
      return description;
    }
  }
}
