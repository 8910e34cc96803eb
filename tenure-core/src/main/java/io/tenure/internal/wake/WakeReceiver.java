package io.tenure.internal.wake;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads wake-ups from a bound socket on its own daemon thread and passes each valid one on; what is
 * not a well-formed wake-up is counted and dropped. It trusts nothing in a datagram: the only
 * effect of one, forged or not, is an early claim on a queue this node consumes anyway, or an early
 * agent sweep (which its pacer may still hold back).
 */
final class WakeReceiver {
  private static final Logger LOG = LoggerFactory.getLogger(WakeReceiver.class);

  private final DatagramSocket socket;
  private volatile Predicate<String> onWake = queue -> false;
  private volatile Runnable onAgentsPlaced = () -> {};
  private final AtomicLong received = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong woken = new AtomicLong();

  WakeReceiver(DatagramSocket socket) {
    this.socket = socket;
  }

  /**
   * @param onWake wakes the local consumer of the queue named; false if this node has none
   */
  void start(String nodeName, Predicate<String> onWake) {
    this.onWake = onWake;
    Thread.ofPlatform().daemon().name("tenure-wake-" + nodeName).start(this::loop);
  }

  /**
   * @param onAgentsPlaced brings the node's agent sweep forward; must return quickly
   */
  void onAgentsPlaced(Runnable onAgentsPlaced) {
    this.onAgentsPlaced = onAgentsPlaced;
  }

  long received() {
    return received.get();
  }

  long dropped() {
    return dropped.get();
  }

  long woken() {
    return woken.get();
  }

  private void loop() {
    // One byte more than the largest valid datagram: a longer one shows as too long, not cut.
    byte[] buffer = new byte[WakeDatagram.MAX_SIZE + 1];
    DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
    while (!socket.isClosed()) {
      try {
        packet.setLength(buffer.length);
        socket.receive(packet);
      } catch (IOException e) {
        if (!socket.isClosed()) {
          LOG.debug("wake-up receive failed: {}", e.toString());
        }
        continue;
      }
      handle(WakeDatagram.decode(packet.getData(), packet.getOffset(), packet.getLength()));
    }
  }

  private void handle(Optional<Wake> wake) {
    if (wake.isEmpty()) {
      dropped.incrementAndGet();
      return;
    }
    received.incrementAndGet();
    try {
      switch (wake.get()) {
        case Wake.OfQueue queue -> {
          if (onWake.test(queue.name())) {
            woken.incrementAndGet();
          }
        }
        case Wake.AgentsPlaced placed -> onAgentsPlaced.run();
      }
    } catch (RuntimeException e) {
      LOG.warn("acting on the wake-up {} failed: {}", wake.get(), e.toString());
    }
  }
}
