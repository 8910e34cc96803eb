/*
 * The agent hand-off and the node's reconciliation sweep (SPEC §5.3, §5.4, docs/AGENTS.md) for one
 * agent and two nodes, with heartbeats and the self-fence (MembershipKeeper) and the leader's
 * placement abstracted to its writes (docs/MODEL.md).
 *
 * The database holds the agent's row (owner, target, ownership epoch) and each node's last
 * heartbeat, kept as a countdown: the node's published window (MembershipKeeper.mayRunFor:
 * selfFenceAfter + agentSweepInterval + stop deadline) from the heartbeat's statement, by the
 * database clock. The leader, at any moment: moves the agent (sets the target to the other node, at
 * most MOVES times), frees the row of an owner whose window has passed
 * (AgentStore.releaseFromDeadOwner) and re-targets an agent whose target's window has passed.
 *
 * A node: heartbeats every HB ticks, trusting itself SFA from the start of the last heartbeat that
 * succeeded; sweeps every SWEEP ticks; a self-fenced sweep stops the agent and claims nothing; else
 * the sweep compares the row with what it runs: running but targeted elsewhere, stop and then
 * release (owner-scoped); running but owned by another node, stop and leave the row alone; not
 * running and targeted here and free (or its own), claim, and start on the answer. A stop returns
 * within STOPDL, or is abandoned then. Faults: a node pauses for any length (a crash is a pause
 * that never ends), an answer is lost (the statement ran or it did not).
 *
 * A node's copy of the agent counts as running from its start until its stop returned, or until
 * the node's own window (mayRunFor from the start of its last good heartbeat, on its own clock) has
 * passed: past that, the node has stopped it or abandoned the stop (SPEC §5.3), as a paused
 * leader's trust lapses in lease.pml.
 *
 * Negative control (scripts/model-check.sh):
 *   BROKEN_ONE_PHASE   a move frees the row at once (owner := null) instead of waiting for the
 *                      owner to stop and release it: the hand-off without its first phase
 */

#include "common.pml"

#ifndef MAXFAULTS
#define MAXFAULTS 2
#endif
#ifndef MOVES
#define MOVES 2
#endif
#define HB 1
#define SFA 4           /* selfFenceAfter: > HB + STMT + 2 DRIFT, or a healthy node self-fences */
#define SWEEP 2         /* agentSweepInterval */
#define STOPDL 1        /* the agent's stop deadline */
#define PUB (SFA + SWEEP + STOPDL)   /* MembershipKeeper.mayRunFor */
#define STMT 1
#define EMAX 6
/* A node notices its self-fence a moment after selfFenceAfter (one tick here), so it may run its
 * copy for MAYRUN = mayRunFor + 1 ticks of its own clock, up to DRIFT more by the database clock.
 * The model's leader frees a row MARGIN = DRIFT + 1 ticks after heartbeat_at + mayRunFor; the code
 * used to free at heartbeat_at + mayRunFor (JAVA_NO_MARGIN), which the model refutes (docs/MODEL.md,
 * finding F3). MembershipKeeper.mayRunFor now publishes the margin: the watchdog period and 1 % of
 * the window for the clock rate. */
#define MAYRUN (PUB + 1)
#ifdef JAVA_NO_MARGIN
#define MARGIN 0
#else
#define MARGIN (DRIFT + 1)
#endif

/* ---- the database ---- */
byte owner;             /* 0: none */
byte target;            /* 0: none (not placed yet) */
byte aepoch;            /* the ownership epoch: every claim of a free row adds 1 */
byte alive[3];          /* ticks until heartbeat_at + mayRunFor passes; the window holds while > 0 */

/* ---- each node 1..2 ---- */
byte rate[3];
byte paused[3];         /* 1: paused this tick, 2: for a tick or more */
byte faults;
#define FAULT (faults < MAXFAULTS) -> faults++
byte hbt[3];            /* DUE_IN(HB): the next heartbeat */
byte hbst[3];           /* a heartbeat statement in flight runs before this reaches 0; 0 none */
bool hbon[3];
byte hbf[3];            /* WITHIN(SFA) from the start of the heartbeat in flight */
byte hbl[3];            /* WITHIN(MAYRUN) from the start of the heartbeat in flight */
byte fence[3];          /* WITHIN(SFA) from the start of the last heartbeat that succeeded */
byte life[3];           /* WITHIN(MAYRUN) from the same start: how long it may run its copy */
byte swt[3];            /* DUE_IN(SWEEP): the next sweep */
#define IDLE 0
#define RUNNING 1
#define STOPPING 2
byte copy[3];
byte rep[3];            /* the epoch its copy runs at */
byte stopt[3];          /* the stop returns before this reaches 0, or is abandoned */
bool relAfter[3];       /* release the row once the stop returned */
bool clon[3];           /* a claim in flight */
byte clst[3];
bool rlon[3];           /* a release in flight */
byte rlst[3];
byte moves;
bool hadPause[3];       /* ghost: paused since the start of the heartbeat its window counts from */

