package io.tenure.chaos;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One line of a chaos run's history, written by the process that saw it happen, stamped with the
 * database clock when it was written (so events from different processes order by one clock).
 *
 * @param id the history row's id: increasing in insertion order (ties on {@code at} break by it)
 * @param at the database clock when the row was written
 * @param kind what happened
 * @param node the node name that did it ({@code supervisor} for the harness itself; a fault's
 *     target, {@link #EVERY_NODE} for one that hits every node)
 * @param queue the queue, for message events
 * @param key the message's ordering key; {@link #EXCLUSIVE} for a message of an exclusive queue
 *     (strict order over the whole queue); null for an unordered message; the schedule's name
 *     ({@code SCHEDULE_DECLARED}, {@code SLOT_HANDLED}); the lock's name ({@code LOCK_WRITE},
 *     {@code LOCK_WRITE_REFUSED})
 * @param message the message id, for message events; for {@code LEADING} and {@code LEADING_ENDED},
 *     how many milliseconds before {@code at} the node was seen; for {@code LOCK_WRITE}, the
 *     write's place in the commit order; 0 otherwise
 * @param agent the agent URI, for agent events
 * @param epoch the agent's ownership epoch (agent events), the leader epoch ({@code LEADER}), or
 *     the claim's attempt number ({@code HANDLING}, {@code HANDLED}: a message's claims count up,
 *     except that a release gives its number back); the slot in microseconds since the epoch
 *     ({@code SLOT_HANDLED}); the lock's fencing token ({@code LOCK_WRITE}, {@code
 *     LOCK_WRITE_REFUSED}); 0 otherwise
 * @param token the claim token of a message being handled, the pairing token of a leader write, or
 *     null
 * @param detail free text: a fault's kind and target, an error; for {@code HANDLING} of the limited
 *     queue, {@code group=G leaseUntil=INSTANT} (the claim's group and its lease as claimed,
 *     database clock); for {@code CANCELLED}, the cancel's outcome
 */
public record HistoryEvent(
    long id,
    Instant at,
    Kind kind,
    String node,
    @Nullable String queue,
    @Nullable String key,
    long message,
    @Nullable String agent,
    long epoch,
    @Nullable String token,
    @Nullable String detail) {

  /** The node of a fault that hits every node at once (e.g. a slowed database). */
  public static final String EVERY_NODE = "*";

  /** The key recorded for every message of an exclusive queue: the whole queue is one sequence. */
  public static final String EXCLUSIVE = "*exclusive*";

  /** What happened. */
  public enum Kind {
    /** The workload enqueued {@code message} to {@code queue} (with {@code key}); committed. */
    ENQUEUED,
    /**
     * A handler on {@code node} began {@code message} (claim {@code token}, attempt {@code epoch}).
     */
    HANDLING,
    /**
     * A handler on {@code node} finished {@code message} (claim {@code token}, attempt {@code
     * epoch}) without error.
     */
    HANDLED,
    /** {@code agent} started on {@code node} at {@code epoch}. */
    AGENT_STARTED,
    /** {@code agent} stopped on {@code node} (its start was at {@code epoch}). */
    AGENT_STOPPED,
    /**
     * {@code agent} on {@code node}, at {@code epoch}, wrote to the fenced register and the write
     * was accepted (the register held no higher epoch).
     */
    FENCED_WRITE_ACCEPTED,
    /** As above, refused: the register already held a higher epoch. */
    FENCED_WRITE_REJECTED,
    /** {@code node} became leader at {@code epoch}. */
    LEADER,
    /**
     * {@code node} was first seen answering {@code leaderFence()} at {@code epoch}, {@code message}
     * milliseconds before {@code at}: the start of an interval in which it believed it led.
     */
    LEADING,
    /**
     * {@code node} was last seen answering {@code leaderFence()} at {@code epoch} {@code message}
     * milliseconds before {@code at} (and not since): the end of its interval.
     */
    LEADING_ENDED,
    /**
     * {@code node}, as leader at {@code epoch}, begins an assignment write ({@code detail}: which);
     * {@code token} pairs it with its {@link #LEADER_WRITE_APPLIED}.
     */
    LEADER_WRITE,
    /** The assignment write of {@code token} was applied by the store. */
    LEADER_WRITE_APPLIED,
    /**
     * The harness injected a fault: {@code detail} is its kind ({@code kill}, {@code pause}, ...),
     * {@code node} its target.
     */
    FAULT,
    /** The harness ended a fault (e.g. {@code resume} after a pause), {@code node} its target. */
    FAULT_END,
    /**
     * {@code node} declared the schedule {@code key} at its start; {@code detail} is the store's
     * answer ({@code CREATED}, {@code UNCHANGED} or {@code UPDATED}).
     */
    SCHEDULE_DECLARED,
    /**
     * A handler on {@code node} finished {@code message} of {@code queue} (claim {@code token}),
     * the message of the schedule {@code key} for its slot {@code epoch} (microseconds since the
     * epoch), read from its dedupe key ({@code detail}).
     */
    SLOT_HANDLED,
    /**
     * {@code node}, holding the named lock {@code key} at fencing token {@code epoch}, made a
     * fenced write that committed; {@code message} is its place in the commit order of every fenced
     * write of the run (see {@link LockWrites}), {@code detail} the node's own write number.
     */
    LOCK_WRITE,
    /** As above, but the fence refused: the write was rolled back ({@code message} is 0). */
    LOCK_WRITE_REFUSED,
    /**
     * The supervisor cancelled {@code message} of {@code queue}; {@code detail} is the store's
     * answer ({@code CANCELLED}, {@code CANCELLED_RUNNING}, {@code FINISHED}, {@code NOT_FOUND}).
     */
    CANCELLED
  }
}
