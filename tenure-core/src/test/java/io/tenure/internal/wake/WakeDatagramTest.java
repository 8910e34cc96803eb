package io.tenure.internal.wake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The wake-up datagram: a queue's name and nothing else; whatever is not exactly that is dropped.
 */
class WakeDatagramTest {
  @Test
  void a_wake_up_carries_the_queue_name_and_reads_back() {
    byte[] data = WakeDatagram.encode("emails.v2");

    assertThat(WakeDatagram.decode(data, 0, data.length)).contains("emails.v2");
    assertThat(data).hasSize(6 + "emails.v2".length());
  }

  @Test
  void the_longest_queue_name_fits() {
    String name = "q".repeat(128);
    byte[] data = WakeDatagram.encode(name);

    assertThat(data).hasSize(WakeDatagram.MAX_SIZE);
    assertThat(WakeDatagram.decode(data, 0, data.length)).contains(name);
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

  @Property
  void no_bytes_make_decode_throw_and_what_it_accepts_encodes_back(@ForAll byte[] bytes) {
    WakeDatagram.decode(bytes, 0, bytes.length)
        .ifPresent(name -> assertThat(WakeDatagram.encode(name)).isEqualTo(bytes));
  }
}
