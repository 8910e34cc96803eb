package io.tenure.tck;

import java.lang.reflect.Proxy;
import java.sql.Connection;

/** Connections for stores that take none. */
final class Connections {
  private Connections() {}

  /**
   * @return a connection whose every call fails: what a store without JDBC transactions is handed
   *     to show it refuses before touching it
   */
  static Connection unusable() {
    return (Connection)
        Proxy.newProxyInstance(
            Connections.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              throw new AssertionError("the store used a connection it should have refused");
            });
  }
}
