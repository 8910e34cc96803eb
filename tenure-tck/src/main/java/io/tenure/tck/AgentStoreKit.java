package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import io.tenure.spi.AgentStore;
import io.tenure.spi.AssignmentWrite;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.Store;
import io.tenure.spi.TablePrefix;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;

/**
 * The agent-store kit's shared fixture (SPEC §5.1, §5.3): a fresh store per test, a leader fence
 * and two node ids. The area classes are {@link AgentStoreComplianceTest} (placements, rows and
 * their reads), {@link AgentClaimComplianceTest} (claims, restores and their races) and {@link
 * AgentEpochComplianceTest} (ownership epochs that outlive the row); a provider runs each with a
 * wiring-only subclass.
 */
public abstract class AgentStoreKit extends FixtureSupport {
  static final AgentUri ORDERS = AgentUri.parse("projection://orders");
  static final Duration TTL = Duration.ofMinutes(5);

  TablePrefix prefix;
  Store store;
  AgentStore agents;
  final String leader = UUID.randomUUID().toString();
  final String a = UUID.randomUUID().toString();
  final String b = UUID.randomUUID().toString();
  LeaderFence fence;

  @BeforeEach
  void openStore() {
    prefix = freshPrefix();
    store = fixture.open(prefix);
    agents = store.agents();
    fence = new LeaderFence(leader, store.leases().acquire(leader, TTL).orElseThrow().epoch());
  }

  AgentAssignment row(AgentUri uri) {
    return agents.read(uri).orElseThrow();
  }

  long ownedBy(String node, AgentUri uri) {
    assertThat(agents.place(uri, node, fence)).isEqualTo(AssignmentWrite.APPLIED);
    return agents.claim(uri, node).orElseThrow();
  }

  /** {@code node} owns {@code uri} after three claims (two hand-backs in between): epoch 3. */
  long claimedThreeTimes(String node, AgentUri uri) {
    long epoch = ownedBy(node, uri);
    for (int i = 0; i < 2; i++) {
      assertThat(agents.release(uri, node)).isTrue();
      epoch = agents.claim(uri, node).orElseThrow();
    }
    assertThat(epoch).isEqualTo(3);
    return epoch;
  }
}
