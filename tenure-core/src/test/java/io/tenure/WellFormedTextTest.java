package io.tenure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.inmemory.InMemoryStore;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.NewMessage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * Text Tenure stores as an id, key, name or header must be well-formed UTF-16: a lone surrogate has
 * no UTF-8 form, every database silently rewrites it, and two distinct keys then become one (a
 * dedupe key {@code order\uD800} and {@code order\uDBFF} returned one message id; tenants {@code
 * t\uD800x} and {@code t?x} were one tenant). Every entry point refuses it, naming the argument and
 * the position.
 */
class WellFormedTextTest {
  private static final InMemoryStore STORE = InMemoryStore.create();

  /** One place text enters: its name in messages and how to hand it a value. */
  record Entry(String name, Consumer<String> give) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<Entry> entries() {
    OutgoingMessage message = OutgoingMessage.text("x");
    return List.of(
        new Entry("dedupe key", v -> message.dedupeKey(v)),
        new Entry("ordering key", v -> message.key(v)),
        new Entry("header name", v -> message.header(v, "v")),
        new Entry("header 'h' value", v -> message.header("h", v)),
        new Entry("content type", v -> message.contentType(v)),
        new Entry("text", v -> OutgoingMessage.text(v)),
        new Entry("tenant", v -> MarkerKey.of(v, "r")),
        new Entry("resource", v -> MarkerKey.of("t", v)),
        new Entry("tenant", v -> MarkerKey.requireValidTenant(v)),
        new Entry("reason", v -> MarkerChange.of("t", "r", "ARCHIVED", v)),
        new Entry("queue name", v -> Queue.checkName(v)),
        new Entry("agent URI", v -> AgentUri.parse(v)),
        new Entry("agent name", v -> new AgentUri("worker", v)),
        new Entry("node name", v -> TenureNode.builder(STORE).name(v)),
        new Entry("node address", v -> TenureNode.builder(STORE).address(v)),
        new Entry("capability", v -> TenureNode.builder(STORE).capability(v)),
        // The SPI's value types: a store is never handed such text either.
        new Entry("dedupe key", v -> newMessage("q", null, Map.of(), v)),
        new Entry("ordering key", v -> newMessage("q", v, Map.of(), null)),
        new Entry("queue name", v -> newMessage(v, null, Map.of(), null)),
        new Entry("header name", v -> newMessage("q", null, Map.of(v, "v"), null)),
        new Entry("header 'h' value", v -> newMessage("q", null, Map.of("h", v), null)),
        new Entry("ordering key", v -> new MessageQuery("q", null, v, null, null, 0, 1)),
        new Entry("error text", v -> new MessageQuery("q", null, null, v, null, 0, 1)));
  }

  private static NewMessage newMessage(
      String queue, String key, Map<String, String> headers, String dedupeKey) {
    return new NewMessage(
        queue, key, new byte[0], "text/plain", headers, 0, 1, Duration.ZERO, dedupeKey);
  }

  @Test
  void the_reported_dedupe_keys_are_refused_naming_the_surrogate_and_its_index() {
    assertThatThrownBy(() -> OutgoingMessage.text("a").dedupeKey("order\uD800"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "dedupe key has an unpaired surrogate U+D800 at index 5 (not well-formed UTF-16),"
                + " got 'order\\ud800'");
    assertThatThrownBy(() -> OutgoingMessage.text("b").dedupeKey("order\uDBFF"))
        .hasMessageStartingWith("dedupe key has an unpaired surrogate U+DBFF at index 5");
    assertThatThrownBy(() -> MarkerKey.of("t\uD800x", "r"))
        .hasMessageStartingWith("tenant has an unpaired surrogate U+D800 at index 1");
  }

  @Test
  void every_entry_point_refuses_each_kind_of_lone_surrogate_at_its_index() {
    // A high one followed by a letter, a low one alone, a high one last, a pair in the wrong order.
    Map<String, Integer> bad =
        Map.of("ab\uD83Dcd", 2, "ab\uDE00cd", 2, "abcd\uD83D", 4, "ab\uDE00\uD83Dcd", 2);
    for (Entry entry : entries()) {
      bad.forEach(
          (value, index) ->
              assertThatThrownBy(() -> entry.give().accept(value))
                  .as(entry.name() + " given " + Limits.escaped(value))
                  .isInstanceOf(IllegalArgumentException.class)
                  .hasMessageStartingWith(
                      entry.name()
                          + " has an unpaired surrogate U+"
                          + String.format("%04X", (int) value.charAt(index))
                          + " at index "
                          + index));
    }
  }

  @Test
  void a_real_surrogate_pair_is_accepted_wherever_any_character_is() {
    String emoji = "order-\uD83D\uDE00"; // U+1F600
    OutgoingMessage message =
        OutgoingMessage.text("caf\u00E9 " + emoji).dedupeKey(emoji).key(emoji).header(emoji, emoji);
    assertThat(message.dedupeKey()).isEqualTo(emoji);
    assertThat(MarkerKey.of(emoji, emoji).tenant()).isEqualTo(emoji);
    assertThatCode(() -> MarkerChange.of("t", "r", "ARCHIVED", emoji)).doesNotThrowAnyException();
    assertThatCode(() -> newMessage("q", emoji, Map.of(emoji, emoji), emoji))
        .doesNotThrowAnyException();
  }

  @Provide
  Arbitrary<String> wellFormed() {
    // Letters, BMP symbols and supplementary characters (emoji, CJK extension B), as code points.
    Arbitrary<Integer> codePoint =
        Arbitraries.oneOf(
            Arbitraries.integers().between('a', 'z'),
            Arbitraries.integers().between(0x00A1, 0xD7FF),
            Arbitraries.integers().between(0xE000, 0xFFFD),
            Arbitraries.integers().between(0x10000, 0x10FFFF));
    return codePoint
        .list()
        .ofMinSize(1)
        .ofMaxSize(20)
        .map(
            points -> {
              StringBuilder text = new StringBuilder();
              points.forEach(text::appendCodePoint);
              return text.toString();
            });
  }

  @Provide
  Arbitrary<String> withLoneSurrogate() {
    Arbitrary<Character> lone = Arbitraries.chars().range('\uD800', '\uDFFF');
    return Combinators.combine(wellFormed(), lone, wellFormed())
        .as(
            (before, surrogate, after) -> {
              // Keep the lone one lone: no high one right after a high one's partner position, no
              // low one
              // after a high one.
              String tail = Character.isHighSurrogate(surrogate) ? "x" + after : after;
              return before + surrogate + tail;
            });
  }

  @Property(tries = 500)
  void any_well_formed_text_is_accepted(@ForAll("wellFormed") String text) {
    assertThat(Limits.checkWellFormed("text", text)).isEqualTo(text);
  }

  @Property(tries = 500)
  void any_text_with_a_lone_surrogate_is_refused_at_the_first_one(
      @ForAll("withLoneSurrogate") String text) {
    int expected = firstLone(text);
    assertThatThrownBy(() -> Limits.checkWellFormed("text", text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "text has an unpaired surrogate U+"
                + String.format("%04X", (int) text.charAt(expected))
                + " at index "
                + expected);
  }

  /**
   * The slow and obvious definition, by code points: an unpaired surrogate is a code point in
   * D800-DFFF.
   */
  private static int firstLone(String text) {
    int index = 0;
    for (int codePoint : text.codePoints().toArray()) {
      if (codePoint >= 0xD800 && codePoint <= 0xDFFF) {
        return index;
      }
      index += Character.charCount(codePoint);
    }
    throw new AssertionError("no lone surrogate in " + Limits.escaped(text));
  }
}
