package io.tenure;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One entry of the bounded cluster history (SPEC §3.8).
 *
 * @param id increasing with time of writing
 * @param at when it was written, by the database clock
 * @param kind what happened
 * @param nodeId the node it concerns
 * @param epoch the leader epoch it concerns, if any
 * @param detail free text, at most 1000 characters
 */
public record ClusterEvent(
    long id, Instant at, Kind kind, String nodeId, @Nullable Long epoch, String detail) {

  /** What happened. */
  public enum Kind {
    /** A node joined. */
    JOINED,
    /** A node became active. */
    ACTIVATED,
    /** A node left gracefully. */
    LEFT,
    /** The leader declared a node dead. */
    DECLARED_DEAD,
    /** A node found its row gone or dead and rejoined as a new incarnation. */
    EJECTED,
    /** A node became leader. */
    LEADER_ACQUIRED,
    /** A node stopped being leader. */
    LEADER_LOST,
    /** An agent started. */
    AGENT_STARTED,
    /** An agent stopped. */
    AGENT_STOPPED,
    /** The leader moved an agent between nodes (a rebalancing move). */
    AGENT_MOVED,
    /** A node released an agent's row after stopping it. */
    AGENT_RELEASED,
    /** A node restored the row of an agent it runs, after the row was lost. */
    AGENT_RESTORED,
    /**
     * The leader met an assignment row it cannot read (written by hand, e.g. an {@code agent_uri}
     * that is not {@code scheme://name}) and skipped it; recorded once per row by each leader.
     */
    AGENT_ROW_SKIPPED
  }
}
