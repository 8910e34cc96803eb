package io.tenure.internal.wake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The pacer folds a burst into few wake-ups and never drops one: driven by a list of (gap, queue)
 * offers with {@link WakePacer#due} polled at every step and at every due time, as the sender does.
 */
class WakePacerTest {
  private static final long WINDOW = 5;

  @Test
  void the_first_commit_sends_at_once_and_a_burst_sends_one_more_a_window_later() {
    WakePacer<String> pacer = new WakePacer<>(WINDOW);

    assertThat(pacer.offer("q", 0)).isTrue();
    assertThat(pacer.offer("q", 1)).isFalse();
    assertThat(pacer.offer("q", 2)).isFalse();
    assertThat(pacer.nextDue()).isEqualTo(5);
    assertThat(pacer.due(4)).isEmpty();
    assertThat(pacer.due(5)).containsExactly("q");
    assertThat(pacer.nextDue()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void queues_are_paced_apart() {
    WakePacer<String> pacer = new WakePacer<>(WINDOW);

    assertThat(pacer.offer("a", 0)).isTrue();
    assertThat(pacer.offer("b", 1)).isTrue();
    assertThat(pacer.offer("a", 5)).isTrue();
  }

  @Test
  void the_window_must_be_positive() {
    assertThatThrownBy(() -> new WakePacer<String>(0)).isInstanceOf(IllegalArgumentException.class);
  }

  private record Step(long at, String queue) {}

  private record Sent(long at, String queue) {}

  @Property
  void every_commit_is_followed_within_a_window_by_a_send_and_sends_of_a_queue_are_a_window_apart(
      @ForAll @Size(max = 200) List<@IntRange(min = 0, max = 12) Integer> gaps,
      @ForAll @Size(max = 200) List<@IntRange(min = 0, max = 2) Integer> queues) {
    WakePacer<String> pacer = new WakePacer<>(WINDOW);
    List<Step> offers = new ArrayList<>();
    List<Sent> sent = new ArrayList<>();
    long t = 0;
    int steps = Math.min(gaps.size(), queues.size());
    for (int i = 0; i < steps; i++) {
      long next = t + gaps.get(i);
      t = drain(pacer, t, next, sent);
      String queue = "q" + queues.get(i);
      offers.add(new Step(t, queue));
      if (pacer.offer(queue, t)) {
        sent.add(new Sent(t, queue));
      }
    }
    drain(pacer, t, t + 10 * WINDOW, sent);

    for (Step offer : offers) {
      assertThat(sent)
          .as("a send of %s within a window of its commit at %d", offer.queue, offer.at)
          .anyMatch(
              s -> s.queue.equals(offer.queue) && s.at >= offer.at && s.at <= offer.at + WINDOW);
    }
    Map<String, Long> last = new HashMap<>();
    for (Sent s : sent) {
      Long before = last.put(s.queue, s.at);
      if (before != null) {
        assertThat(s.at - before)
            .as("sends of %s a window apart", s.queue)
            .isGreaterThanOrEqualTo(WINDOW);
      }
    }
    assertThat(pacer.nextDue()).as("nothing left waiting").isEqualTo(Long.MAX_VALUE);
  }

  /** Polls at every due time up to {@code until}, as the sender's thread wakes for them. */
  private static long drain(WakePacer<String> pacer, long from, long until, List<Sent> sent) {
    long t = from;
    while (pacer.nextDue() <= until) {
      t = Math.max(t, pacer.nextDue());
      for (String queue : pacer.due(t)) {
        sent.add(new Sent(t, queue));
      }
    }
    return until;
  }
}
