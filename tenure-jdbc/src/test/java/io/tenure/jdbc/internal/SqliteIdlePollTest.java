package io.tenure.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.QueueMessage;
import io.tenure.jdbc.JdbcFixture;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Store;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * On SQLite a write transaction is the database's one write lock. A process frozen during one stops
 * every other node's writes, heartbeats included, until it resumes (issue 15, item 3), so an idle
 * poll must not take it: a claim from an empty queue and a reclaim sweep that finds nothing expired
 * are reads. The test holds the write lock itself, on a connection of its own, and each idle poll
 * must answer while it is held; one that wanted the lock would wait out SQLite's busy timeout (10
 * s, retried) instead.
 */
class SqliteIdlePollTest {
  private static final Duration LEASE = Duration.ofMinutes(5);

  private final JdbcFixture fixture = JdbcFixture.of(JdbcFixture.Kind.SQLITE);

  @AfterEach
  void close() {
    fixture.close();
  }

  @Test
  void idle_polls_answer_while_another_connection_holds_the_write_lock() throws Exception {
    Store store = fixture.open(fixture.freshPrefix());
    QueueStore queues = store.queues();
    queues.claim(ClaimRequest.of("warm-up", "node", 1, LEASE)); // the pool's connections are open

    try (Connection holder = fixture.openConnection().orElseThrow();
        Statement statement = holder.createStatement()) {
      statement.execute("BEGIN IMMEDIATE");
      try {
        CompletableFuture<List<QueueMessage>> claim =
            CompletableFuture.supplyAsync(
                () -> queues.claim(ClaimRequest.of("jobs", "node", 16, LEASE)));
        CompletableFuture<Integer> reclaim =
            CompletableFuture.supplyAsync(
                () ->
                    queues.reclaimExpired(100, expired -> new io.tenure.spi.ReclaimRule.Repend()));

        assertThat(claim.get(5, TimeUnit.SECONDS)).isEmpty();
        assertThat(reclaim.get(5, TimeUnit.SECONDS)).isZero();
      } finally {
        statement.execute("ROLLBACK");
      }
    }
  }
}
