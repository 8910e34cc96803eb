package io.tenure.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** When a claim tries the unkeyed claim first: a cost choice, counted in claims. */
class UnkeyedQueuesTest {
  private final UnkeyedQueues queues = new UnkeyedQueues();

  @Test
  void a_queue_tries_the_unkeyed_claim_until_a_full_claim_takes_a_keyed_row() {
    assertThat(queues.tryUnkeyed("q")).isTrue();
    queues.fullClaimed("q", false);

    assertThat(queues.tryUnkeyed("q")).isTrue();
  }

  @Test
  void after_a_keyed_row_the_next_claims_of_that_queue_alone_go_straight_to_the_full_claim() {
    queues.fullClaimed("q", true);

    assertThat(IntStream.range(0, UnkeyedQueues.FULL_CLAIMS_AFTER_KEYED))
        .allSatisfy(i -> assertThat(queues.tryUnkeyed("q")).isFalse());
    assertThat(queues.tryUnkeyed("other")).isTrue();
    assertThat(queues.tryUnkeyed("q")).isTrue();
  }

  @Test
  void another_keyed_row_counts_the_full_claims_again() {
    queues.fullClaimed("q", true);
    queues.tryUnkeyed("q");
    queues.fullClaimed("q", true);

    assertThat(IntStream.range(0, UnkeyedQueues.FULL_CLAIMS_AFTER_KEYED))
        .allSatisfy(i -> assertThat(queues.tryUnkeyed("q")).isFalse());
  }
}
