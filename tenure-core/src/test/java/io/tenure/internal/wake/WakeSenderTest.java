package io.tenure.internal.wake;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.AgentUri;
import io.tenure.NodeStatus;
import io.tenure.inmemory.InMemoryStore;
import io.tenure.internal.ManualTime;
import io.tenure.spi.AssignmentWrite;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.MembershipStore;
import io.tenure.spi.NewNode;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The sender on a manual ticker: a commit folded into a window is still sent when the window ends,
 * though the sender's thread was idle when it came. A socket of the test's own stands for a node.
 */
class WakeSenderTest {
  private final ManualTime time = new ManualTime();
  private final InMemoryStore store = InMemoryStore.create();
  private final DatagramSocket node = socket();
  private final WakeSender sender = new WakeSender(store.membership(), time.ticker());

  @AfterEach
  void close() {
    sender.close();
    node.close();
  }

  @Test
  void a_burst_sends_at_once_and_its_folded_rest_when_the_window_ends() throws Exception {
    advertise("wake:udp:127.0.0.1:" + node.getLocalPort());

    sender.committed("jobs");
    assertThat(receive()).contains(new Wake.OfQueue("jobs"));
    sender.committed("jobs"); // inside the window: folded, the thread idle
    time.advance(WakeSender.WINDOW);

    assertThat(receive()).as("the trailing wake-up").contains(new Wake.OfQueue("jobs"));
    // Counted once the send returned, which may be after the datagram arrived.
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (sender.sent() < 2 && System.nanoTime() < end) {
      Thread.onSpinWait();
    }
    assertThat(sender.sent()).isEqualTo(2);
  }

  @Test
  void agents_placed_is_sent_as_its_own_kind_paced_apart_from_the_queues() throws Exception {
    advertise("wake:udp:127.0.0.1:" + node.getLocalPort());

    sender.committed("jobs");
    assertThat(receive()).contains(new Wake.OfQueue("jobs"));
    sender.agentsPlaced(); // inside the queue's window, but not folded into it

    assertThat(receive()).contains(Wake.AGENTS_PLACED);
  }

  @Test
  void only_a_placement_that_wrote_announces_itself() throws Exception {
    advertise("wake:udp:127.0.0.1:" + node.getLocalPort());
    WakingAgentStore agents = new WakingAgentStore(store.agents(), sender);
    AgentUri uri = AgentUri.parse("projection://orders");
    LeaderFence stale = new LeaderFence("n1", 99);

    assertThat(agents.placeAll(Map.of(uri, "n1"), Set.of(), stale))
        .isEqualTo(AssignmentWrite.FENCED);
    assertThat(agents.placeAll(Map.of(), Set.of(), stale)).isEqualTo(AssignmentWrite.FENCED);
    sender.committed("marker");
    LeaderFence fence = lease();
    assertThat(agents.placeAll(Map.of(uri, "n1"), Set.of(), fence))
        .isEqualTo(AssignmentWrite.APPLIED);

    assertThat(receive()).as("nothing before the marker").contains(new Wake.OfQueue("marker"));
    assertThat(receive()).contains(Wake.AGENTS_PLACED);
  }

  private LeaderFence lease() {
    var lease = store.leases().acquire("n1", Duration.ofSeconds(30)).orElseThrow();
    return new LeaderFence("n1", lease.epoch());
  }

  private void advertise(String capability) {
    MembershipStore members = store.membership();
    members.join(
        new NewNode("n1", "n1", "", Set.of(capability), Duration.ofSeconds(3)),
        members.read().version());
    members.changeStatus("n1", NodeStatus.ACTIVE, members.read().version());
  }

  private Optional<Wake> receive() throws java.io.IOException {
    byte[] buffer = new byte[WakeDatagram.MAX_SIZE];
    DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
    node.setSoTimeout(10_000);
    node.receive(packet);
    return WakeDatagram.decode(packet.getData(), packet.getOffset(), packet.getLength());
  }

  private static DatagramSocket socket() {
    try {
      return new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    } catch (java.net.SocketException e) {
      throw new IllegalStateException(e);
    }
  }
}
