package io.tenure.internal.wake;

import io.tenure.QueueSettings;
import io.tenure.WakeStats;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A node's end of the wake-ups: a UDP socket bound when the node is built (its port, chosen by the
 * system, goes into the membership row as the capability {@code wake:udp:HOST:PORT}), read from
 * {@link #start} to {@link #close}.
 */
public final class WakeHost implements AutoCloseable {
  /** How a node advertises where it takes wake-ups. */
  public static final String CAPABILITY_PREFIX = "wake:udp:";

  private final DatagramSocket socket;
  private final String host;
  private final WakeReceiver receiver;
  private boolean started;

  private WakeHost(DatagramSocket socket, String host) {
    this.socket = socket;
    this.host = host;
    this.receiver = new WakeReceiver(socket);
  }

  /**
   * Binds a socket on {@code host}, port chosen by the system.
   *
   * @throws IllegalArgumentException if the host is unknown or no socket can be bound on it
   */
  public static WakeHost bind(String host) {
    try {
      InetAddress address = InetAddress.getByName(host);
      DatagramSocket socket = new DatagramSocket(new InetSocketAddress(address, 0));
      return new WakeHost(socket, address.getHostAddress());
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("wake-up host '" + host + "' is unknown", e);
    } catch (SocketException e) {
      throw new IllegalArgumentException(
          "no UDP socket for wake-ups could be bound on '" + host + "': " + e.getMessage(), e);
    }
  }

  /**
   * @param capabilities the node's, to which the wake-up capability is added
   * @return the bound host if the settings turn wake-ups on, else null
   * @throws IllegalArgumentException if the host is unknown or no socket can be bound on it
   */
  public static @Nullable WakeHost forNode(QueueSettings settings, Set<String> capabilities) {
    if (!settings.wakeups()) {
      return null;
    }
    WakeHost host = bind(settings.wakeHost());
    capabilities.add(host.capability());
    return host;
  }

  /**
   * Binds the node's socket as {@link #forNode} does, then builds the node with it. If building
   * throws (the settings refuse the capability advertised, e.g. a host name that resolves to a
   * scoped IPv6 address with its {@code %}), the socket is closed before the exception goes on:
   * nobody else holds it.
   *
   * @param capabilities the node's, to which the wake-up capability is added
   * @param build builds the node with the bound host, or null if wake-ups are off
   * @return what {@code build} returned
   * @throws IllegalArgumentException if the host is unknown or no socket can be bound on it, or
   *     whatever {@code build} throws
   */
  public static <T> T buildWith(
      QueueSettings settings,
      Set<String> capabilities,
      java.util.function.Function<@Nullable WakeHost, T> build) {
    WakeHost host = forNode(settings, capabilities);
    try {
      return build.apply(host);
    } catch (RuntimeException | Error e) {
      if (host != null) {
        host.close();
      }
      throw e;
    }
  }

  /**
   * @return the capability that tells senders where this node takes wake-ups
   */
  public String capability() {
    return CAPABILITY_PREFIX + host + ":" + socket.getLocalPort();
  }

  /**
   * Starts reading.
   *
   * @param onWake wakes the local consumer of the queue named; false if this node has none
   */
  public synchronized void start(String nodeName, Predicate<String> onWake) {
    if (started) {
      throw new IllegalStateException("wake-ups of " + nodeName + " already started");
    }
    started = true;
    receiver.start(nodeName, onWake);
  }

  /**
   * Wakes the node's agent sweep on every agents-placed wake-up read from now on; may be called
   * before or after {@link #start}. Received ones count in {@link #stats}' {@code received}, not in
   * {@code woken}, which counts consumers woken.
   *
   * @param onAgentsPlaced brings the sweep forward; must return quickly (it runs on the reader)
   */
  public void onAgentsPlaced(Runnable onAgentsPlaced) {
    receiver.onAgentsPlaced(onAgentsPlaced);
  }

  /**
   * @param sent how many this node's process sent on its store
   * @return the numbers so far
   */
  public WakeStats stats(LongSupplier sent) {
    return new WakeStats(
        true, sent.getAsLong(), receiver.received(), receiver.dropped(), receiver.woken());
  }

  /** Stops reading. Idempotent. */
  @Override
  public void close() {
    socket.close();
  }
}
