package io.tenure.internal.agents;

import io.tenure.AgentUri;

/** One local action the reconciliation sweep decided (SPEC §5.4). */
sealed interface SweepAction {
  /**
   * @return the agent concerned
   */
  AgentUri uri();

  /** Assigned here and not running: claim the row (if free) and start the agent. */
  record Start(AgentUri uri) implements SweepAction {}

  /**
   * Running here but the row sends it elsewhere, pauses it or frees it: stop, then release the row.
   */
  record StopAndRelease(AgentUri uri) implements SweepAction {}

  /** Owned here but neither running nor wanted here: release the row. */
  record Release(AgentUri uri) implements SweepAction {}

  /** Running here while another node owns the row: stop the local copy, leave the row alone. */
  record StopOrphan(AgentUri uri) implements SweepAction {}

  /** Running here and the row is gone: restore it with claim-if-absent; stop if a peer won. */
  record Restore(AgentUri uri) implements SweepAction {}
}
