package io.tenure.internal.wake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.QueueSettings;
import io.tenure.WakeStats;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A node's wake-up socket: what it advertises, what it passes on, what it drops. */
class WakeHostTest {
  private final WakeHost host = WakeHost.bind("127.0.0.1");
  private final BlockingQueue<String> woken = new LinkedBlockingQueue<>();

  @AfterEach
  void close() {
    host.close();
  }

  @Test
  void it_advertises_the_address_senders_read_back() {
    InetSocketAddress address = WakeSender.address(host.capability()).orElseThrow();

    assertThat(host.capability()).startsWith("wake:udp:127.0.0.1:");
    assertThat(address.getPort()).isPositive();
    assertThat(WakeSender.address("wake:udp:127.0.0.1:0")).isEmpty();
    assertThat(WakeSender.address("wake:udp:127.0.0.1:x")).isEmpty();
    assertThat(WakeSender.address("wake:udp::5")).isEmpty();
    assertThat(WakeSender.address("emails")).isEmpty();
  }

  @Test
  void a_disabled_node_binds_nothing_and_adds_no_capability() {
    Set<String> capabilities = new LinkedHashSet<>();
    QueueSettings off =
        new QueueSettings(
            QueueSettings.DEFAULT_RECLAIM_INTERVAL,
            1,
            QueueSettings.DEFAULT_DRAIN_DEADLINE,
            QueueSettings.DEFAULT_POLL_MIN,
            QueueSettings.DEFAULT_POLL_MAX,
            false,
            "127.0.0.1");

    assertThat(WakeHost.forNode(off, capabilities)).isNull();
    assertThat(capabilities).isEmpty();
  }

  @Test
  void an_unknown_host_is_refused_with_its_name() {
    assertThatThrownBy(() -> WakeHost.bind("no-such-host.invalid"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no-such-host.invalid");
  }

  @Test
  void a_valid_wake_up_wakes_the_queue_and_garbage_is_counted_and_dropped() throws Exception {
    host.start("n1", queue -> woken.add(queue) && queue.equals("mine"));
    InetSocketAddress to = WakeSender.address(host.capability()).orElseThrow();
    try (DatagramSocket out = new DatagramSocket()) {
      send(out, to, "garbage".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      send(out, to, new byte[0]);
      send(out, to, WakeDatagram.encode("other"));
      send(out, to, WakeDatagram.encode("mine"));

      assertThat(woken.poll(10, TimeUnit.SECONDS)).isEqualTo("other");
      assertThat(woken.poll(10, TimeUnit.SECONDS)).isEqualTo("mine");
    }
    // The handler ran before the receiver counted what it returned: wait for the counts.
    until(() -> host.stats(() -> 7).dropped() == 2 && host.stats(() -> 7).woken() == 1);
    WakeStats stats = host.stats(() -> 7);
    assertThat(stats).isEqualTo(new WakeStats(true, 7, 2, 2, 1));
  }

  @Test
  void agents_placed_wakes_the_sweep_counts_as_received_and_wakes_no_consumer() throws Exception {
    java.util.concurrent.CountDownLatch swept = new java.util.concurrent.CountDownLatch(1);
    host.onAgentsPlaced(swept::countDown);
    host.start("n1", woken::add);
    InetSocketAddress to = WakeSender.address(host.capability()).orElseThrow();
    try (DatagramSocket out = new DatagramSocket()) {
      send(out, to, WakeDatagram.encode(Wake.AGENTS_PLACED));

      assertThat(swept.await(10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(host.stats(() -> 0)).isEqualTo(new WakeStats(true, 0, 1, 0, 0));
    assertThat(woken).isEmpty();
  }

  @Test
  void a_node_refused_after_its_socket_was_bound_leaves_the_socket_closed() throws Exception {
    java.util.concurrent.atomic.AtomicReference<String> bound =
        new java.util.concurrent.atomic.AtomicReference<>();
    Set<String> capabilities = new LinkedHashSet<>();

    assertThatThrownBy(
            () ->
                WakeHost.buildWith(
                    QueueSettings.DEFAULTS,
                    capabilities,
                    h -> {
                      bound.set(h.capability()); // a closed socket has no port to show
                      throw new IllegalArgumentException("capability refused");
                    }))
        .hasMessage("capability refused");

    InetSocketAddress was = WakeSender.address(bound.get()).orElseThrow();
    // Binding its port again succeeds only if nothing holds it any more.
    try (DatagramSocket again = new DatagramSocket(was)) {
      assertThat(again.getLocalPort()).isEqualTo(was.getPort());
    }
  }

  @Test
  void a_node_built_keeps_its_socket_open() throws Exception {
    WakeHost built = WakeHost.buildWith(QueueSettings.DEFAULTS, new LinkedHashSet<>(), h -> h);
    try {
      InetSocketAddress at = WakeSender.address(built.capability()).orElseThrow();
      assertThatThrownBy(() -> new DatagramSocket(at).close())
          .isInstanceOf(java.net.SocketException.class);
    } finally {
      built.close();
    }
  }

  private static void send(DatagramSocket out, InetSocketAddress to, byte[] data)
      throws java.io.IOException {
    out.send(new DatagramPacket(data, data.length, to));
  }

  private static void until(Supplier<Boolean> condition) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.get() && System.nanoTime() < end) {
      Thread.sleep(5);
    }
  }
}
