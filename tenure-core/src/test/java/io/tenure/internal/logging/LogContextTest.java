package io.tenure.internal.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class LogContextTest {
  @AfterEach
  void clear() {
    MDC.clear();
  }

  @Test
  void with_adds_for_the_scope_and_puts_the_earlier_values_back() {
    MDC.put("a", "1");
    try (var scope = LogContext.with("a", "2", "b", "3")) {
      assertThat(MDC.getCopyOfContextMap()).isEqualTo(Map.of("a", "2", "b", "3"));
      try (var inner = LogContext.with("b", null)) {
        assertThat(MDC.getCopyOfContextMap()).isEqualTo(Map.of("a", "2"));
      }
      assertThat(MDC.get("b")).isEqualTo("3");
    }
    assertThat(MDC.getCopyOfContextMap()).isEqualTo(Map.of("a", "1"));
  }

  @Test
  void only_hides_the_threads_own_keys_for_the_scope() {
    MDC.put("request", "r-7");
    try (var scope = LogContext.only("tenure.node", "n1")) {
      assertThat(MDC.getCopyOfContextMap()).isEqualTo(Map.of("tenure.node", "n1"));
    }
    assertThat(MDC.getCopyOfContextMap()).isEqualTo(Map.of("request", "r-7"));
  }

  @Test
  void inherit_runs_with_the_makers_context_and_leaves_the_runners_as_it_was() throws Exception {
    var pool = Executors.newSingleThreadExecutor();
    try {
      pool.submit(() -> MDC.put("pooled", "yes")).get();
      MDC.put("tenure.queue", "emails");
      Runnable work =
          LogContext.inherit(
              () ->
                  assertThat(MDC.getCopyOfContextMap())
                      .isEqualTo(Map.of("tenure.queue", "emails")));
      MDC.clear();
      CompletableFuture.runAsync(work, pool).get();
      assertThat(pool.submit(MDC::getCopyOfContextMap).get()).isEqualTo(Map.of("pooled", "yes"));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void keys_and_values_come_in_pairs() {
    assertThatThrownBy(() -> LogContext.with("lonely"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pairs");
  }
}
