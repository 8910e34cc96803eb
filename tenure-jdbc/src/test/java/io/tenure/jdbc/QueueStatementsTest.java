package io.tenure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.MessageStatus;
import io.tenure.QueueMessage;
import io.tenure.spi.NewMessage;
import io.tenure.spi.QueueStore;
import io.tenure.spi.TablePrefix;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's way into the store's SQL: {@link QueueStatements} on PostgreSQL claims and
 * deletes as the store does, so a drain over plain JDBC with them measures Tenure's statements.
 */
class QueueStatementsTest {
  private static final Duration LEASE = Duration.ofMinutes(5);

  private final JdbcFixture fixture = JdbcFixture.of(JdbcFixture.Kind.POSTGRES);

  @AfterEach
  void close() {
    fixture.close();
  }

  @Test
  void the_exported_claim_and_done_take_and_delete_messages_as_the_store_does()
      throws SQLException {
    TablePrefix prefix = fixture.freshPrefix();
    JdbcStore store = (JdbcStore) fixture.open(prefix);
    QueueStore queues = store.queues();
    List<Long> ids = enqueue(queues, 3);
    QueueStatements statements = QueueStatements.of(store);
    String token = UUID.randomUUID().toString();
    Map<String, Object> values = QueueStatements.claimValues("q", 2, "raw-node", token, LEASE);

    assertThat(statements.claim().text()).contains(":queue", ":window", ":max", ":token");
    List<Long> claimed = new ArrayList<>();
    try (Connection connection = fixture.openConnection().orElseThrow()) {
      try (PreparedStatement claim =
          connection.prepareStatement(statements.claim().jdbcText(values))) {
        statements.claim().bind(claim, values);
        try (ResultSet rows = claim.executeQuery()) {
          while (rows.next()) {
            claimed.add(rows.getLong("id"));
          }
        }
      }
      assertThat(claimed).containsExactlyInAnyOrder(ids.get(0), ids.get(1));
      QueueMessage held = queues.find(ids.get(0)).orElseThrow();
      assertThat(held.status()).isEqualTo(MessageStatus.INFLIGHT);
      assertThat(held.ownerNode()).isEqualTo("raw-node");
      assertThat(held.claimToken()).isEqualTo(token);

      assertThat(delete(connection, statements, "another token", claimed)).isZero();
      assertThat(delete(connection, statements, token, claimed)).isEqualTo(2);
    }
    assertThat(queues.find(ids.get(0))).isEmpty();
    assertThat(queues.find(ids.get(2)).orElseThrow().status()).isEqualTo(MessageStatus.PENDING);
    assertThat(statements.stats().text()).contains(prefix.table("messages"));
  }

  private static int delete(
      Connection connection, QueueStatements statements, String token, List<Long> ids)
      throws SQLException {
    Map<String, Object> values = Map.of("token", token, "ids", ids);
    try (PreparedStatement delete =
        connection.prepareStatement(statements.deleteIfHeld().jdbcText(values))) {
      statements.deleteIfHeld().bind(delete, values);
      return delete.executeUpdate();
    }
  }

  private static List<Long> enqueue(QueueStore queues, int count) {
    List<NewMessage> batch = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      batch.add(
          new NewMessage(
              "q", null, new byte[] {1}, "text/plain", Map.of(), 0, 3, Duration.ZERO, null));
    }
    return queues.enqueue(batch).stream().map(r -> r.id()).toList();
  }
}
