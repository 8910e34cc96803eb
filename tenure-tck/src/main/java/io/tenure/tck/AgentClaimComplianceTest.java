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
 * SPEC §5.3: a node claims only rows that target it, one at a time or its whole backlog in one
 * call, restores a row it runs with claim-if-absent, and of eight racing nodes exactly the right
 * one wins, on every provider.
 */
public abstract class AgentClaimComplianceTest extends AgentStoreKit {
  @Test
  void claiming_an_unowned_assignment_takes_it_and_bumps_the_epoch() {
    agents.place(ORDERS, a, fence);
    long before = row(ORDERS).epoch();

    OptionalLong epoch = agents.claim(ORDERS, a);

    assertThat(epoch).hasValue(before + 1);
    assertThat(row(ORDERS).owner()).isEqualTo(a);
    assertThat(agents.stillOwner(ORDERS, a, before + 1)).isTrue();
    assertThat(agents.stillOwner(ORDERS, a, before)).isFalse();
  }

  @Test
  void claiming_an_assignment_a_peer_owns_leaves_it_alone_and_returns_nothing() {
    long epoch = ownedBy(a, ORDERS);
    agents.place(ORDERS, b, fence);

    assertThat(agents.claim(ORDERS, b)).isEmpty();
    assertThat(agents.claimIfAbsent(ORDERS, b)).isEmpty();

    assertThat(row(ORDERS).owner()).isEqualTo(a);
    assertThat(row(ORDERS).epoch()).isEqualTo(epoch);
  }

  @Test
  void claiming_an_assignment_this_node_already_owns_succeeds_without_a_new_epoch() {
    long epoch = ownedBy(a, ORDERS);

    assertThat(agents.claim(ORDERS, a)).hasValue(epoch);
    assertThat(agents.claimIfAbsent(ORDERS, a)).hasValue(epoch);
  }

  @Test
  void a_claim_needs_the_row_to_target_the_claimer_and_not_be_paused() {
    agents.place(ORDERS, a, fence);

    assertThat(agents.claim(ORDERS, b)).isEmpty();
    agents.setPaused(ORDERS, true);
    assertThat(agents.claim(ORDERS, a)).isEmpty();
    agents.setPaused(ORDERS, false);
    assertThat(agents.claim(ORDERS, a)).isPresent();
    assertThat(agents.claim(AgentUri.parse("projection://missing"), a)).isEmpty();
  }

  @Test
  void claim_all_judges_each_row_as_claim_would_in_one_call() {
    AgentUri free = AgentUri.parse("projection://free");
    AgentUri mine = AgentUri.parse("projection://mine");
    AgentUri peers = AgentUri.parse("projection://peers");
    AgentUri elsewhere = AgentUri.parse("projection://elsewhere");
    AgentUri paused = AgentUri.parse("projection://paused");
    AgentUri missing = AgentUri.parse("projection://missing");
    agents.place(free, a, fence);
    long freeBefore = row(free).epoch();
    long mineEpoch = ownedBy(a, mine);
    long peersEpoch = ownedBy(b, peers);
    agents.place(elsewhere, b, fence);
    agents.place(paused, a, fence);
    agents.setPaused(paused, true);

    java.util.Map<AgentUri, Long> owned =
        agents.claimAll(List.of(free, mine, peers, elsewhere, paused, missing, free), a);

    assertThat(owned)
        .containsOnly(
            org.assertj.core.api.Assertions.entry(free, freeBefore + 1),
            org.assertj.core.api.Assertions.entry(mine, mineEpoch));
    assertThat(row(free).owner()).isEqualTo(a);
    assertThat(row(peers).owner()).isEqualTo(b);
    assertThat(row(peers).epoch()).isEqualTo(peersEpoch);
    assertThat(row(elsewhere).owner()).isNull();
    assertThat(row(paused).owner()).isNull();
    assertThat(agents.read(missing)).isEmpty();
    assertThat(agents.claimAll(List.of(), a)).isEmpty();
  }

