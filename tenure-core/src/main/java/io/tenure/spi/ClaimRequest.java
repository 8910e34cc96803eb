package io.tenure.spi;

import io.tenure.Limits;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * What to claim (SPEC §6.2).
 *
 * @param max at most this many messages, 1 to {@link QueueStore#MAX_BATCH}
 * @param lease each claimed message's {@code lease_until = now() + lease}
 * @param strict the whole queue is one sequence (exclusive queues, §6.9): claims only the oldest
 *     unfinished messages in id order, nothing while any message of the queue is in flight (even a
 *     younger one, after a replay), and nothing while the oldest waits for a retry. Otherwise
 *     unordered, except that messages with one key are one sequence each, one in flight at a time.
 * @param guard if set, the claim takes nothing unless the guard holds (exclusive queues)
 */
public record ClaimRequest(
    String queue,
    String nodeId,
    int max,
    Duration lease,
    boolean strict,
    @Nullable AgentGuard guard) {
  /**
   * @throws IllegalArgumentException if {@code max} is out of range, or {@code lease} is not
   *     positive or longer than {@link Limits#MAX_DURATION}
   */
  public ClaimRequest {
    if (max < 1 || max > QueueStore.MAX_BATCH) {
      throw new IllegalArgumentException(
          "claim size must be 1 to " + QueueStore.MAX_BATCH + ", got " + max);
    }
    Limits.checkPositive("lease", lease, Limits.MAX_DURATION);
  }

  /** An unordered (per-key FIFO) claim without a guard. */
  public static ClaimRequest of(String queue, String nodeId, int max, Duration lease) {
    return new ClaimRequest(queue, nodeId, max, lease, false, null);
  }
}