#define RUNS(i) (copy[i] != IDLE && life[i] > 0)
#define me _pid

#define ROW printf("    | row owner=%d target=%d epoch=%d | window node1=%d node2=%d\n", \
                   owner, target, aepoch, alive[1], alive[2])

inline stop(release) {
  copy[me] = STOPPING; stopt[me] = STOPDL; relAfter[me] = release;
  printf("node %d: stops its copy (epoch %d; release after: %d; self-fence window left %d)\n", me, rep[me], release, fence[me])
}

proctype Node() {
  do
  /* ---- the heartbeat (MembershipKeeper) ---- */
  :: atomic { !paused[me] && !hbon[me] && hbt[me] == 0 ->
       hbon[me] = true; hbst[me] = STMT; WITHIN(hbf[me], SFA); WITHIN(hbl[me], MAYRUN) }
  :: atomic { hbon[me] ->
       alive[me] = PUB + MARGIN + 1;
       if
       :: true ->
          if :: hbl[me] > life[me] -> hadPause[me] = (paused[me] != 0) :: else -> skip fi;
          fence[me] = MAX(fence[me], hbf[me]); life[me] = MAX(life[me], hbl[me])
       :: FAULT -> printf("node %d: the heartbeat's answer is lost\n", me)
       fi;
       hbon[me] = false; hbst[me] = 0; DUE_IN(hbt[me], HB) }
  :: atomic { hbon[me] && FAULT ->   /* the heartbeat never reached the database */
       printf("node %d: the heartbeat is lost\n", me);
       hbon[me] = false; hbst[me] = 0; DUE_IN(hbt[me], HB) }

  /* ---- the sweep (DefaultTenureNode.agentTick, ReconciliationSweep) ---- */
  :: atomic { !paused[me] && swt[me] == 0 && !clon[me] && !rlon[me] ->
       swt[me] = SWEEP;   /* exact: see docs/MODEL.md, drift */
       if
       :: fence[me] == 0 ->                                  /* self-fenced: stop, claim nothing */
          if :: copy[me] == RUNNING -> stop(false) :: else -> skip fi
       :: else ->
          if                                                 /* ReconciliationSweep */
          :: copy[me] == RUNNING && owner != 0 && owner != me -> stop(false)  /* StopOrphan */
          :: copy[me] == RUNNING && (owner == 0 || owner == me) && target != me ->
             stop(true)                                                        /* StopAndRelease */
          :: copy[me] == RUNNING && owner == 0 && target == me ->              /* Start: claim */
             clon[me] = true; clst[me] = STMT
          :: copy[me] == IDLE && target == me && (owner == 0 || owner == me) ->  /* Start */
             clon[me] = true; clst[me] = STMT
          :: copy[me] == IDLE && owner == me && target != me ->                /* Release */
             rlon[me] = true; rlst[me] = STMT
          :: else -> skip
          fi
       fi }
  /* the claim (AgentStore.claim): a free row that targets this node, or its own */
  :: atomic { clon[me] ->
       if
       :: target == me && (owner == 0 || owner == me) ->
          if :: owner == 0 && aepoch < EMAX -> aepoch++ :: else -> skip fi;
          if
          :: owner == 0 && aepoch == EMAX -> printf("node %d: epoch bound reached\n", me)
          :: else ->
             owner = me;
             if
             :: fence[me] > 0 ->
                copy[me] = RUNNING; rep[me] = aepoch;   /* started, or kept at the row's epoch */
                printf("node %d: claimed and started the agent at epoch %d\n", me, aepoch)
             :: FAULT -> printf("node %d: the claim's answer is lost\n", me)
             :: fence[me] == 0 -> printf("node %d: claimed, but self-fenced: does not start\n", me)
             fi
          fi
       :: else -> printf("node %d: claim refused\n", me)
       fi;
       ROW; clon[me] = false; clst[me] = 0 }
  /* the stop returns, or its deadline passes and it is abandoned */
  :: atomic { copy[me] == STOPPING ->
       copy[me] = IDLE; printf("node %d: its copy stopped\n", me);
       if :: relAfter[me] -> rlon[me] = true; rlst[me] = STMT :: else -> skip fi;
       relAfter[me] = false; stopt[me] = 0 }
  /* the release (AgentStore.release): owner-scoped, never fenced */
  :: atomic { rlon[me] ->
       if :: owner == me -> owner = 0; printf("node %d: released the row\n", me) :: else -> skip fi;
       ROW; rlon[me] = false; rlst[me] = 0 }
  od
}

