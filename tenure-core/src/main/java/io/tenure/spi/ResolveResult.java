package io.tenure.spi;

import java.util.List;

/**
 * The result of a batch of resolves, which is all or nothing.
 *
 * @param applied ids whose resolve was written as asked: all of the batch, or none; under a refused
 *     guard, the re-pends (release, reschedule, retry), which are never fenced
 * @param lost ids whose claim no longer holds (another claim, a reclaim, a delete): if any, no
 *     resolve of the batch was written (but see {@code guardRefused})
 * @param guardRefused the agent guard did not hold (checked only for a batch with a terminal
 *     outcome): no finish (done, dead letter) was written; every other message of the batch whose
 *     claim still held was re-pended as asked ({@code applied}), and every finished one put back to
 *     {@code PENDING} (owner and token cleared, its attempt given back), never left in flight for a
 *     node that no longer owns the queue
 */
public record ResolveResult(List<Long> applied, List<Long> lost, boolean guardRefused) {
  /** Copies the lists. */
  public ResolveResult {
    applied = List.copyOf(applied);
    lost = List.copyOf(lost);
  }

  /**
   * @return true if the whole batch was written
   */
  public boolean allApplied() {
    return lost.isEmpty() && !guardRefused;
  }
}