  @Test
  void claim_all_takes_a_backlog_larger_than_one_statement_holds() {
    java.util.Map<AgentUri, String> targets = new java.util.LinkedHashMap<>();
    for (int i = 0; i < 1_200; i++) {
      targets.put(AgentUri.parse("projection://p" + i), a);
    }
    assertThat(agents.placeAll(targets, Set.of(), fence)).isEqualTo(AssignmentWrite.APPLIED);

    assertThat(agents.claimAll(targets.keySet(), a))
        .hasSize(1_200)
        .containsOnlyKeys(targets.keySet());
    assertThat(agents.readAll()).allSatisfy(row -> assertThat(row.owner()).isEqualTo(a));
  }

  @Test
  void of_eight_nodes_claiming_a_backlog_at_once_only_the_target_takes_each_row() {
    java.util.Map<AgentUri, String> targets = new java.util.LinkedHashMap<>();
    for (int i = 0; i < 40; i++) {
      targets.put(AgentUri.parse("projection://p" + i), i % 2 == 0 ? a : b);
    }
    agents.placeAll(targets, Set.of(), fence);
    List<Callable<java.util.Map<AgentUri, Long>>> claims = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      claims.add(() -> agents.claimAll(targets.keySet(), a));
      claims.add(() -> agents.claimAll(targets.keySet(), b));
    }

    List<java.util.Map<AgentUri, Long>> results = Race.run(claims);

    for (AgentAssignment row : agents.readAll()) {
      assertThat(row.owner()).isEqualTo(targets.get(row.uri()));
      assertThat(row.epoch()).as("claimed once: %s", row.uri()).isEqualTo(1);
    }
    for (int i = 0; i < results.size(); i++) {
      String claimer = i % 2 == 0 ? a : b;
      assertThat(results.get(i).keySet())
          .allSatisfy(uri -> assertThat(targets.get(uri)).isEqualTo(claimer));
    }
  }

  @Test
  void claim_if_absent_restores_a_missing_row_for_its_runner() {
    OptionalLong epoch = agents.claimIfAbsent(ORDERS, a);

    assertThat(epoch).isPresent();
    assertThat(row(ORDERS).owner()).isEqualTo(a);
    assertThat(row(ORDERS).target()).isEqualTo(a);
  }

  @Test
  void of_eight_nodes_restoring_one_missing_row_at_once_exactly_one_owns_it() {
    List<String> nodes = new ArrayList<>();
    List<Callable<OptionalLong>> restores = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String node = UUID.randomUUID().toString();
      nodes.add(node);
      restores.add(() -> agents.claimIfAbsent(ORDERS, node));
    }

    List<OptionalLong> results = Race.run(restores);

    assertThat(results).filteredOn(OptionalLong::isPresent).hasSize(1);
    String winner =
        nodes.get(
            results.indexOf(
                results.stream().filter(OptionalLong::isPresent).findFirst().orElseThrow()));
    assertThat(row(ORDERS).owner()).isEqualTo(winner);
  }

  @Test
  void of_eight_nodes_claiming_one_free_row_at_once_only_its_target_takes_it() {
    agents.place(ORDERS, a, fence);
    List<Callable<OptionalLong>> claims = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      claims.add(() -> agents.claim(ORDERS, a));
      claims.add(() -> agents.claim(ORDERS, b));
    }

    List<OptionalLong> results = Race.run(claims);

    assertThat(row(ORDERS).owner()).isEqualTo(a);
    assertThat(results)
        .filteredOn(OptionalLong::isPresent)
        .extracting(OptionalLong::getAsLong)
        .containsOnly(row(ORDERS).epoch());
    for (int i = 1; i < results.size(); i += 2) {
      assertThat(results.get(i)).as("b never owns it").isEmpty();
    }
  }
}
