package io.tenure.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.AgentAssignment;
import io.tenure.AgentUri;
import io.tenure.spi.AssignmentWrite;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * SPEC §5.1: ownership epochs outlive the row. An agent's next owner always gets an epoch above
 * every epoch issued to another owner, whatever happened to the row in between (deleted, restored,
 * retired and re-added, rewritten by hand), on every provider.
 */
public abstract class AgentEpochComplianceTest extends AgentStoreKit {
  @Test
  void
      a_row_an_operator_deleted_under_its_owner_comes_back_to_that_owner_at_its_epoch_when_placed() {
    AgentUri invoices = AgentUri.parse("projection://invoices");
    long orders = claimedThreeTimes(a, ORDERS);
    long held = claimedThreeTimes(a, invoices);
    fixture.deleteAgentRows(prefix, List.of(ORDERS, invoices));

    assertThat(agents.place(ORDERS, b, fence)).isEqualTo(AssignmentWrite.APPLIED);
    assertThat(agents.placeAll(java.util.Map.of(invoices, b), Set.of(invoices), fence))
        .isEqualTo(AssignmentWrite.APPLIED);

    for (AgentUri uri : List.of(ORDERS, invoices)) {
      AgentAssignment back = row(uri);
      assertThat(back.owner())
          .as("the node the epoch was issued to still owns %s", uri)
          .isEqualTo(a);
      assertThat(back.epoch()).isEqualTo(held);
      assertThat(back.target()).isEqualTo(b);
      assertThat(agents.stillOwner(uri, a, held)).isTrue();
      assertThat(agents.claim(uri, b)).as("b waits for a to let go of %s", uri).isEmpty();
    }
    agents.release(ORDERS, a);
    assertThat(agents.claim(ORDERS, b)).as("above the 3 a held").hasValue(orders + 1);
    agents.release(invoices, a);
    assertThat(agents.claimAll(List.of(invoices), b))
        .containsExactly(org.assertj.core.api.Assertions.entry(invoices, held + 1));
  }

  @Test
  void an_owner_restoring_its_own_deleted_row_keeps_its_epoch() {
    long held = claimedThreeTimes(a, ORDERS);
    fixture.deleteAgentRows(prefix, List.of(ORDERS));

    assertThat(agents.claimIfAbsent(ORDERS, a)).hasValue(held);

    assertThat(agents.stillOwner(ORDERS, a, held)).isTrue();
    assertThat(row(ORDERS).target()).isEqualTo(a);
  }

  @Test
  void
      a_peer_restoring_a_row_deleted_under_its_owner_gets_nothing_and_the_row_goes_back_to_the_owner() {
    long held = claimedThreeTimes(a, ORDERS);
    fixture.deleteAgentRows(prefix, List.of(ORDERS));

    assertThat(agents.claimIfAbsent(ORDERS, b)).as("b's copy is the stale one").isEmpty();

    assertThat(row(ORDERS).owner()).isEqualTo(a);
    assertThat(row(ORDERS).epoch()).isEqualTo(held);
    assertThat(agents.claimIfAbsent(ORDERS, a)).hasValue(held);
  }

  @Test
  void
      of_eight_nodes_restoring_a_row_deleted_under_its_owner_only_the_owner_gets_it_at_its_epoch() {
    long held = claimedThreeTimes(a, ORDERS);
    fixture.deleteAgentRows(prefix, List.of(ORDERS));
    List<Callable<OptionalLong>> restores = new ArrayList<>();
    restores.add(() -> agents.claimIfAbsent(ORDERS, a));
    for (int i = 0; i < 7; i++) {
      String peer = UUID.randomUUID().toString();
      restores.add(() -> agents.claimIfAbsent(ORDERS, peer));
    }

    List<OptionalLong> results = Race.run(restores);

    assertThat(results.get(0)).hasValue(held);
    assertThat(results.subList(1, 8)).allSatisfy(result -> assertThat(result).isEmpty());
    assertThat(row(ORDERS).owner()).isEqualTo(a);
  }

  @Test
  void a_released_agent_whose_row_was_deleted_is_restored_above_its_last_epoch() {
    long held = claimedThreeTimes(a, ORDERS);
    agents.release(ORDERS, a);
    fixture.deleteAgentRows(prefix, List.of(ORDERS));

    assertThat(agents.claimIfAbsent(ORDERS, b)).hasValue(held + 1);
    assertThat(agents.claimIfAbsent(ORDERS, b)).as("b's own row now").hasValue(held + 1);
  }

  @Test
  void retiring_and_re_adding_an_agent_continues_its_epochs() {
    long held = claimedThreeTimes(a, ORDERS);
    agents.release(ORDERS, a);
    assertThat(agents.retire(ORDERS, fence)).isEqualTo(AssignmentWrite.APPLIED);

    assertThat(agents.placeAll(java.util.Map.of(ORDERS, b), Set.of(ORDERS), fence))
        .isEqualTo(AssignmentWrite.APPLIED);

    assertThat(row(ORDERS).owner()).as("nobody held it when it was retired").isNull();
    assertThat(agents.claim(ORDERS, b)).hasValue(held + 1);
  }

