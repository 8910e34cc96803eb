package io.tenure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tenure.spi.ClaimRequest;
import io.tenure.spi.NewMessage;
import io.tenure.spi.QueueStore;
import io.tenure.spi.Store;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The MariaDB soak's queue defect, kept from coming back: a FIFO queue whose backlog belongs to a
 * few keys, all with their head in flight, made every claim read (and lock) the whole backlog to
 * find nothing, until claims took seconds and InnoDB ran out of lock memory (error 1206). A claim
 * now reads a bounded window of the queue's front and one probe per key.
 *
 * <p>Work is counted, not timed: the server's {@code Handler_read_*} counters (index and table row
 * reads, summed) before and after each claim. The counter is server-wide, so other sessions can
 * only add to it; the least of three claims is compared.
 */
class MariaDbClaimCostTest {
  private static final int KEYS = 8;
  private static final int BACKLOG = 40_000;

  private JdbcFixture fixture;

  @AfterEach
  void close() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void a_claim_from_a_deep_backlog_of_busy_keys_reads_a_bounded_number_of_rows()
      throws SQLException {
    fixture = JdbcFixture.of(JdbcFixture.Kind.MARIADB);
    Store store = fixture.open(fixture.freshPrefix());
    QueueStore queues = store.queues();
    for (int batch = 0; batch < BACKLOG / QueueStore.MAX_BATCH; batch++) {
      List<NewMessage> messages = new ArrayList<>();
      for (int i = 0; i < QueueStore.MAX_BATCH; i++) {
        messages.add(
            new NewMessage(
                "fifo",
                "key-" + i % KEYS,
                new byte[] {1},
                "text/plain",
                Map.of(),
                0,
                3,
                Duration.ZERO,
                null));
      }
      queues.enqueue(messages);
    }
    ClaimRequest claim = ClaimRequest.of("fifo", "node", 10, Duration.ofMinutes(5));
    assertThat(queues.claim(ClaimRequest.of("fifo", "node", KEYS, Duration.ofMinutes(5))))
        .as("every key's head")
        .hasSize(KEYS);

    long least = leastRowsRead(queues, claim, 0);

    // Reading the backlog once is 40,000 rows (before the fix: more than twice that, all locked);
    // a claim now reads about 8,000, its window of 1,000 rows with their key probes.
    System.out.println("MariaDbClaimCostTest: least rows read by one claim: " + least);
    assertThat(least).as("rows read by one claim, backlog %d", BACKLOG).isLessThan(BACKLOG / 4);
  }

  /**
   * A queue keyed per entity (every message its own key): each row of the window is checked for an
   * older row of its key. With the probe written as {@code status IN ('PENDING', 'INFLIGHT')}
   * MariaDB could not use (queue, status, msg_key, id) for it and read every older row of the queue
   * per row, about window^2 / 2 (a review measured 500,499 rows for 5,000 messages).
   */
  @Test
  void a_claim_from_a_queue_keyed_per_entity_checks_each_key_with_one_probe() throws SQLException {
    fixture = JdbcFixture.of(JdbcFixture.Kind.MARIADB);
    Store store = fixture.open(fixture.freshPrefix());
    QueueStore queues = store.queues();
    for (int batch = 0; batch < 5; batch++) {
      List<NewMessage> messages = new ArrayList<>();
      for (int i = 0; i < QueueStore.MAX_BATCH; i++) {
        messages.add(
            new NewMessage(
                "orders",
                "order-" + batch + "-" + i,
                new byte[] {1},
                "text/plain",
                Map.of(),
                0,
                3,
                Duration.ZERO,
                null));
      }
      queues.enqueue(messages);
    }
    ClaimRequest claim = ClaimRequest.of("orders", "node", 10, Duration.ofMinutes(5));

    long least = leastRowsRead(queues, claim, 10);

    // The window is 1,000 rows; about 7 reads each with one probe per status.
    System.out.println("MariaDbClaimCostTest: least rows read by one per-entity claim: " + least);
    assertThat(least).as("rows read by one claim of 10 from 5,000 keys").isLessThan(20_000);
  }

  /** The least rows read by one of three claims, each expected to take {@code takes} messages. */
  private long leastRowsRead(QueueStore queues, ClaimRequest claim, int takes) throws SQLException {
    long least = Long.MAX_VALUE;
    try (Connection connection = fixture.openConnection().orElseThrow()) {
      for (int i = 0; i < 3; i++) {
        long before = rowsRead(connection);
        assertThat(queues.claim(claim)).as("messages claimed").hasSize(takes);
        least = Math.min(least, rowsRead(connection) - before);
      }
    }
    return least;
  }

  private static long rowsRead(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SHOW GLOBAL STATUS LIKE 'Handler_read%'")) {
      long sum = 0;
      while (rows.next()) {
        sum += rows.getLong(2);
      }
      return sum;
    }
  }
}
