package io.tenure.internal.wake;

import io.tenure.Queue;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * The wire form of a wake-up: {@code TNWK}, a version byte, a length byte and a queue name in
 * ASCII. It carries no payload and asks for nothing but a claim the node would make at its next
 * poll anyway, so it needs no trust: a forged or replayed one costs one claim query. Anything else
 * is malformed and dropped.
 */
final class WakeDatagram {
  static final byte VERSION = 1;
  private static final byte[] MAGIC = {'T', 'N', 'W', 'K'};
  private static final int HEADER = MAGIC.length + 2;

  /** The largest valid datagram: a header and the longest queue name. */
  static final int MAX_SIZE = HEADER + 128;

  private WakeDatagram() {}

  /**
   * @throws IllegalArgumentException if {@code queue} is not a queue name ({@link Queue#NAME})
   */
  static byte[] encode(String queue) {
    Queue.checkName(queue);
    byte[] name = queue.getBytes(StandardCharsets.US_ASCII);
    byte[] data = Arrays.copyOf(MAGIC, HEADER + name.length);
    data[MAGIC.length] = VERSION;
    data[MAGIC.length + 1] = (byte) name.length;
    System.arraycopy(name, 0, data, HEADER, name.length);
    return data;
  }

  /**
   * @return the queue named, or empty if the bytes are not exactly one well-formed wake-up
   */
  static Optional<String> decode(byte[] data, int offset, int length) {
    if (length < HEADER + 1 || length > MAX_SIZE || offset < 0 || offset + length > data.length) {
      return Optional.empty();
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (data[offset + i] != MAGIC[i]) {
        return Optional.empty();
      }
    }
    if (data[offset + MAGIC.length] != VERSION
        || (data[offset + MAGIC.length + 1] & 0xff) != length - HEADER) {
      return Optional.empty();
    }
    String name = new String(data, offset + HEADER, length - HEADER, StandardCharsets.US_ASCII);
    return Queue.NAME.matcher(name).matches() ? Optional.of(name) : Optional.empty();
  }
}
