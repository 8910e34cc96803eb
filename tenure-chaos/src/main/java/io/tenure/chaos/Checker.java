package io.tenure.chaos;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Decides whether a chaos run kept Tenure's invariants (SPEC §9.4), from the recorded history and
 * the tables' final state only: no clock, no I/O, no randomness, so the same input always gives the
 * same report, whatever order the history arrives in.
 *
 * <p>The definitions, which the numbers in {@link ChaosReport} follow exactly:
 *
 * <ul>
 *   <li><b>Order.</b> Events are ordered by ({@code at}, {@code id}): the database clock, ties
 *       broken by insertion order. "Before" and "after" below mean this order.
 *   <li><b>Counts.</b> {@code enqueued}: distinct message ids with an {@code ENQUEUED} event.
 *       {@code handled}: distinct message ids with at least one {@code HANDLED} event. {@code
 *       dead}: enqueued messages whose final status is {@code DEAD} (handled or not). {@code
 *       faults}: all {@code FAULT} events.
 *   <li><b>lost</b>: enqueued messages with no {@code HANDLED} event whose final status is absent
 *       (deleted) or {@code DONE}. A {@code DEAD} message is dead, not lost.
 *   <li><b>stranded</b>: enqueued messages with no {@code HANDLED} event whose final status is
 *       {@code PENDING} or {@code INFLIGHT}. A message that was handled and is still pending or in
 *       flight (its done was lost and it will run again) is neither lost nor stranded; it is listed
 *       under the note {@code handledOutcomeNotWritten} ("handled, outcome not written").
 *   <li><b>duplicateDeliveries</b>: the sum over messages of (their {@code HANDLED} events - 1),
 *       for messages handled more than once. Allowed by at-least-once delivery; only reported.
 *   <li><b>fifoOrderViolations</b>: for each (queue, key) with a non-null key (every message of an
 *       exclusive queue carries {@link HistoryEvent#EXCLUSIVE}, so the whole queue is one key), the
 *       messages in enqueue order (message id ascending) and each one's FIRST {@code HANDLED}
 *       event. A message counts once if its first handling came before the first handling of an
 *       older message of the same key. Only messages that were ever handled take part: a message
 *       never handled does not block younger ones (a dead head releases its key in Tenure; a
 *       stranded or lost one is counted as such, not as an order violation). Redeliveries after a
 *       first handling do not count: a key's order is the order of first handlings.
 *   <li><b>keyOverlaps</b>: at most one message of a key in flight (SPEC §6.2). Per (queue, key),
 *       in id order, each message whose first {@code HANDLING} event came before the end of the
 *       finishing handling of an older message of its key. A message's finishing handling is its
 *       {@code HANDLED} event of the highest attempt (latest if two share one: a release gives its
 *       attempt back): only the latest claim's done can free the key when resolves check the claim
 *       token. The handler of a superseded claim, on a frozen node, may still be running when the
 *       key moves on; that is not an overlap. Unordered messages, and messages without {@code
 *       HANDLING} events, take no part.
 *   <li><b>staleEpochWritesAccepted</b>: per agent, the {@code FENCED_WRITE_ACCEPTED} events in
 *       order; each whose epoch is lower than the highest epoch accepted before it for that agent.
 *       Plus each leader assignment write ({@code LEADER_WRITE}, see {@link LeaderWrites}) that
 *       began after a {@code LEADER} event of a higher epoch and was applied ({@code
 *       LEADER_WRITE_APPLIED} with its token): the new leader is recorded after it acquired the
 *       lease, so the old epoch had expired before that write began, and its fence must refuse it.
 *   <li><b>agentOverlaps</b>: a frozen (SIGSTOPped) owner that resumes is expected to go on running
 *       for a while, until it notices it lost its lease; what SPEC §5.5 forbids is two owners both
 *       having effects. So overlaps are measured by effects, the accepted fenced writes, not by
 *       start and stop intervals. Per agent, over its accepted writes in order, the count is:
 *       <ol type="a">
 *         <li>each accepted write by node A at epoch e after an accepted write by another node at
 *             an epoch higher than e: A was superseded and still had an effect. (Every such write
 *             is also a stale-epoch write.) A node that re-acquires the agent at a higher epoch is
 *             the owner again, not superseded; rejected writes are not effects and never count;
 *         <li>plus, once per pair of nodes per epoch, two different nodes with accepted writes at
 *             the same epoch: two owners of one epoch;
 *         <li>plus each write <em>refused</em> (a higher epoch was in the register) from a node
 *             that was not cut off (paused, its sessions killed, or the whole database slowed or
 *             restarted: a fault on {@link HistoryEvent#EVERY_NODE}) in the {@link
 *             CheckAgents#GRACE} before the fault began or ended (a kill or stop ends the process;
 *             its restart is healthy): a healthy node still ran an agent someone else had taken.
 *             The two-phase hand-off (SPEC §5.3) stops the owner before the target starts, and a
 *             dead node's agents move only after its self-fence deadline, so a healthy owner is
 *             never superseded while it runs; only a frozen or cut-off one can be, and it stops
 *             within its self-fence time once it can notice. This is what catches a broken hand-off
 *             or fence while the register still refuses the stale writes.
 *       </ol>
 *   <li><b>leaderOverlaps</b>: two nodes believing they lead at once (SPEC §4.7). Each node samples
 *       its own {@code leaderFence()} every 5 ms and records an interval from its first to its last
 *       sample at one epoch ({@code LEADING}, {@code LEADING_ENDED}, each timed as its row's
 *       database time less the delay the node measured before writing it). An interval that was
 *       never ended closes at the node's next kill or stop fault, its next {@code LEADING}, or the
 *       end of the history. The count is the pairs of intervals of different nodes that overlap by
 *       more than {@link CheckLeaders#TOLERANCE} (50 ms). A frozen node samples nothing, so its
 *       interval ends before the freeze; what counts is a node that went on answering it leads
 *       after another began to.
 *   <li><b>leaderBounces</b>: pauses of the leader (a {@code pause} fault whose target the last
 *       {@code LEADER} event named) after which {@code LEADER} events named more than one new epoch
 *       between the pause and {@link CheckLeaders#SETTLE} (5 s) after its resume, with no other
 *       fault in that window: one pause, one leader change at most (SPEC §4.7).
 *   <li><b>unconvergedAgents</b>: expected agents whose final owner is absent or null, or names a
 *       node that is not among the live nodes.
 *   <li><b>Slots.</b> A message stands for the slot its dedupe key names ({@code
 *       tenure-schedule:NAME@MICROS}, anything after a {@code #} ignored: {@link SlotKey}). The
 *       messages of a (schedule, slot) are the ids of the schedules' queue that the final table
 *       holds with that key (done ones are kept) together with those of its {@code SLOT_HANDLED}
 *       events. {@code slotsFired}: distinct (schedule, slot) pairs with a message.
 *   <li><b>duplicateSlots</b>: per (schedule, slot), each message beyond the first. A message
 *       handled twice is one message (a duplicate delivery, not a duplicate slot).
 *   <li><b>missedSlots</b>: per expected schedule, the sum of:
 *       <ol type="a">
 *         <li>1 if its row is not in the final table;
 *         <li>each slot from its lowest slot up to (not including) the row's next slot at the end
 *             that no message carries. The row moves past a slot in the transaction that enqueues
 *             the slot's message (SPEC §10.2), and the row is read before the messages, so every
 *             slot below it has fired: no slot still due at the end is counted here. The lowest
 *             slot is the lower of the lowest any message carries and the first slot more than 1 ms
 *             after its first {@code SCHEDULE_DECLARED} event (the schedule existed by then, so its
 *             first slot was no later);
 *         <li>each slot from the row's next slot up to {@link CheckSchedules#SETTLE} (10 s) before
 *             the row was read (overdue: a live leader fires a slot within a second);
 *         <li>the slots the row counts as skipped by its missed-slot policy (the run's schedules
 *             catch up 1,000 slots, so none should be).
 *       </ol>
 *   <li><b>Lock writes.</b> {@code lockWrites}: {@code LOCK_WRITE} events, each a fenced write that
 *       committed, with its lock, its token and its place in the commit order ({@link LockWrites});
 *       {@code lockWritesRefused}: {@code LOCK_WRITE_REFUSED} events.
 *   <li><b>lockOverlaps</b>: per lock, its writes in commit order: each whose token is lower than
 *       the highest token of a write committed before it (a superseded holder's write landed after
 *       its successor's); plus, once per pair of nodes per token, two different nodes' writes at
 *       one token.
 *   <li><b>limitExceeded</b>: on the limited queue ({@link ChaosWorkload#LIMITS}), each message's
 *       sure time in flight runs from its {@code HANDLING} event to the earlier of its {@code
 *       HANDLED} event (same message and claim token) and the lease it was claimed with (in the
 *       {@code HANDLING} event's detail; a handling with no {@code HANDLED} event runs to that
 *       lease). Sweeping these half-open times in order, each start that makes more messages in
 *       flight than the queue's limit, or more of one group than the group limit, counts once. The
 *       count at an instant never exceeds what the store really had in flight, so any is a
 *       violation.
 *   <li><b>cancels</b>: {@code CANCELLED} events whose outcome is {@code CANCELLED} or {@code
 *       CANCELLED_RUNNING}. <b>cancelledCompleted</b>: those whose message's final status is not
 *       {@code CANCELLED} (done, or deleted as a done message is): a done accepted over a cancel. A
 *       cancelled message never handled is neither lost nor stranded.
 *   <li><b>Disruptive faults.</b> A {@code FAULT} whose detail's first word (up to the first
 *       whitespace, case-insensitive) is {@code kill}, {@code pause} or {@code stop}; its target is
 *       the event's node. Other faults (e.g. {@code kill-connections}) count in {@code faults}
 *       only.
 *   <li><b>failoverMs</b>: for each disruptive fault whose target was leader at that moment (the
 *       last {@code LEADER} event before the fault names it), the time from the fault to the next
 *       {@code LEADER} event naming a different node, or the same node at a higher epoch than it
 *       led at when faulted. p50 (nearest rank) and max over those faults, in milliseconds; null if
 *       there is no such time. A leader fault never followed by a new leader counts in {@code
 *       unfailedOver} (a failover of "never"), contributes no time, and is listed in the examples.
 *   <li><b>convergenceMs</b>: for each disruptive fault, the agents its target owned at that moment
 *       (the latest accepted write of the agent before the fault is the target's); for each, the
 *       time until the agent's first accepted write at a higher epoch than its last one before the
 *       fault: by another node, or by the target's next incarnation (a killed or stopped node is
 *       started again under its name and may be given the agent back). The fault's convergence is
 *       the max over those of its agents that moved; p50 (nearest rank) and max over faults with at
 *       least one agent that moved, in milliseconds; null if none. An agent that never moves is
 *       listed under the note {@code agentsNotMovedAfterFault}; it counts in {@code
 *       unconvergedAgents} only if the final state says so, never twice.
 * </ul>
 */
public final class Checker {
  /** Examples key: handled messages still pending or in flight at the end (not a violation). */
  static final String HANDLED_OUTCOME_NOT_WRITTEN = "handledOutcomeNotWritten";

  /**
   * Examples key: agents a fault's target owned that were never written at a newer epoch
   * afterwards.
   */
  static final String NOT_MOVED_AFTER_FAULT = "agentsNotMovedAfterFault";

  /** The history's one order: the database clock, ties by insertion order. */
  static final Comparator<HistoryEvent> ORDER =
      Comparator.comparing(HistoryEvent::at).thenComparingLong(HistoryEvent::id);

  private static final Set<String> DISRUPTIVE = Set.of("kill", "pause", "stop");

  private Checker() {}

  /**
   * Checks a run; see the class comment for every definition.
   *
   * @param history the run's events, in any order
   * @param end the tables as read after the quiet period
   * @return the report; {@link ChaosReport#safe()} says whether every safety invariant held
   * @throws IllegalArgumentException if an event lacks what its kind needs (a message event without
   *     a queue or message id, an agent event without an agent), naming the event
   * @throws NullPointerException if {@code history}, an event or {@code end} is null
   */
  public static ChaosReport check(List<HistoryEvent> history, FinalState end) {
    List<HistoryEvent> events = history.stream().sorted(ORDER).toList();
    events.forEach(Checker::validate);
    CheckExamples examples = new CheckExamples();
    CheckMessages.Counts messages = CheckMessages.check(events, end, examples);
    CheckAgents.Counts agents = CheckAgents.check(events, end, examples);
    CheckFaults.Times times = CheckFaults.check(events, examples);
    CheckLeaders.Counts leaders = CheckLeaders.check(events, examples);
    CheckSchedules.Counts schedules = CheckSchedules.check(events, end, examples);
    CheckLocks.Counts locks = CheckLocks.check(events, examples);
    CheckLimits.Counts limits = CheckLimits.check(events, examples);
    CheckCancels.Counts cancels = CheckCancels.check(events, end, examples);
    return new ChaosReport(
        messages.enqueued(),
        messages.handled(),
        messages.dead(),
        times.faults(),
        schedules.slotsFired(),
        locks.writes(),
        locks.refused(),
        messages.lost(),
        messages.stranded(),
        messages.duplicateDeliveries(),
        agents.overlaps(),
        agents.staleEpochWrites() + CheckAgents.staleLeaderWrites(events, examples),
        messages.fifoOrderViolations(),
        messages.keyOverlaps(),
        agents.unconverged(),
        leaders.overlaps(),
        leaders.bounces(),
        schedules.missedSlots(),
        schedules.duplicateSlots(),
        locks.overlaps(),
        cancels.cancels(),
        limits.limitExceeded(),
        cancels.cancelledCompleted(),
        times.unfailedOver(),
        ChaosReport.Millis.of(times.failovers()),
        ChaosReport.Millis.of(times.convergences()),
        examples.toMap());
  }

  /** Whether a fault stops its target from working: see "Disruptive faults" above. */
  static boolean disruptive(HistoryEvent fault) {
    return DISRUPTIVE.contains(firstWord(fault));
  }

  /** Whether a fault ends its target's process: a kill or a stop. */
  static boolean endsProcess(HistoryEvent fault) {
    String word = firstWord(fault);
    return word.equals("kill") || word.equals("stop");
  }

  /** Whether a fault freezes its target's process. */
  static boolean isPause(HistoryEvent fault) {
    return firstWord(fault).equals("pause");
  }

  private static String firstWord(HistoryEvent fault) {
    String detail = fault.detail();
    if (detail == null || detail.isBlank()) {
      return "";
    }
    return detail.strip().split("\\s+", 2)[0].toLowerCase(Locale.ROOT);
  }

  private static void validate(HistoryEvent event) {
    switch (event.kind()) {
      case ENQUEUED, HANDLED, CANCELLED -> {
        if (event.queue() == null || event.message() == 0) {
          throw new IllegalArgumentException(
              "history event "
                  + event.id()
                  + " ("
                  + event.kind()
                  + ") needs a queue and a message id: "
                  + event);
        }
      }
      case AGENT_STARTED, AGENT_STOPPED, FENCED_WRITE_ACCEPTED, FENCED_WRITE_REJECTED -> {
        if (event.agent() == null) {
          throw new IllegalArgumentException(
              "history event " + event.id() + " (" + event.kind() + ") needs an agent: " + event);
        }
      }
      case HANDLING -> {
        if (event.queue() == null || event.message() == 0) {
          throw new IllegalArgumentException(
              "history event "
                  + event.id()
                  + " (HANDLING) needs a queue and a message id: "
                  + event);
        }
      }
      case LEADER_WRITE, LEADER_WRITE_APPLIED -> {
        if (event.token() == null) {
          throw new IllegalArgumentException(
              "history event " + event.id() + " (" + event.kind() + ") needs a token: " + event);
        }
      }
      case SCHEDULE_DECLARED, LOCK_WRITE_REFUSED -> {
        if (event.key() == null) {
          throw new IllegalArgumentException(
              "history event " + event.id() + " (" + event.kind() + ") needs a name: " + event);
        }
      }
      case SLOT_HANDLED -> {
        if (event.key() == null || event.message() == 0) {
          throw new IllegalArgumentException(
              "history event "
                  + event.id()
                  + " (SLOT_HANDLED) needs a schedule and a message id: "
                  + event);
        }
      }
      case LOCK_WRITE -> {
        if (event.key() == null || event.message() < 1 || event.epoch() < 1) {
          throw new IllegalArgumentException(
              "history event "
                  + event.id()
                  + " (LOCK_WRITE) needs a lock, a token and its commit order: "
                  + event);
        }
      }
      case LEADER, LEADING, LEADING_ENDED, FAULT, FAULT_END -> {}
    }
  }
}
