package io.tenure.internal.wake;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * The wire form of a wake-up, {@code TNWK} and a version byte, then by version:
 *
 * <ul>
 *   <li>1, a queue's wake-up: a length byte and the queue's name in ASCII;
 *   <li>2, a kind byte and nothing else; kind {@code 'A'}: the leader placed agents.
 * </ul>
 *
 * <p>Version 2 is a version of its own, not a queue name of a new shape, so a receiver from before
 * it drops it as another version, and no queue name can ever read as it. Neither form carries a
 * payload or asks for more than the node would do at its next poll or sweep anyway, so they need no
 * trust: a forged or replayed one costs one claim query or one sweep. Anything else is malformed
 * and dropped.
 */
final class WakeDatagram {
  static final byte VERSION = 1;

  /** The version of the datagrams that carry a kind byte and no name. */
  static final byte VERSION_KIND = 2;

  /** The kind byte of {@link Wake.AgentsPlaced}. */
  static final byte KIND_AGENTS = 'A';

  private static final byte[] MAGIC = {'T', 'N', 'W', 'K'};
  private static final int HEADER = MAGIC.length + 2;

  /** The largest valid datagram: a header and the longest queue name. */
  static final int MAX_SIZE = HEADER + 128;

  private WakeDatagram() {}

  /**
   * @throws IllegalArgumentException if {@code queue} is not a queue name ({@link
   *     io.tenure.Queue#NAME})
   */
  static byte[] encode(String queue) {
    return encode(new Wake.OfQueue(queue));
  }

  static byte[] encode(Wake wake) {
    return switch (wake) {
      case Wake.OfQueue queue -> {
        byte[] name = queue.name().getBytes(StandardCharsets.US_ASCII);
        byte[] data = Arrays.copyOf(MAGIC, HEADER + name.length);
        data[MAGIC.length] = VERSION;
        data[MAGIC.length + 1] = (byte) name.length;
        System.arraycopy(name, 0, data, HEADER, name.length);
        yield data;
      }
      case Wake.AgentsPlaced placed -> {
        byte[] data = Arrays.copyOf(MAGIC, HEADER);
        data[MAGIC.length] = VERSION_KIND;
        data[MAGIC.length + 1] = KIND_AGENTS;
        yield data;
      }
    };
  }

  /**
   * @return the wake-up, or empty if the bytes are not exactly one well-formed wake-up
   */
  static Optional<Wake> decode(byte[] data, int offset, int length) {
    if (length < HEADER || length > MAX_SIZE || offset < 0 || offset + length > data.length) {
      return Optional.empty();
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (data[offset + i] != MAGIC[i]) {
        return Optional.empty();
      }
    }
    return switch (data[offset + MAGIC.length]) {
      case VERSION -> queue(data, offset, length);
      case VERSION_KIND ->
          length == HEADER && data[offset + MAGIC.length + 1] == KIND_AGENTS
              ? Optional.of(Wake.AGENTS_PLACED)
              : Optional.empty();
      default -> Optional.empty();
    };
  }

  private static Optional<Wake> queue(byte[] data, int offset, int length) {
    if (length < HEADER + 1 || (data[offset + MAGIC.length + 1] & 0xff) != length - HEADER) {
      return Optional.empty();
    }
    String name = new String(data, offset + HEADER, length - HEADER, StandardCharsets.US_ASCII);
    return io.tenure.Queue.NAME.matcher(name).matches()
        ? Optional.of(new Wake.OfQueue(name))
        : Optional.empty();
  }
}
