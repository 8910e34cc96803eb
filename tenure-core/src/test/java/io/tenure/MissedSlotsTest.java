package io.tenure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The missed-slot policies: a catch-up fires 1 to 10,000 slots at once. */
class MissedSlotsTest {
  @Test
  void a_catch_up_of_1_to_10_000_slots_is_accepted() {
    assertThat(MissedSlots.catchUp(1)).isEqualTo(new MissedSlots.CatchUp(1));
    assertThat(MissedSlots.catchUp(10_000)).isEqualTo(new MissedSlots.CatchUp(10_000));
  }

  @Test
  void a_catch_up_of_no_slot_or_more_than_10_000_is_refused_naming_the_value() {
    assertThatThrownBy(() -> MissedSlots.catchUp(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("catch-up max must be 1 to 10000 slots, got 0");
    assertThatThrownBy(() -> MissedSlots.catchUp(10_001))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("catch-up max must be 1 to 10000 slots, got 10001");
    assertThatThrownBy(() -> new MissedSlots.CatchUp(-5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("catch-up max must be 1 to 10000 slots, got -5");
  }

  @Test
  void latest_and_skip_are_values() {
    assertThat(MissedSlots.latest()).isEqualTo(new MissedSlots.Latest());
    assertThat(MissedSlots.skip()).isEqualTo(new MissedSlots.Skip());
  }
}
