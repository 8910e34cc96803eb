package io.tenure.tck;

import io.tenure.NodeListener;
import io.tenure.TenureNode;
import io.tenure.spi.LeaderFence;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Watches real nodes for two leaders at once (SPEC §4.7): a node that still answers {@code
 * leaderFence()} with an epoch older than one already promoted on another node believes it leads
 * after its successor began to. Promotions are recorded by a listener (no lock taken, so it can
 * never deadlock with the node it is called on); the nodes are sampled on a thread of their own
 * until {@link #close}.
 */
public final class LeaderOverlaps implements AutoCloseable {
  private final List<TenureNode> nodes = new CopyOnWriteArrayList<>();
  private final AtomicLong newestPromoted = new AtomicLong();
  private final List<String> violations = new CopyOnWriteArrayList<>();
  private final Thread sampler;
  private volatile boolean running = true;

  public LeaderOverlaps() {
    sampler = Thread.ofPlatform().daemon().name("leader-overlaps").start(this::sample);
  }

  /** The listener to register on every watched node. */
  public NodeListener listener() {
    return new NodeListener() {
      @Override
      public void onPromoted(long epoch) {
        newestPromoted.accumulateAndGet(epoch, Math::max);
      }
    };
  }

  /** Starts sampling {@code node}. */
  public void watch(TenureNode node) {
    nodes.add(node);
  }

  private void sample() {
    while (running) {
      for (TenureNode node : nodes) {
        long newest = newestPromoted.get();
        Optional<LeaderFence> fence = node.leaderFence();
        if (fence.isPresent() && fence.get().epoch() < newest) {
          violations.add(
              "node "
                  + node.settings().name()
                  + " still led at epoch "
                  + fence.get().epoch()
                  + " after epoch "
                  + newest
                  + " was promoted");
        }
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * @return every overlap seen so far, as text
   */
  public List<String> violations() {
    return List.copyOf(violations);
  }

  @Override
  public void close() {
    running = false;
    try {
      sampler.join(1_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