/* Before the next tick a node that is not paused has done what is due, and statements sent have
 * run; a stop returns by its deadline, paused or not (an abandoned stop counts as returned). */
#define URGENT(i) ((!paused[i] && ((!hbon[i] && hbt[i] == 0) \
                                   || (swt[i] == 0 && !clon[i] && !rlon[i]))) \
                   || (hbon[i] && hbst[i] == 0) || (clon[i] && clst[i] == 0) \
                   || (rlon[i] && rlst[i] == 0) || (copy[i] == STOPPING && stopt[i] == 0))

inline tickNode(i) {
  if :: paused[i] == 1 -> paused[i] = 2 :: else -> skip fi;
  /* A4 a node that was not paused in its window stops its copy before the window ends; past it,
   * a paused node's copy is stopped or abandoned (only fencing tokens guard it then: claims.pml) */
  if
  :: life[i] == 1 && copy[i] != IDLE ->
     assert(hadPause[i]); copy[i] = IDLE; relAfter[i] = false; stopt[i] = 0
  :: else -> skip
  fi;
  DEC(alive[i]); DEC(hbt[i]); DEC(hbst[i]); DEC(hbf[i]); DEC(hbl[i]); DEC(fence[i]);
  DEC(life[i]); DEC(swt[i]); DEC(stopt[i]); DEC(clst[i]); DEC(rlst[i])
}

proctype World() {
  do
  :: d_step { !URGENT(1) && !URGENT(2) -> tickNode(1); tickNode(2); printf("tick\n") }
  :: atomic { !paused[1] && FAULT -> paused[1] = 1; hadPause[1] = true; printf("node 1 pauses\n") }
  :: atomic { !paused[2] && FAULT -> paused[2] = 1; hadPause[2] = true; printf("node 2 pauses\n") }
  :: atomic { paused[1] == 2 -> paused[1] = 0; printf("node 1 resumes\n") }
  :: atomic { paused[2] == 2 -> paused[2] = 0; printf("node 2 resumes\n") }
  od
}

/* The leader's writes, each fenced (lease.pml checks the fence); its timing is free. */
proctype Leader() {
  do
  :: atomic { target == 0 -> if :: target = 1 :: target = 2 fi;
       printf("leader: places the agent on node %d\n", target); ROW }
  :: atomic { target != 0 && moves < MOVES -> moves++; target = 3 - target;
#ifdef BROKEN_ONE_PHASE
       owner = 0;
#endif
       printf("leader: moves the agent to node %d\n", target); ROW }
  :: atomic { owner != 0 && alive[owner] == 0 ->
       printf("leader: frees the row of node %d, past its window\n", owner);
       if :: target == owner -> target = 3 - owner :: else -> skip fi;
       owner = 0; ROW }
  :: atomic { target != 0 && alive[target] == 0 && alive[3 - target] > 0 && owner != target ->
       target = 3 - target; printf("leader: re-targets to node %d, the other is past its window\n",
                                   target); ROW }
  od
}

proctype Invariants() {
  do
  :: assert(!(RUNS(1) && RUNS(2)))   /* A1 never two nodes running the agent at once */
  :: assert(!(copy[1] == RUNNING && copy[2] == RUNNING && rep[1] == rep[2]))  /* A2 one per epoch */
  od
}

#ifdef LIVENESS
/* A3 once faults stop, the agent ends up running on one node whose row names it, for good */
#define SETTLED (owner != 0 && copy[owner] == RUNNING && RUNS(owner) && !RUNS(3 - owner))
ltl settles { <> [] SETTLED }
#endif

init {
  atomic {
    PICK_RATE(1); PICK_RATE(2);
    printf("clock rates (0 fast, %d exact, %d slow): %d %d\n", DRIFT, 2 * DRIFT, rate[1], rate[2]);
    run Node(); run Node(); run World(); run Leader();
#ifndef LIVENESS
    run Invariants()
#endif
  }
}