  @Test
  void
      a_row_handed_to_another_node_by_hand_at_the_same_epoch_goes_back_to_the_node_that_holds_the_epoch() {
    AgentUri invoices = AgentUri.parse("projection://invoices");
    long held = claimedThreeTimes(a, ORDERS);
    claimedThreeTimes(a, invoices);
    // An operator's reassignment: owner and target rewritten, epoch kept (last writer wins).
    agents.upsert(new AgentAssignment(ORDERS, b, b, held, false, null));
    agents.upsert(new AgentAssignment(invoices, b, b, held, false, null));

    assertThat(agents.claim(ORDERS, b)).as("b never runs it at a's epoch").isEmpty();
    assertThat(agents.claimAll(List.of(invoices), b)).isEmpty();
    assertThat(agents.claimIfAbsent(ORDERS, b)).isEmpty();

    for (AgentUri uri : List.of(ORDERS, invoices)) {
      assertThat(row(uri).owner()).as("a hand-off from a to b instead").isEqualTo(a);
      assertThat(row(uri).target()).isEqualTo(b);
      assertThat(row(uri).epoch()).isEqualTo(held);
      agents.release(uri, a);
    }
    assertThat(agents.claim(ORDERS, b)).hasValue(held + 1);
    assertThat(agents.claimAll(List.of(invoices), b))
        .containsExactly(org.assertj.core.api.Assertions.entry(invoices, held + 1));
  }

  @Test
  void an_epoch_lowered_or_an_owner_written_by_hand_never_lowers_the_next_epoch() {
    long held = claimedThreeTimes(a, ORDERS);
    agents.upsert(new AgentAssignment(ORDERS, a, a, 1, false, null));
    agents.release(ORDERS, a);
    agents.place(ORDERS, b, fence);
    assertThat(agents.claim(ORDERS, b)).hasValue(held + 1);

    // An owner written by hand on a row whose epoch nobody holds: the owner gets a new epoch.
    agents.release(ORDERS, b);
    agents.upsert(new AgentAssignment(ORDERS, a, a, 0, false, null));
    assertThat(agents.claim(ORDERS, a)).hasValue(held + 2);
    assertThat(agents.claim(ORDERS, a)).as("its own now").hasValue(held + 2);
  }

  /**
   * Every epoch a claim or restore returns is above every epoch returned before, or the latest one,
   * returned again to the node it was issued to: over a seeded random mix of claims, releases,
   * restores, placements, retirements, deletions and hand-written rows.
   */
  @Test
  void
      no_mix_of_claims_restores_deletes_retires_and_hand_edits_issues_an_epoch_at_or_below_another_owners() {
    java.util.Random random = new java.util.Random(15);
    List<String> owners = List.of(a, b, UUID.randomUUID().toString());
    List<AgentUri> uris = List.of(ORDERS, AgentUri.parse("projection://invoices"));
    java.util.Map<AgentUri, Long> highest = new java.util.HashMap<>();
    java.util.Map<AgentUri, java.util.Map<Long, String>> issuedTo = new java.util.HashMap<>();
    for (int step = 0; step < 600; step++) {
      AgentUri uri = uris.get(random.nextInt(uris.size()));
      String operation =
          List.of(
                  "place",
                  "claim",
                  "claimAll",
                  "restore",
                  "release",
                  "retire",
                  "delete",
                  "hand-edit")
              .get(random.nextInt(8));
      String node = owners.get(random.nextInt(owners.size()));
      java.util.Optional<AgentAssignment> now = agents.read(uri);
      // Mostly the node a claim or release can succeed for, so that many epochs are issued.
      if (now.isPresent() && random.nextInt(3) > 0) {
        String likely = operation.equals("release") ? now.get().owner() : now.get().target();
        node = likely == null ? node : likely;
      }
      OptionalLong got = OptionalLong.empty();
      switch (operation) {
        case "place" -> agents.placeAll(java.util.Map.of(uri, node), Set.of(), fence);
        case "claim" -> got = agents.claim(uri, node);
        case "claimAll" -> {
          Long epoch = agents.claimAll(List.of(uri), node).get(uri);
          got = epoch == null ? OptionalLong.empty() : OptionalLong.of(epoch);
        }
        case "restore" -> got = agents.claimIfAbsent(uri, node);
        case "release" -> agents.release(uri, node);
        case "retire" -> agents.retire(uri, fence);
        case "delete" -> fixture.deleteAgentRows(prefix, List.of(uri));
        default ->
            agents.upsert(new AgentAssignment(uri, node, node, random.nextInt(3), false, null));
      }
      if (got.isEmpty()) {
        continue;
      }
      long epoch = got.getAsLong();
      java.util.Map<Long, String> issued =
          issuedTo.computeIfAbsent(uri, k -> new java.util.HashMap<>());
      String before = issued.get(epoch);
      long top = highest.getOrDefault(uri, 0L);
      // New and above every epoch before, or the latest one, kept by the node it was issued to.
      assertThat(before == null ? epoch > top : before.equals(node) && epoch == top)
          .as(
              "step %d, %s of %s by %s returned epoch %d; issued before: %s",
              step, operation, uri, node, epoch, issued)
          .isTrue();
      issued.putIfAbsent(epoch, node);
      highest.merge(uri, epoch, Math::max);
    }
    assertThat(issuedTo.values().stream().mapToInt(java.util.Map::size).sum())
        .as("epochs issued")
        .isGreaterThan(20);
  }
}
