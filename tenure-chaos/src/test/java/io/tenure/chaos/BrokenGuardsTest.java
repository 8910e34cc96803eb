package io.tenure.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import io.tenure.MessageStatus;
import io.tenure.NodeStatus;
import io.tenure.OutgoingMessage;
import io.tenure.QueueMessage;
import io.tenure.Schedule;
import io.tenure.Stores;
import io.tenure.inmemory.InMemoryStore;
import io.tenure.spi.AssignmentWrite;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.LeaderFence;
import io.tenure.spi.LockGrant;
import io.tenure.spi.MembershipStore;
import io.tenure.spi.MembershipWrite;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.MessageQuery;
import io.tenure.spi.NewMessage;
import io.tenure.spi.NewNode;
import io.tenure.spi.Resolution;
import io.tenure.spi.ResolveResult;
import io.tenure.spi.ScheduleDefinition;
import io.tenure.spi.ScheduleFiring;
import io.tenure.spi.Store;
import io.tenure.spi.StoreSettings;
import io.tenure.spi.TablePrefix;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each decorator of {@link UnsafeGuard} lets through exactly what its guard refuses, shown on the
 * in-memory store (on SQLite for the lock fence, which needs a JDBC transaction): the same call on
 * the store as it is is refused (the control), and on the broken store it lands. The chaos runs
 * then show the checker catches the result.
 */
class BrokenGuardsTest {
  private static final AgentUri AGENT = AgentUri.parse("worker://worker-1");

  private final InMemoryStore store = InMemoryStore.create();

  @Test
  void token_a_resolve_with_a_superseded_claim_token_lands_on_the_current_claim() {
    long id = ChaosWorkload.queue(store, ChaosWorkload.FIFO).enqueue(OutgoingMessage.text("m"));
    QueueMessage claimed =
        store
            .queues()
            .claim(
                new ClaimRequest(ChaosWorkload.FIFO, "n1", 1, Duration.ofMinutes(1), false, null))
            .getFirst();
    List<Resolution> late =
        List.of(
            new Resolution(new MessageClaim(id, "a-superseded-claim"), new Resolution.Done(false)));

    ResolveResult guarded = store.queues().resolve(late, null);
    assertThat(guarded.lost()).containsExactly(id);
    assertThat(store.queues().find(id).orElseThrow().claimToken()).isEqualTo(claimed.claimToken());

    ResolveResult broken = UnsafeGuard.TOKEN.breakIn(store).queues().resolve(late, null);
    assertThat(broken.applied()).containsExactly(id);
    assertThat(store.queues().find(id)).isEmpty();
  }

  @Test
  void token_a_message_no_longer_in_flight_is_not_resolved_even_broken() {
    long id = ChaosWorkload.queue(store, ChaosWorkload.FIFO).enqueue(OutgoingMessage.text("m"));
    List<Resolution> late =
        List.of(new Resolution(new MessageClaim(id, "never-claimed"), new Resolution.Done(false)));

    ResolveResult broken = UnsafeGuard.TOKEN.breakIn(store).queues().resolve(late, null);

    assertThat(broken.lost()).containsExactly(id);
    assertThat(store.queues().find(id).orElseThrow().status()).isEqualTo(MessageStatus.PENDING);
  }

  @Test
  void leader_fence_a_deposed_leaders_placement_lands_while_another_leader_holds_the_lease() {
    long first = store.leases().acquire("old", Duration.ofMinutes(5)).orElseThrow().epoch();
    LeaderFence deposed = new LeaderFence("old", first);
    store.leases().release("old", first);
    store.leases().acquire("new", Duration.ofMinutes(5)).orElseThrow();

    assertThat(store.agents().placeAll(Map.of(AGENT, "n1"), Set.of(), deposed))
        .isEqualTo(AssignmentWrite.FENCED);
    assertThat(store.agents().read(AGENT)).isEmpty();

    Store broken = UnsafeGuard.LEADER_FENCE.breakIn(store);
    assertThat(broken.agents().placeAll(Map.of(AGENT, "n1"), Set.of(), deposed))
        .isEqualTo(AssignmentWrite.APPLIED);
    assertThat(store.agents().read(AGENT).orElseThrow().target()).isEqualTo("n1");
  }

  @Test
  void handoff_a_move_frees_the_row_from_its_active_owner_at_once() {
    LeaderFence leader = leader();
    active("n1");
    active("n2");
    ownedBy("n1", leader);

    Store broken = UnsafeGuard.HANDOFF.breakIn(store);
    assertThat(broken.agents().placeAll(Map.of(AGENT, "n2"), Set.of(), leader))
        .isEqualTo(AssignmentWrite.APPLIED);

    AgentAssignment row = store.agents().read(AGENT).orElseThrow();
    assertThat(row.owner()).isNull();
    assertThat(row.target()).isEqualTo("n2");
  }

  @Test
  void handoff_the_control_a_move_on_the_store_as_it_is_keeps_the_owner_until_it_releases() {
    LeaderFence leader = leader();
    active("n1");
    active("n2");
    ownedBy("n1", leader);

    assertThat(store.agents().placeAll(Map.of(AGENT, "n2"), Set.of(), leader))
        .isEqualTo(AssignmentWrite.APPLIED);

    AgentAssignment row = store.agents().read(AGENT).orElseThrow();
    assertThat(row.owner()).isEqualTo("n1");
    assertThat(row.target()).isEqualTo("n2");
  }

