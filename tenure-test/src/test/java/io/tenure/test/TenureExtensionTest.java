package io.tenure.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.Tenure;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The extension's life cycle, seen from outside: sample test classes (nested, so the build does not
 * run them by themselves) are run through JUnit's engine and what they saw is checked afterwards.
 */
class TenureExtensionTest {
  /** What the samples saw, in the order they saw it. */
  static final List<Object> SEEN = new CopyOnWriteArrayList<>();

  private static Events run(Class<?> sample) {
    SEEN.clear();
    return EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(sample))
        .execute()
        .testEvents();
  }

  @TenureTest
  static class TwoTests {
    @BeforeEach
    void enqueue(Tenure tenure) {
      tenure.queue("emails", QueuePolicy.defaults()).enqueue(OutgoingMessage.text("hello"));
    }

    @Test
    void first(Tenure tenure, TestClock clock, TenureTestKit kit) {
      see(tenure, clock, kit);
    }

    @Test
    void second(Tenure tenure, TestClock clock, TenureTestKit kit) {
      see(tenure, clock, kit);
    }

    @AfterEach
    void after(Tenure tenure) {
      SEEN.add(tenure.queue("emails", QueuePolicy.defaults()).stats().pending());
    }

    private static void see(Tenure tenure, TestClock clock, TenureTestKit kit) {
      assertThat(kit.tenure()).isSameAs(tenure);
      assertThat(kit.clock()).isSameAs(clock);
      Queue emails = tenure.queue("emails", QueuePolicy.defaults());
      kit.assertEnqueued(emails, 1, Messages.text("hello")); // the @BeforeEach's store is this one
      SEEN.add(tenure);
    }
  }

  @Test
  void each_test_gets_a_fresh_store_shared_with_its_lifecycle_methods_and_closed_after_them() {
    run(TwoTests.class).assertStatistics(stats -> stats.started(2).succeeded(2));

    assertThat(SEEN).hasSize(4);
    Tenure first = (Tenure) SEEN.get(0);
    Tenure second = (Tenure) SEEN.get(2);
    assertThat(first).isNotSameAs(second);
    assertThat(SEEN.get(1)).as("the @AfterEach still has the store").isEqualTo(1L);
    for (Tenure closed : List.of(first, second)) {
      assertThatThrownBy(() -> closed.queue("emails", QueuePolicy.defaults()))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("is closed");
    }
  }

  @ExtendWith(TenureExtension.class)
  static class BeforeAllParameter {
    @BeforeAll
    static void shared(Tenure tenure) {}

    @Test
    void never() {}
  }

  @Test
  void a_store_asked_for_outside_a_test_methods_life_is_refused_by_name() {
    EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(BeforeAllParameter.class))
        .execute()
        .containerEvents()
        .failed()
        .assertThatEvents()
        .singleElement()
        .satisfies(
            event ->
                assertThat(
                        event
                            .getPayload(org.junit.platform.engine.TestExecutionResult.class)
                            .orElseThrow()
                            .getThrowable()
                            .orElseThrow())
                    .isInstanceOf(ParameterResolutionException.class)
                    .hasMessageContaining(
                        "TenureExtension gives each test method a store of its own: take Tenure as"
                            + " a parameter of a @Test, @BeforeEach or @AfterEach method"));
  }

  @Test
  void bad_configuration_is_refused_when_it_is_written() {
    assertThatThrownBy(() -> TenureExtension.sqlite().startingAt(Instant.EPOCH))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("a SQLite store runs on its database's own clock");
    assertThatThrownBy(
            () -> TenureExtension.url("jdbc:postgresql://db/app").startingAt(Instant.EPOCH))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> TenureExtension.inMemory().startingAt(null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TenureExtension.url(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("got null");
    assertThatThrownBy(() -> TenureExtension.url("sqlite:app.db"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("use sqlite() for SQLite");
    assertThatThrownBy(() -> TenureTestKit.url("postgresql://db/app?password=secret"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageNotContaining("secret");
    assertThat(TenureExtension.inMemory().startingAt(Instant.EPOCH))
        .hasToString("TenureExtension[in-memory, clock from 1970-01-01T00:00:00Z]");
  }

  @Test
  void a_kit_opened_by_hand_works_until_it_is_closed() {
    Tenure tenure;
    try (TenureTestKit kit = TenureTestKit.inMemory(Instant.parse("2030-06-01T00:00:00Z"))) {
      tenure = kit.tenure();
      Queue jobs = tenure.queue("jobs", QueuePolicy.defaults());
      jobs.enqueue(OutgoingMessage.text("one"));
      assertThat(kit.drain(jobs, delivery -> {}).handled()).isEqualTo(1);
      assertThat(kit.clock().now()).isEqualTo(Instant.parse("2030-06-01T00:00:00Z"));
      assertThat(kit.toString()).contains("TenureTestKit[Tenure[memory");
    }
    assertThatThrownBy(tenure::admin).isInstanceOf(IllegalStateException.class);
  }
}
