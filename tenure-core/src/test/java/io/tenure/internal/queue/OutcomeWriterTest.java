package io.tenure.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.StoreUnavailableException;
import io.tenure.spi.MessageClaim;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Resolution;
import io.tenure.spi.ResolveResult;
import java.lang.reflect.Proxy;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A try again that finds its claim ended counts the outcome as written only if its answer came
 * within the lease (model finding F5): past it, a reclaim may have ended the claim.
 */
class OutcomeWriterTest {
  private static final long SECOND = 1_000_000_000L;
  private static final Resolution DONE =
      new Resolution(new MessageClaim(7, "token-1"), new Resolution.Done(false));

  private final AtomicLong now = new AtomicLong();

  /** A store whose resolve answers from {@code answers}, one per call. */
  private static QueueStore store(Deque<Supplier<ResolveResult>> answers) {
    return (QueueStore)
        Proxy.newProxyInstance(
            QueueStore.class.getClassLoader(),
            new Class<?>[] {QueueStore.class},
            (proxy, method, args) -> {
              if (method.getName().equals("resolve")) {
                return answers.removeFirst().get();
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }

  private OutcomeWriter writer(Deque<Supplier<ResolveResult>> answers) {
    return new OutcomeWriter(store(answers), "q", null, now::get, () -> Long.MAX_VALUE);
  }

  private static ResolveResult unavailable() {
    throw new StoreUnavailableException("connection reset", null);
  }

  @Test
  void a_try_again_answered_within_the_lease_that_finds_the_claim_ended_counts_it_written() {
    Deque<Supplier<ResolveResult>> answers = new ArrayDeque<>();
    answers.add(OutcomeWriterTest::unavailable); // the commit landed, the reply was lost
    answers.add(() -> new ResolveResult(List.of(), List.of(7L), false));

    OutcomeWriter.Written written = writer(answers).write(List.of(DONE), 30 * SECOND);

    assertThat(written.written()).containsExactly(DONE);
    assertThat(written.unwritten()).isEmpty();
  }

  @Test
  void a_try_again_answered_after_the_lease_that_finds_the_claim_ended_counts_it_unwritten() {
    Deque<Supplier<ResolveResult>> answers = new ArrayDeque<>();
    answers.add(OutcomeWriterTest::unavailable); // nothing landed
    answers.add(
        () -> {
          // The node paused before this try until past the lease: the message was reclaimed.
          now.set(31 * SECOND);
          return new ResolveResult(List.of(), List.of(7L), false);
        });

    OutcomeWriter.Written written = writer(answers).write(List.of(DONE), 30 * SECOND);

    assertThat(written.written()).as("nothing says the done landed").isEmpty();
    assertThat(written.unwritten()).containsExactly(DONE);
    assertThat(written.lost()).isEmpty();
  }

  @Test
  void a_first_try_that_finds_the_claim_ended_reports_it_lost() {
    Deque<Supplier<ResolveResult>> answers = new ArrayDeque<>();
    answers.add(() -> new ResolveResult(List.of(), List.of(7L), false));

    OutcomeWriter.Written written = writer(answers).write(List.of(DONE), 30 * SECOND);

    assertThat(written.lost()).containsExactly(DONE);
    assertThat(written.written()).isEmpty();
  }
}
