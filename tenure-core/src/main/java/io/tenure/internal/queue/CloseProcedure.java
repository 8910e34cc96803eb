package io.tenure.internal.queue;

import io.tenure.Ticker;
import java.time.Duration;

/**
 * A consumer's life as a state machine (SPEC §6.6): started once, closed once, every step of
 * closing named and bounded. {@link #step} holds every transition. Closing stops claiming, gives
 * running handlers until the deadline, releases what was claimed but never started (no attempt
 * spent), writes the outcomes of what finished, and abandons (never interrupts) handlers past the
 * deadline: their leases lapse and the reclaim sweep takes their messages back. It never waits
 * without bound: past the deadline only the dispatcher and the resolvers are waited for, each at
 * most {@link #SETTLE}.
 */
final class CloseProcedure {
  /** The most closing waits past its deadline for each kind of thread that runs no handler. */
  static final Duration SETTLE = Duration.ofSeconds(5);

  /** Where a consumer is in its life; each closing state is the step being taken. */
  enum State {
    /** Built, not started: closing it has nothing to stop. */
    NEW,
    /** Claiming, handling and writing outcomes. */
    RUNNING,
    /** Claimers told to stop and waited for until the deadline. */
    STOPPING_CLAIMERS,
    /** The dispatcher interrupted and waited for, past the deadline if need be. */
    STOPPING_DISPATCHER,
    /** The buffer closed; what it held queued for release. */
    RELEASING_UNSTARTED,
    /** Waiting for running handlers until the deadline. */
    AWAITING_HANDLERS,
    /** Handlers past the deadline left running; their messages are no longer tracked. */
    ABANDONING_HANDLERS,
    /** Resolvers writing what is queued, for at most {@link #SETTLE}. */
    WRITING_OUTCOMES,
    /** Nothing left running but abandoned handlers. */
    CLOSED
  }

  /** The work of each step, done by the consumer's parts. */
  interface Steps {
    /** Starts the consumer's threads. */
    void start();

    /** Stops claiming; waits for the claimers until {@code end} (ticker). */
    void stopClaimers(long end);

    /** Interrupts the dispatcher; waits for it until {@code end} (ticker). */
    void stopDispatcher(long end);

    /** Closes the buffer and queues a release of every message it held. */
    void releaseUnstarted();

    /**
     * Waits for running handlers until {@code end} (ticker).
     *
     * @return true if none is running
     */
    boolean awaitHandlers(long end);

    /** Stops tracking the handlers still running after {@code deadline}. */
    void abandonHandlers(Duration deadline);

    /** Lets the resolvers write what is queued; waits for them until {@code end} (ticker). */
    void writeOutcomes(long end);
  }

  private final Steps steps;
  private final Ticker ticker;
  private State state = State.NEW;

  /** The drain deadline of the close in progress, and when it ends (ticker). */
  private Duration deadline = Duration.ZERO;

  private long end;

  CloseProcedure(Steps steps, Ticker ticker) {
    this.steps = steps;
    this.ticker = ticker;
  }

  /**
   * @throws IllegalStateException if already started or closed
   */
  synchronized void start() {
    if (state != State.NEW) {
      throw new IllegalStateException("a consumer starts once; it is " + state);
    }
    state = step(State.NEW, false);
  }

  /** Closes within {@code deadline} plus the settling of the threads that run no handler. */
  synchronized void close(Duration deadline) {
    if (state == State.RUNNING) {
      this.deadline = deadline;
      this.end = ticker.read() + deadline.toNanos();
    }
    while (state != State.CLOSED) {
      state = step(state, true);
    }
  }

  synchronized State state() {
    return state;
  }

  /** Does the work of {@code from} and returns the state it leads to. */
  private State step(State from, boolean closing) {
    if (!closing && from != State.NEW) {
      throw new IllegalStateException("only a new consumer starts; it is " + from);
    }
    return switch (from) {
      case NEW -> {
        if (closing) {
          yield State.CLOSED;
        }
        steps.start();
        yield State.RUNNING;
      }
      case RUNNING -> State.STOPPING_CLAIMERS;
      case STOPPING_CLAIMERS -> {
        steps.stopClaimers(end);
        yield State.STOPPING_DISPATCHER;
      }
      case STOPPING_DISPATCHER -> {
        // The dispatcher answers an interrupt at once, putting back a message it held: wait for
        // that even past the deadline, or the message would be neither released nor handled.
        steps.stopDispatcher(Math.max(end, ticker.read() + SETTLE.toNanos()));
        yield State.RELEASING_UNSTARTED;
      }
      case RELEASING_UNSTARTED -> {
        steps.releaseUnstarted();
        yield State.AWAITING_HANDLERS;
      }
      case AWAITING_HANDLERS ->
          steps.awaitHandlers(end) ? State.WRITING_OUTCOMES : State.ABANDONING_HANDLERS;
      case ABANDONING_HANDLERS -> {
        steps.abandonHandlers(deadline);
        yield State.WRITING_OUTCOMES;
      }
      case WRITING_OUTCOMES -> {
        steps.writeOutcomes(ticker.read() + SETTLE.toNanos());
        yield State.CLOSED;
      }
      case CLOSED -> State.CLOSED;
    };
  }

  /**
   * The longest {@link #close} takes: the deadline, the dispatcher's settling and the resolvers'
   * (each at most {@link #SETTLE}), and a second for the rest.
   */
  static Duration bound(Duration deadline) {
    return deadline.plus(SETTLE.multipliedBy(2)).plusSeconds(1);
  }
}
