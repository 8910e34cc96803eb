package io.tenure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tenure.OutgoingMessage;
import io.tenure.Queue;
import io.tenure.QueuePolicy;
import io.tenure.spi.Store;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A message the queue's policy allows but MariaDB's {@code max_allowed_packet} refuses is bad input
 * whose message names the server's limit, not "store unavailable", and nothing of its enqueue is
 * written. Before, the server closed the connection in the middle of the statement, the driver
 * reported "Socket error" and Tenure an unavailable store (exit 5 in the CLI).
 *
 * <p>The payloads are just above the server's current limit (16 MiB on the test server), below the
 * policy's largest payload limit. On a server whose limit is above that, the store is opened with
 * the driver's {@code maxAllowedPacket} set lower in its URL, which the driver enforces the same
 * way.
 */
class MariaDbPacketLimitTest {
  /** A limit comfortably below the largest payload a policy allows, for servers that allow more. */
  private static final long CLIENT_LIMIT = 4L << 20;

  private final JdbcFixture fixture = JdbcFixture.of(JdbcFixture.Kind.MARIADB);
  private long limit;
  private Store store;
  private Queue queue;

  @BeforeEach
  void open() throws SQLException {
    long serverLimit = serverLimit();
    String url = fixture.url();
    limit = serverLimit;
    if (serverLimit >= QueuePolicy.MAX_PAYLOAD_LIMIT / 2) {
      url = url + (url.contains("?") ? "&" : "?") + "maxAllowedPacket=" + CLIENT_LIMIT;
      limit = CLIENT_LIMIT;
    }
    store = JdbcStore.builder().url(url).prefix(fixture.freshPrefix()).build();
    queue =
        Queue.on(
            store.queues(),
            "big",
            QueuePolicy.defaults().withPayloadLimit(QueuePolicy.MAX_PAYLOAD_LIMIT));
  }

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
    fixture.close();
  }

  private long serverLimit() throws SQLException {
    try (Connection connection = DriverManager.getConnection(fixture.url());
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT @@max_allowed_packet")) {
      rows.next();
      return rows.getLong(1);
    }
  }

  private static byte[] random(long size) {
    byte[] bytes = new byte[Math.toIntExact(size)];
    new Random(7).nextBytes(bytes);
    return bytes;
  }

  @Test
  void
      a_payload_just_above_max_allowed_packet_is_bad_input_naming_the_limit_and_nothing_is_enqueued() {
    assertThatThrownBy(() -> queue.enqueue(OutgoingMessage.of(random(limit + 1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max_allowed_packet")
        .hasMessageContaining(String.valueOf(limit))
        .hasMessageContaining("nothing was written");

    assertThat(queue.stats().pending()).isZero();
    long small = queue.enqueue(OutgoingMessage.text("still works"));
    assertThat(queue.message(small)).isPresent();
    assertThat(queue.stats().pending()).isEqualTo(1);
  }

  @Test
  void a_payload_below_the_limit_whose_statement_is_above_it_is_bad_input_too() {
    // The driver sends a payload escaped inside the statement text; a NUL byte takes two.
    byte[] nuls = new byte[Math.toIntExact(limit / 2 + 1024)];

    assertThatThrownBy(() -> queue.enqueue(OutgoingMessage.of(nuls)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max_allowed_packet")
        .hasMessageContaining(String.valueOf(limit));

    assertThat(queue.stats().pending()).isZero();
  }

  @Test
  void a_statement_far_above_the_limit_is_bad_input_not_a_lost_connection() {
    // Twice the limit once escaped: a server reading it gives up part-way and closes the
    // connection while the driver is still writing, so only a driver that knows the limit can say
    // why.
    byte[] nuls = new byte[Math.toIntExact(limit + 1)];

    assertThatThrownBy(() -> queue.enqueue(OutgoingMessage.of(nuls)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max_allowed_packet")
        .hasMessageContaining(String.valueOf(limit));

    assertThat(queue.stats().pending()).isZero();
  }

  @Test
  void a_callers_pool_that_tells_the_driver_the_limit_gets_the_same_error() {
    com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
    config.setJdbcUrl(fixture.url());
    config.setMaximumPoolSize(2);
    config.addDataSourceProperty("maxAllowedPacket", String.valueOf(limit));
    try (com.zaxxer.hikari.HikariDataSource pool = new com.zaxxer.hikari.HikariDataSource(config);
        Store callers =
            JdbcStore.builder().dataSource(pool).prefix(fixture.freshPrefix()).build()) {
      Queue onCallersPool = Queue.on(callers.queues(), "big", queue.policy());

      assertThatThrownBy(() -> onCallersPool.enqueue(OutgoingMessage.of(random(limit + 1))))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("max_allowed_packet")
          .hasMessageContaining(String.valueOf(limit));
      assertThat(onCallersPool.stats().pending()).isZero();
    }
  }

  @Test
  void a_batch_with_one_message_too_large_for_the_server_enqueues_none_of_them() {
    List<OutgoingMessage> batch =
        List.of(
            OutgoingMessage.text("first"),
            OutgoingMessage.of(random(limit + 1)),
            OutgoingMessage.text("third"));

    assertThatThrownBy(() -> queue.enqueueAll(batch))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max_allowed_packet");

    assertThat(queue.stats().pending()).isZero();
    assertThat(
            queue.enqueueAll(List.of(OutgoingMessage.text("first"), OutgoingMessage.text("third"))))
        .hasSize(2);
  }
}