  @Test
  void handoff_a_dead_owners_row_is_left_to_its_fenced_release() {
    LeaderFence leader = leader();
    active("n2");
    ownedBy("n1", leader);

    UnsafeGuard.HANDOFF.breakIn(store).agents().placeAll(Map.of(AGENT, "n2"), Set.of(), leader);

    assertThat(store.agents().read(AGENT).orElseThrow().owner()).isEqualTo("n1");
  }

  @Test
  void schedule_dedupe_a_deposed_leaders_stale_fire_enqueues_a_slot_a_second_time() {
    Instant slot = Instant.parse("2025-01-01T00:00:01Z");
    store
        .schedules()
        .declare(
            new ScheduleDefinition(
                Schedule.every("s", Duration.ofSeconds(1))
                    .enqueue(ChaosWorkload.SCHEDULED, OutgoingMessage.text("tick")),
                5,
                slot));
    long version = store.schedules().read("s").orElseThrow().version();
    LeaderFence deposed = leader();
    store.leases().release(deposed.nodeId(), deposed.epoch());
    LeaderFence successor =
        new LeaderFence(
            "successor",
            store.leases().acquire("successor", Duration.ofMinutes(5)).orElseThrow().epoch());
    ScheduleFiring stale = firing(version, slot);
    assertThat(store.schedules().fire(successor, stale)).isInstanceOf(ScheduleFiring.Fired.class);

    assertThat(store.schedules().fire(deposed, stale)).isInstanceOf(ScheduleFiring.Fenced.class);
    assertThat(messagesFor(slot)).hasSize(1);

    Store broken = UnsafeGuard.SCHEDULE_DEDUPE.breakIn(store);
    assertThat(broken.schedules().fire(deposed, stale)).isInstanceOf(ScheduleFiring.Fired.class);
    assertThat(messagesFor(slot)).hasSize(2);
  }

  @Test
  void lock_token_a_superseded_holders_fence_holds(@TempDir Path folder) throws Exception {
    String url = "sqlite:" + folder.resolve("locks.db");
    try (Store sqlite = Stores.open(new StoreSettings(url, TablePrefix.of("t_"), true));
        Connection transaction = DriverManager.getConnection("jdbc:" + url)) {
      LockGrant first =
          sqlite.locks().acquire("lock", "owner-1", "n1", Duration.ofMinutes(1)).orElseThrow();
      assertThat(sqlite.locks().release(first, Duration.ZERO)).isTrue();
      LockGrant second =
          sqlite.locks().acquire("lock", "owner-2", "n2", Duration.ofMinutes(1)).orElseThrow();
      transaction.setAutoCommit(false);

      assertThat(sqlite.locks().holds(transaction, first)).isFalse();
      assertThat(sqlite.locks().holds(transaction, second)).isTrue();
      transaction.rollback();

      Store broken = UnsafeGuard.LOCK_TOKEN.breakIn(sqlite);
      assertThat(broken.locks().holds(transaction, first)).isTrue();
      assertThat(broken.locks().holds(first)).isFalse();
      transaction.rollback();
    }
  }

  private static ScheduleFiring firing(long version, Instant slot) {
    return new ScheduleFiring(
        "s",
        version,
        List.of(
            new ScheduleFiring.Slot(
                slot,
                new NewMessage(
                    ChaosWorkload.SCHEDULED,
                    null,
                    "tick".getBytes(StandardCharsets.UTF_8),
                    "text/plain",
                    Map.of(),
                    0,
                    5,
                    Duration.ZERO,
                    ScheduleFiring.dedupeKey("s", slot)))),
        0,
        slot.plusSeconds(1));
  }

  private List<QueueMessage> messagesFor(Instant slot) {
    return store
        .queues()
        .list(new MessageQuery(ChaosWorkload.SCHEDULED, null, null, null, null, 0, 100))
        .stream()
        .filter(
            m ->
                SlotKey.parse(m.dedupeKey())
                    .map(key -> key.micros() == SlotKey.micros(slot))
                    .orElse(false))
        .toList();
  }

  private LeaderFence leader() {
    return new LeaderFence(
        "leader", store.leases().acquire("leader", Duration.ofMinutes(5)).orElseThrow().epoch());
  }

  private void ownedBy(String node, LeaderFence leader) {
    assertThat(store.agents().place(AGENT, node, leader)).isEqualTo(AssignmentWrite.APPLIED);
    assertThat(store.agents().claim(AGENT, node)).isPresent();
  }

  private void active(String node) {
    MembershipStore membership = store.membership();
    assertThat(
            membership.join(
                new NewNode(node, node, "", Set.of(), Duration.ofSeconds(3)),
                membership.read().version()))
        .isEqualTo(MembershipWrite.APPLIED);
    assertThat(membership.changeStatus(node, NodeStatus.ACTIVE, membership.read().version()))
        .isEqualTo(MembershipWrite.APPLIED);
  }
}
