package io.tenure.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.QueueLimits;
import io.tenure.RateLimit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** What one claim of a limited queue may take: budgets, group rooms and rate keys. */
class ClaimAllowanceTest {
  private static final Duration MINUTE = Duration.ofMinutes(1);

  @Test
  void the_budget_is_the_least_of_the_request_the_room_in_flight_and_the_rate_left() {
    QueueLimits limits = QueueLimits.none().withMaxInFlight(10).withRate(RateLimit.of(6, MINUTE));

    assertThat(ClaimAllowance.of(limits, 20, 3, Map.of(), Map.of("", 2)).budget()).isEqualTo(4);
    assertThat(ClaimAllowance.of(limits, 20, 8, Map.of(), Map.of("", 2)).budget()).isEqualTo(2);
    assertThat(ClaimAllowance.of(limits, 1, 0, Map.of(), Map.of()).budget()).isEqualTo(1);
  }

  @Test
  void a_queue_over_its_limit_has_no_budget_rather_than_a_negative_one() {
    ClaimAllowance over =
        ClaimAllowance.of(QueueLimits.none().withMaxInFlight(2), 5, 7, Map.of(), Map.of());

    assertThat(over.budget()).isZero();
    assertThat(over.take(null)).isFalse();
  }

  @Test
  void a_group_takes_up_to_its_room_and_then_is_full() {
    ClaimAllowance allowance =
        ClaimAllowance.of(
            QueueLimits.none().withMaxInFlightPerGroup(2), 10, 1, Map.of("a", 1), Map.of());

    assertThat(allowance.byGroup()).isTrue();
    assertThat(allowance.fullGroups()).isEmpty();
    assertThat(allowance.take("a")).isTrue();
    assertThat(allowance.take("a")).isFalse();
    assertThat(allowance.fullGroups()).containsExactly("a");
    assertThat(allowance.take("b")).isTrue();
    assertThat(allowance.take(null)).as("no group: only the queue's limits").isTrue();
    assertThat(allowance.taken()).isEqualTo(3);
  }

  @Test
  void a_per_group_rate_counts_each_group_and_the_ungrouped_apart() {
    ClaimAllowance allowance =
        ClaimAllowance.of(
            QueueLimits.none().withRate(RateLimit.perGroup(2, MINUTE)),
            10,
            0,
            Map.of(),
            Map.of("a", 2, "", 1));

    assertThat(allowance.fullGroups()).containsExactly("a");
    assertThat(allowance.take("a")).isFalse();
    assertThat(allowance.take(null)).isTrue();
    assertThat(allowance.ungroupedFull()).isTrue();
    assertThat(allowance.take(null)).isFalse();
    assertThat(allowance.take("b")).isTrue();
    assertThat(allowance.claimsByRateKey()).containsOnly(Map.entry("", 1), Map.entry("b", 1));
  }

  @Test
  void a_queue_wide_rate_records_every_claim_under_one_key_and_no_rate_records_nothing() {
    ClaimAllowance rated =
        ClaimAllowance.of(
            QueueLimits.none().withRate(RateLimit.of(5, MINUTE)), 10, 0, Map.of(), Map.of());
    rated.take("a");
    rated.take(null);
    assertThat(rated.claimsByRateKey()).containsOnly(Map.entry("", 2));
    assertThat(rated.byGroup()).isFalse();

    ClaimAllowance unrated =
        ClaimAllowance.of(QueueLimits.none().withMaxInFlight(3), 10, 0, Map.of(), Map.of());
    unrated.take("a");
    assertThat(unrated.claimsByRateKey()).isEmpty();
  }

  /**
   * Whatever is offered, in any order: the claim never takes more than its budget, no group ends
   * above its limit or its rate, and anything refused had no room when it was offered.
   */
  @Property
  void taking_never_exceeds_a_limit_and_refuses_only_what_has_no_room(
      @ForAll @IntRange(min = 0, max = 8) int maxInFlight,
      @ForAll @IntRange(min = 0, max = 4) int perGroup,
      @ForAll @IntRange(min = 0, max = 5) int rateClaims,
      @ForAll boolean ratePerGroup,
      @ForAll @IntRange(min = 1, max = 20) int requested,
      @ForAll @Size(max = 6) List<@IntRange(min = 0, max = 3) Integer> inFlightGroups,
      @ForAll @Size(max = 6) List<@IntRange(min = 0, max = 3) Integer> windowGroups,
      @ForAll @Size(max = 30) List<@IntRange(min = 0, max = 3) Integer> offered) {
    QueueLimits limits =
        new QueueLimits(
            maxInFlight,
            perGroup,
            rateClaims == 0 ? null : new RateLimit(rateClaims, MINUTE, ratePerGroup));
    Map<String, Integer> groups = new HashMap<>();
    inFlightGroups.forEach(g -> groups.merge(group(g), 1, Integer::sum));
    groups.remove(null);
    Map<String, Integer> window = new HashMap<>();
    windowGroups.forEach(g -> window.merge(ratePerGroup && g > 0 ? group(g) : "", 1, Integer::sum));
    int inFlight = inFlightGroups.size();

    ClaimAllowance allowance = ClaimAllowance.of(limits, requested, inFlight, groups, window);
    Map<String, Integer> taken = new HashMap<>();
    List<String> refused = new ArrayList<>();
    for (int g : offered) {
      String group = group(g);
      boolean full =
          allowance.taken() == allowance.budget() || noRoom(limits, groups, window, taken, group);
      boolean took = allowance.take(group);
      assertThat(took).as("take(%s) refused exactly when there is no room", group).isEqualTo(!full);
      if (took) {
        taken.merge(key(group), 1, Integer::sum);
      } else {
        refused.add(group);
      }
    }

    int total = taken.values().stream().mapToInt(Integer::intValue).sum();
    assertThat(total).isEqualTo(allowance.taken()).isLessThanOrEqualTo(requested);
    if (maxInFlight > 0) {
      assertThat(inFlight + total).isLessThanOrEqualTo(Math.max(maxInFlight, inFlight));
    }
    for (String group : allowance.fullGroups()) {
      assertThat(allowance.take(group)).as("a full group takes nothing").isFalse();
    }
  }

  private static boolean noRoom(
      QueueLimits limits,
      Map<String, Integer> groups,
      Map<String, Integer> window,
      Map<String, Integer> taken,
      String group) {
    if (group != null
        && limits.maxInFlightPerGroup() > 0
        && groups.getOrDefault(group, 0) + taken.getOrDefault(group, 0)
            >= limits.maxInFlightPerGroup()) {
      return true;
    }
    RateLimit rate = limits.rate();
    if (rate != null && rate.perGroup()) {
      String key = group == null ? "" : group;
      int used =
          window.getOrDefault(key, 0)
              + taken.entrySet().stream()
                  .filter(e -> rateKey(e.getKey()).equals(key))
                  .mapToInt(Map.Entry::getValue)
                  .sum();
      return used >= rate.claims();
    }
    return false;
  }

  private static String group(int g) {
    return g == 0 ? null : "g" + g;
  }

  /** The taken map's key: the group, or "-" for none. */
  private static String key(String group) {
    return group == null ? "-" : group;
  }

  private static String rateKey(String takenKey) {
    return takenKey.equals("-") ? "" : takenKey;
  }
}
