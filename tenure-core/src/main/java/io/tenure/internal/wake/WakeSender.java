package io.tenure.internal.wake;

import io.tenure.NodeInfo;
import io.tenure.NodeStatus;
import io.tenure.Ticker;
import io.tenure.spi.MembershipStore;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends wake-ups (a queue's, or agents placed) to the nodes that advertise a {@code
 * wake:udp:HOST:PORT} capability, on its own daemon thread, so an enqueue never waits for a
 * datagram or a membership read. The members are read at most once per {@link #REFRESH}; a node
 * that joined since is polled until the next read. Sending is best effort: a failed send is counted
 * and forgotten, as a lost datagram would be.
 */
public final class WakeSender implements AutoCloseable {
  /** How long a read of the members serves: the default heartbeat cadence. */
  static final Duration REFRESH = Duration.ofSeconds(1);

  /** The least time between two wake-ups of one queue (see {@link WakePacer}). */
  static final Duration WINDOW = Duration.ofMillis(5);

  /**
   * When a transactional enqueue's wake-ups go out after the call returned: the caller commits
   * later, at a time Tenure cannot see, so one wake-up soon after, and repeats for slower commits.
   */
  static final List<Duration> AFTER_TRANSACTION =
      List.of(Duration.ofMillis(2), Duration.ofMillis(40), Duration.ofMillis(500));

  private static final Logger LOG = LoggerFactory.getLogger(WakeSender.class);

  private record Due(long at, Wake wake) {}

  private final MembershipStore members;
  private final Ticker ticker;
  private final Object lock = new Object();
  private final WakePacer<Wake> pacer = new WakePacer<>(WINDOW.toNanos());
  private final PriorityQueue<Due> later = new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
  private final List<Wake> now = new ArrayList<>();
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private List<InetSocketAddress> peers = List.of();
  private long peersReadAt;
  private boolean peersRead;
  private @Nullable DatagramSocket socket;
  private @Nullable Thread thread;
  private boolean closed;

  /**
   * @param members where the nodes advertise their wake-up addresses
   */
  public WakeSender(MembershipStore members, Ticker ticker) {
    this.members = members;
    this.ticker = ticker;
  }

  /** A commit on {@code queue} just returned: wake its consumers now. */
  public void committed(String queue) {
    offer(new Wake.OfQueue(queue));
  }

  /**
   * The leader's placement transaction just committed: every node sweeps its agents now. Paced as a
   * queue's wake-ups are, so a burst of passes sends one datagram per member at once and at most
   * one more per window.
   */
  public void agentsPlaced() {
    offer(Wake.AGENTS_PLACED);
  }

  private void offer(Wake wake) {
    synchronized (lock) {
      if (!ensureStarted()) {
        return;
      }
      if (pacer.offer(wake, ticker.read())) {
        now.add(wake);
      }
      // Also when folded: the thread may be waiting without a deadline, and must now wake for the
      // trailing wake-up at the window's end.
      lock.notifyAll();
    }
  }

  /**
   * An enqueue inside a caller's transaction returned; its commit comes later, so the wake-ups go
   * out {@link #AFTER_TRANSACTION} after now.
   */
  public void enqueuedInTransaction(String queue) {
    synchronized (lock) {
      if (!ensureStarted()) {
        return;
      }
      long at = ticker.read();
      Wake wake = new Wake.OfQueue(queue);
      for (Duration delay : AFTER_TRANSACTION) {
        later.add(new Due(at + delay.toNanos(), wake));
      }
      lock.notifyAll();
    }
  }

  /**
   * @return datagrams sent
   */
  public long sent() {
    return sent.get();
  }

  /**
   * @return datagrams that could not be sent
   */
  public long failed() {
    return failed.get();
  }

  /** Stops the thread and closes the socket. Idempotent. */
  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
      lock.notifyAll();
      if (socket != null) {
        socket.close();
      }
    }
  }

  /** The socket and thread start with the first wake-up: a Tenure that never enqueues has none. */
  private boolean ensureStarted() {
    if (closed) {
      return false;
    }
    if (thread == null) {
      try {
        socket = new DatagramSocket();
      } catch (SocketException e) {
        LOG.warn("wake-ups are off in this process: no UDP socket: {}", e.toString());
        closed = true;
        return false;
      }
      thread = Thread.ofPlatform().daemon().name("tenure-wake-send").start(this::loop);
    }
    return true;
  }

  private void loop() {
    while (true) {
      List<Wake> batch;
      boolean refresh;
      synchronized (lock) {
        batch = take();
        while (batch.isEmpty() && !closed) {
          waitUntil(Math.min(pacer.nextDue(), later.isEmpty() ? Long.MAX_VALUE : later.peek().at));
          batch = take();
        }
        if (closed) {
          return;
        }
        refresh = !peersRead || ticker.read() - peersReadAt >= REFRESH.toNanos();
      }
      if (refresh) {
        readPeers();
      }
      send(batch);
    }
  }

  /** Under the lock: what is due now. */
  private List<Wake> take() {
    long t = ticker.read();
    while (!later.isEmpty() && later.peek().at - t <= 0) {
      Wake wake = later.poll().wake;
      if (pacer.offer(wake, t)) {
        now.add(wake);
      }
    }
    now.addAll(pacer.due(t));
    List<Wake> batch = List.copyOf(now);
    now.clear();
    return batch;
  }

  private void waitUntil(long at) {
    try {
      if (at == Long.MAX_VALUE) {
        lock.wait();
      } else {
        long nanos = at - ticker.read();
        if (nanos > 0) {
          TimeUnit.NANOSECONDS.timedWait(lock, nanos);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closed = true;
    }
  }

  private void readPeers() {
    List<InetSocketAddress> read = new ArrayList<>();
    try {
      for (NodeInfo node : members.read().nodes()) {
        if (node.status() == NodeStatus.ACTIVE) {
          node.capabilities().stream()
              .map(WakeSender::address)
              .flatMap(Optional::stream)
              .forEach(read::add);
        }
      }
    } catch (RuntimeException e) {
      LOG.debug(
          "wake-ups: could not read the members; sending to the last known: {}", e.toString());
      return;
    }
    synchronized (lock) {
      peers = List.copyOf(read);
      peersReadAt = ticker.read();
      peersRead = true;
    }
  }

  private void send(List<Wake> wakes) {
    List<InetSocketAddress> to;
    DatagramSocket out;
    synchronized (lock) {
      to = peers;
      out = socket;
    }
    if (out == null) {
      return;
    }
    for (Wake wake : wakes) {
      byte[] data = WakeDatagram.encode(wake);
      for (InetSocketAddress peer : to) {
        try {
          out.send(new DatagramPacket(data, data.length, peer));
          sent.incrementAndGet();
        } catch (IOException | RuntimeException e) {
          failed.incrementAndGet();
          LOG.debug("wake-up {} to {} not sent: {}", wake, peer, e.toString());
        }
      }
    }
  }

  /**
   * @return the address in a {@code wake:udp:HOST:PORT} capability, or empty if it is not one
   */
  static Optional<InetSocketAddress> address(String capability) {
    if (!capability.startsWith(WakeHost.CAPABILITY_PREFIX)) {
      return Optional.empty();
    }
    String rest = capability.substring(WakeHost.CAPABILITY_PREFIX.length());
    int colon = rest.lastIndexOf(':');
    if (colon <= 0) {
      return Optional.empty();
    }
    try {
      int port = Integer.parseInt(rest.substring(colon + 1));
      if (port < 1 || port > 65_535) {
        return Optional.empty();
      }
      // Resolved once per read of the members, not per datagram.
      return Optional.of(new InetSocketAddress(rest.substring(0, colon), port))
          .filter(a -> !a.isUnresolved());
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
