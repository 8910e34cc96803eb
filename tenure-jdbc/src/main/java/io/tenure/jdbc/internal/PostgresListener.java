package io.tenure.jdbc.internal;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.Statement;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL {@code LISTEN} on its own connection (outside every pool), read by one daemon thread
 * that hands each notification's payload to a callback. On a lost connection it reconnects after a
 * second; meanwhile consumers fall back to polling, so nothing waits on it for correctness. The
 * driver's {@code PGConnection} is reached by reflection, so the module needs no compile-time tie
 * to the PostgreSQL driver.
 */
final class PostgresListener implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresListener.class);
  private static final int WAIT_MILLIS = 500;

  private final Dialect.ConnectionSource connections;
  private final String channel;
  private final Consumer<String> onNotify;
  private final Thread thread;
  private volatile boolean closed;
  private volatile Connection current;

  PostgresListener(
      Dialect.ConnectionSource connections, String channel, Consumer<String> onNotify) {
    this.connections = connections;
    this.channel = channel;
    this.onNotify = onNotify;
    this.thread = Thread.ofPlatform().daemon().name("tenure-listen-" + channel).start(this::run);
  }

  private void run() {
    while (!closed) {
      try (Connection connection = connections.open()) {
        current = connection;
        try (Statement statement = connection.createStatement()) {
          statement.execute("LISTEN " + channel);
        }
        Object pg = connection.unwrap(Class.forName("org.postgresql.PGConnection"));
        Method poll = pg.getClass().getMethod("getNotifications", int.class);
        poll.setAccessible(true);
        while (!closed) {
          Object[] notifications = (Object[]) poll.invoke(pg, WAIT_MILLIS);
          if (notifications == null) {
            continue;
          }
          for (Object notification : notifications) {
            Method parameter = notification.getClass().getMethod("getParameter");
            parameter.setAccessible(true);
            onNotify.accept((String) parameter.invoke(notification));
          }
        }
      } catch (Exception e) {
        if (closed) {
          return;
        }
        LOG.warn(
            "listening on {} failed; consumers poll until it reconnects: {}",
            channel,
            e.toString());
        try {
          Thread.sleep(1_000);
        } catch (InterruptedException interrupted) {
          return;
        }
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    Connection connection = current;
    if (connection != null) {
      try {
        connection.close();
      } catch (Exception e) {
        LOG.debug("closing the listen connection of {}: {}", channel, e.toString());
      }
    }
    thread.interrupt();
    try {
      thread.join(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
