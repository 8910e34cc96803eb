package io.tenure.internal.wake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The wake-up datagram: a queue's name, or that agents were placed, and nothing else; whatever is
 * not exactly one of them is dropped.
 */
class WakeDatagramTest {
  @Test
  void a_wake_up_carries_the_queue_name_and_reads_back() {
    byte[] data = WakeDatagram.encode("emails.v2");

    assertThat(WakeDatagram.decode(data, 0, data.length)).contains(new Wake.OfQueue("emails.v2"));
    assertThat(data).hasSize(6 + "emails.v2".length());
  }

  @Test
  void the_longest_queue_name_fits() {
    String name = "q".repeat(128);
    byte[] data = WakeDatagram.encode(name);

    assertThat(data).hasSize(WakeDatagram.MAX_SIZE);
    assertThat(WakeDatagram.decode(data, 0, data.length)).contains(new Wake.OfQueue(name));
  }

  @Test
  void only_queue_names_are_encoded() {
    assertThatThrownBy(() -> WakeDatagram.encode("Not A Name"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void empty_short_or_foreign_datagrams_are_dropped() {
    assertThat(WakeDatagram.decode(new byte[0], 0, 0)).isEmpty();
    assertThat(WakeDatagram.decode("TNWK".getBytes(StandardCharsets.US_ASCII), 0, 4)).isEmpty();
    byte[] http = "GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    assertThat(WakeDatagram.decode(http, 0, http.length)).isEmpty();
  }

  @Test
  void another_version_or_magic_is_dropped() {
    byte[] data = WakeDatagram.encode("jobs");
    byte[] version = data.clone();
    version[4] = 2;
    byte[] magic = data.clone();
    magic[0] = 'X';

    assertThat(WakeDatagram.decode(version, 0, version.length)).isEmpty();
    assertThat(WakeDatagram.decode(magic, 0, magic.length)).isEmpty();
  }

  @Test
  void a_length_that_disagrees_with_the_datagram_is_dropped() {
    byte[] data = WakeDatagram.encode("jobs");
    byte[] longer = Arrays.copyOf(data, data.length + 1);
    byte[] lying = data.clone();
    lying[5] = 3;

    assertThat(WakeDatagram.decode(longer, 0, longer.length)).isEmpty();
    assertThat(WakeDatagram.decode(data, 0, data.length - 1)).isEmpty();
    assertThat(WakeDatagram.decode(lying, 0, lying.length)).isEmpty();
    assertThat(WakeDatagram.decode(data, 2, data.length)).as("past the end").isEmpty();
    assertThat(WakeDatagram.decode(data, -1, data.length)).isEmpty();
  }

  @Test
  void a_name_that_is_no_queue_name_is_dropped() {
    byte[] data = WakeDatagram.encode("jobs");
    data[6] = 'J'; // upper case is not in a queue name
    byte[] high = WakeDatagram.encode("jobs");
    high[7] = (byte) 0xC3;

    assertThat(WakeDatagram.decode(data, 0, data.length)).isEmpty();
    assertThat(WakeDatagram.decode(high, 0, high.length)).isEmpty();
  }

  @Test
  void agents_placed_is_a_version_of_its_own_with_a_kind_byte_and_reads_back() {
    byte[] data = WakeDatagram.encode(Wake.AGENTS_PLACED);

    assertThat(data).containsExactly('T', 'N', 'W', 'K', 2, 'A');
    assertThat(WakeDatagram.decode(data, 0, data.length)).contains(Wake.AGENTS_PLACED);
  }

  @Test
  void agents_placed_with_another_kind_or_anything_after_it_is_dropped() {
    byte[] data = WakeDatagram.encode(Wake.AGENTS_PLACED);
    byte[] kind = data.clone();
    kind[5] = 'B';
    byte[] longer = Arrays.copyOf(data, data.length + 1);
    byte[] named = "TNWK\u0002\u0004jobs".getBytes(StandardCharsets.ISO_8859_1);

    assertThat(WakeDatagram.decode(kind, 0, kind.length)).isEmpty();
    assertThat(WakeDatagram.decode(longer, 0, longer.length)).isEmpty();
    assertThat(WakeDatagram.decode(data, 0, data.length - 1)).isEmpty();
    assertThat(WakeDatagram.decode(named, 0, named.length)).isEmpty();
  }

  @Test
  void a_receiver_that_knows_only_queue_wake_ups_drops_agents_placed() {
    // What a version-1 receiver checks: the version byte, then a length byte equal to the rest.
    byte[] data = WakeDatagram.encode(Wake.AGENTS_PLACED);

    assertThat(data[4]).isNotEqualTo(WakeDatagram.VERSION);
    assertThat(data.length).as("no queue name fits in it").isEqualTo(6);
  }

  @Property
  void no_queue_name_reads_as_agents_placed(@ForAll("queueNames") String name) {
    byte[] data = WakeDatagram.encode(name);

    assertThat(WakeDatagram.decode(data, 0, data.length)).contains(new Wake.OfQueue(name));
  }

  @net.jqwik.api.Provide
  net.jqwik.api.Arbitrary<String> queueNames() {
    return net.jqwik.api.Arbitraries.strings()
        .withCharRange('a', 'z')
        .withChars('0', '1', '9', '-', '_', '.')
        .ofMinLength(1)
        .ofMaxLength(128)
        .filter(n -> io.tenure.Queue.NAME.matcher(n).matches());
  }

  @Property
  void no_bytes_make_decode_throw_and_what_it_accepts_encodes_back(@ForAll byte[] bytes) {
    WakeDatagram.decode(bytes, 0, bytes.length)
        .ifPresent(wake -> assertThat(WakeDatagram.encode(wake)).isEqualTo(bytes));
  }
}
