package io.tenure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.QueueMessage;
import io.tenure.spi.ClaimRequest;
import io.tenure.spi.NewMessage;
import io.tenure.spi.QueueStore;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL claims with the walk and the key heads in one statement. The kit's scenario
 * (a_claim_that_takes_from_the_window_and_from_the_key_heads...) runs on a fresh table without
 * statistics, where the planner's heads plan happens to skip the row the walk locked in the same
 * statement; with statistics it does not, and only the heads' "not already walked" condition keeps
 * that row from filling a second place of the claim's limit. So this test analyzes first.
 */
class PostgresClaimStepsTest {
  private static final Duration LEASE = Duration.ofMinutes(5);

  private JdbcFixture fixture;

  @AfterEach
  void close() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void with_statistics_a_claim_takes_a_walked_row_once_and_fills_its_limit_from_the_key_heads()
      throws SQLException {
    fixture = JdbcFixture.of(JdbcFixture.Kind.POSTGRES);
    TablePrefix prefix = fixture.freshPrefix();
    QueueStore queues = fixture.open(prefix).queues();
    long busyHead = enqueue(queues, "busy", 1).get(0);
    long m = enqueue(queues, "m", 1).get(0);
    for (int i = 0; i < 10; i++) {
      enqueue(queues, "busy", QueueStore.MAX_BATCH);
    }
    List<Long> j = enqueue(queues, "j", 2);
    long l = enqueue(queues, "l", 1).get(0);
    assertThat(ids(queues.claim(ClaimRequest.of("q", "node", 1, LEASE)))).containsExactly(busyHead);
    try (Connection connection = fixture.openConnection().orElseThrow();
        Statement statement = connection.createStatement()) {
      statement.execute("ANALYZE " + prefix.table("messages"));
    }

    assertThat(ids(queues.claim(ClaimRequest.of("q", "node", 2, LEASE))))
        .as("m from the window, then the first key head behind the busy backlog")
        .containsExactlyInAnyOrder(m, j.get(0));
    assertThat(ids(queues.claim(ClaimRequest.of("q", "node", 10, LEASE)))).containsExactly(l);
  }

  private static List<Long> enqueue(QueueStore queues, String key, int count) {
    List<NewMessage> batch = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      batch.add(
          new NewMessage(
              "q", key, new byte[] {1}, "text/plain", Map.of(), 0, 3, Duration.ZERO, null));
    }
    return queues.enqueue(batch).stream().map(r -> r.id()).toList();
  }

  private static List<Long> ids(List<QueueMessage> messages) {
    return messages.stream().map(QueueMessage::id).toList();
  }
}
