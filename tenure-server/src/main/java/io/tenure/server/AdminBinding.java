package io.tenure.server;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Binding the admin server's port, and the one-line reasons it can fail: shared by {@link
 * AdminServer#start()} and the check the CLI runs before it opens a store.
 */
final class AdminBinding {
  private AdminBinding() {}

  /**
   * @throws IllegalStateException naming the address if the port is in use or cannot be bound
   */
  static HttpServer open(String host, int port) {
    try {
      return HttpServer.create(new InetSocketAddress(InetAddress.getByName(host), port), 64);
    } catch (IOException e) {
      throw cannotListen(host, port, e);
    }
  }

  /** Binds and frees the port at once, to refuse a port in use before anything else starts. */
  static void probe(String host, int port) {
    try (ServerSocket probe = new ServerSocket()) {
      probe.setReuseAddress(true);
      probe.bind(new InetSocketAddress(InetAddress.getByName(host), port));
    } catch (IOException e) {
      throw cannotListen(host, port, e);
    }
  }

  /**
   * @throws IllegalArgumentException if the host is no address of this machine
   */
  static boolean isLoopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "admin host '" + host + "' is not an address of this machine", e);
    }
  }

  private static IllegalStateException cannotListen(String host, int port, IOException e) {
    String why =
        e instanceof BindException
            ? "the port is in use (choose another with --http, or 0 for any free port)"
            : e.getMessage();
    return new IllegalStateException("cannot listen on " + host + ":" + port + ": " + why, e);
  }
}
