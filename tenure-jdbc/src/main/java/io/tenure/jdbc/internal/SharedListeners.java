package io.tenure.jdbc.internal;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link PostgresListener} per connection source and channel in a process, shared by every
 * subscriber. Stores opened on one data source (several clusters' nodes in one process, or a
 * simulated fleet) would otherwise each hold a connection of that source for a {@code LISTEN}. The
 * listener closes with its last subscriber.
 */
final class SharedListeners {
  private static final Logger LOG = LoggerFactory.getLogger(SharedListeners.class);

  private record Key(Object source, String channel) {}

  private record Shared(PostgresListener listener, List<Consumer<String>> subscribers) {}

  // Guarded by itself.
  private static final Map<Key, Shared> OPEN = new HashMap<>();

  private SharedListeners() {}

  /**
   * @param source identifies the database the connections reach: subscribers with an equal source
   *     and channel share one connection
   * @return a handle that ends this subscription
   */
  static AutoCloseable subscribe(
      Object source,
      Dialect.ConnectionSource connections,
      String channel,
      Consumer<String> onNotify) {
    Key key = new Key(source, channel);
    synchronized (OPEN) {
      Shared shared =
          OPEN.computeIfAbsent(
              key,
              k -> {
                List<Consumer<String>> subscribers = new CopyOnWriteArrayList<>();
                return new Shared(
                    new PostgresListener(
                        connections,
                        channel,
                        payload ->
                            subscribers.forEach(
                                s -> {
                                  try {
                                    s.accept(payload);
                                  } catch (RuntimeException e) {
                                    // One subscriber's failure must not cost the others their
                                    // wake-ups, nor the connection.
                                    LOG.warn(
                                        "a subscriber to {} failed: {}", channel, e.toString());
                                  }
                                })),
                    subscribers);
              });
      shared.subscribers().add(onNotify);
    }
    return () -> unsubscribe(key, onNotify);
  }

  private static void unsubscribe(Key key, Consumer<String> onNotify) {
    PostgresListener last = null;
    synchronized (OPEN) {
      Shared shared = OPEN.get(key);
      if (shared == null || !shared.subscribers().remove(onNotify)) {
        return;
      }
      if (shared.subscribers().isEmpty()) {
        OPEN.remove(key);
        last = shared.listener();
      }
    }
    if (last != null) {
      last.close();
    }
  }
}
