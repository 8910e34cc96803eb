/*
 * Queue claims (SPEC §6.2 to §6.4, §6.9; QueueStore rules Q10, Q14, Q15, Q17, Q19, Q21, Q22) for
 * two consumer nodes and M messages of one queue: claim tokens, the lease and its extension, the
 * reclaim sweep, and for an EXCLUSIVE queue the agent guard. What it models, what it leaves out
 * and why: docs/MODEL.md.
 *
 * The database holds each message's row: status, claim token, owner and lease (a countdown: the
 * lease has expired, lease_until < now, once it reaches 0). A claim takes the oldest PENDING
 * message, makes it INFLIGHT with a fresh token and a lease from the database's now. A done, a
 * retry and an extend land only on a row still INFLIGHT under the token they carry (Q15, Q19); the
 * reclaim sweep re-pends every INFLIGHT row whose lease expired (Q21) and touches no other (Q22).
 *
 * A node: one handler (concurrency 1). When idle it polls within a tick (Claimer, MAX_POLL 1 s);
 * its handler runs for any time and returns done or retry, and the outcome is written at once
 * (ResolveBatcher) and tried again after a failed try (OutcomeWriter); while the handler runs,
 * LeaseKeeper extends the lease once HALF of it has passed on the node's clock, checking every
 * CHECK ticks; every RI ticks, with a fixed delay from the end of the last sweep, the node's reclaim
 * sweep runs (NodeQueues.reclaimTick; every node sweeps). Faults, at any moment, up to MAXFAULTS:
 * a node pauses for any length (its clock runs on, its statements already sent still run), an
 * answer is lost (the claim, the resolve or the extend ran; or the resolve, extend or sweep did not
 * reach the database).
 *
 * EXCLUSIVE (SPEC §6.9, ExclusiveQueues): the queue is consumed by the agent queue://NAME. The
 * agent's row (owner, epoch) moves to the other node at any moment, at most MOVES times (the
 * hand-off's timing is handoff.pml's). A node starts its consumer, guarded by the row's epoch, at
 * any moment while the row names it, and stops it at any moment after, or never (a paused or
 * partitioned node; only the guard stops it then). Its claims are strict (nothing while any message
 * is in flight, only the oldest unfinished) and fail-closed on the guard (Q14); a done under a
 * guard that no longer holds goes back PENDING with its attempt given back (Q17, RefusedResolves);
 * a retry lands under any guard.
 *
 * Properties (assertions):
 *   C1  a done, retry or extend lands only on a row INFLIGHT under the token it carries
 *   R1  a message whose lease expired is re-pended within RBOUND ticks, by the database clock, if
 *       some node was running (not paused) and its sweeps reached the database meanwhile
 *   K1  a reclaim never takes the claim of a node that had no fault since it claimed (its lease
 *       extensions keep a long handler's claim)
 *   X1  EXCLUSIVE: never two nodes handling messages whose claims both hold
 *   X2  EXCLUSIVE: a claim lands only for the agent's owner at its guard's epoch, and so does a done
 *   W1  an outcome counted as written (ConsumerStats) landed: by this try or an earlier one
 *   L1  LIVENESS (LTL, weak fairness, no faults): every message ends up finished
 *
 * Negative controls (scripts/model-check.sh):
 *   BROKEN_DONE_NO_TOKEN    a done matches the row on its id and INFLIGHT only, not its token
 *   BROKEN_CLAIM_NO_GUARD   EXCLUSIVE: the claim does not check the agent guard
 *   BROKEN_NOT_STRICT       EXCLUSIVE: the claim (guard kept) takes the oldest PENDING message while
 *                           another is in flight
 * The code as it is where the model refutes it (docs/MODEL.md, findings):
 *   SPEC_RECLAIM_BOUND      R1 with the SPEC's bound, RI ticks after the lease expired (F4)
 *   JAVA_LATE_RETRY         OutcomeWriter counts a try again that finds its claim ended as written,
 *                           whenever it runs (F5); the model's default only within giveUpAt
 */

#include "common.pml"

#ifndef MAXFAULTS
#define MAXFAULTS 2
#endif
#ifndef M
#define M 1             /* messages */
#endif
#ifndef MOVES
#define MOVES 1         /* EXCLUSIVE: hand-offs of the agent */
#endif
#ifndef RETRIES
#define RETRIES 1       /* retries in a run */
#endif
#ifndef TMAX
#define TMAX 4          /* claim tokens 1..TMAX: the model refuses a claim past them */
#endif

/* Timing, in ticks of 5 s: the queue's lease 30 s (QueuePolicy), the reclaim interval 5 s
 * (QueueSettings.DEFAULT_RECLAIM_INTERVAL). LeaseKeeper extends once half the lease has passed
 * (HALF), checking every lease / 6 (CHECK); ResolveBatcher tries a failed write again until 4/5 of
 * the lease has passed (GIVEUP). A statement takes no time here (it runs at the database when it is
 * sent), so the sweep's fixed delay is its period; the code's sweep also takes its own time (F4). */
#define LEASE 6
#ifndef HALF
#define HALF 3
#endif
#define CHECK 1
#ifndef RI
#define RI 1
#endif
#define GIVEUP 4        /* ResolveBatcher: a failed write is tried again until 4/5 of the lease */
#ifdef JAVA_LATE_RETRY
#define COUNTED_WRITTEN true    /* OutcomeWriter: a try again that finds the claim ended */
#else
#define COUNTED_WRITTEN (gu[me] > 0)
#endif
#ifndef RBOUND
#ifdef SPEC_RECLAIM_BOUND
#define RBOUND RI
#else
#define RBOUND (RI + DRIFT)    /* RI on the sweeping node's clock, which may run slow */
#endif
#endif
#ifdef LIVENESS
#define HMAX (LEASE + 1)            /* a handler returns within HMAX ticks (past one lease) */
#endif

/* ---- the database ---- */
#define PENDING 0
#define INFLIGHT 1
#define FINISHED 2      /* done (kept or deleted) */
byte st[M + 1];
byte tok[M + 1];        /* claim_token; 0 none */
byte own[M + 1];        /* owner_node; 0 none */
byte lease[M + 1];      /* ticks until lease_until < now: the lease holds while > 0 */
byte ntok;              /* tokens issued */
#ifdef EXCLUSIVE
byte aowner = 1;        /* the agent queue://NAME: its row's owner and ownership epoch */
byte aepoch = 1;
byte moves;
#endif
/* ghosts for R1: ticks since the message's lease expired while in flight, and the nodes that
 * have been running, their sweeps reaching the database, since then (bit i: node i) */
byte stale[M + 1];
byte up[M + 1];

/* ---- each node 1..2 ---- */
byte rate[3];
byte paused[3];         /* 1: paused this tick, 2: for a tick or more */
byte faults;
#define FAULT (faults < MAXFAULTS) -> faults++
bool hadFault[3];       /* ghost: paused or lost an answer since its claim */
byte hm[3];             /* the message it holds, and under which token; 0 none */
byte ht[3];
bool working[3];        /* its handler runs */
#ifdef LIVENESS
byte hd[3];             /* the handler returns before this reaches 0 */
#endif
byte xt[3];             /* LeaseKeeper: HALF + CHECK local ticks from leaseSetAt; may extend
                           once <= CHECK, must at 0 */
#define DONE_OUT 1
#define RETRY_OUT 2
byte rs[3];             /* the outcome being written: 0 none */
byte gu[3];             /* OutcomeWriter's giveUpAt: DUE_IN(GIVEUP) from leaseSetAt */
bool tried[3];          /* a try of this outcome failed on the connection */
bool landed[3];         /* ghost: a try of this outcome landed */
byte rt[3];             /* DUE_IN(RI) from the end of its last sweep */
byte retries;
#ifdef EXCLUSIVE
byte gep[3];            /* the guard epoch of its running consumer; 0: none runs */
byte hg[3];             /* the guard its claim was taken under */
#define CONSUMING(i) (gep[i] != 0)
#else
#define CONSUMING(i) true
#endif

#define me _pid

#ifdef BROKEN_DONE_NO_TOKEN
#define DONE_HELD(m) (st[m] == INFLIGHT)
#else
#define DONE_HELD(m) (st[m] == INFLIGHT && tok[m] == ht[me])
#endif
#define HELD(m) (st[m] == INFLIGHT && tok[m] == ht[me])
#ifdef BROKEN_CLAIM_NO_GUARD
#define GUARD_CLAIM(i) true
#else
#define GUARD_CLAIM(i) (aowner == i && aepoch == gep[i])
#endif

/* st + 1 printed as an mtype: spin numbers { finished, inflight, pending } 3, 2, 1 */
mtype = { finished, inflight, pending };
#if M == 1
#define ROW printf("    | message 1: %e token=%d owner=%d lease=%d\n", st[1] + 1, tok[1], own[1], lease[1])
#else
#define ROW printf("    | message 1: %e token=%d owner=%d lease=%d | message 2: %e token=%d owner=%d lease=%d\n", \
                   st[1] + 1, tok[1], own[1], lease[1], st[2] + 1, tok[2], own[2], lease[2])
#endif

/* pick: the oldest message the claim may take, 0 none (k, busy, pick: the caller's locals) */
inline choose() {
  pick = 0;
#if defined(EXCLUSIVE) && !defined(BROKEN_NOT_STRICT)
  /* strict (Q14): nothing while any message is in flight; else the oldest unfinished */
  k = 1;
  busy = false;
  do
  :: k <= M -> if :: st[k] == INFLIGHT -> busy = true :: else -> skip fi; k++
  :: else -> break
  od;
  k = 1;
  do
  :: !busy && k <= M && pick == 0 -> if :: st[k] == PENDING -> pick = k :: else -> skip fi; k++
  :: else -> break
  od;
  busy = false
#else
  k = 1;
  do
  :: k <= M && pick == 0 -> if :: st[k] == PENDING -> pick = k :: else -> skip fi; k++
  :: else -> break
  od
#endif
  ; k = 0
}

/* the claim would take a message (the guard holding, for an EXCLUSIVE queue) */
#ifdef BROKEN_NOT_STRICT
#define CLAIMABLE(i) (GUARD_CLAIM(i) && (st[1] == PENDING || st[M] == PENDING))
#elif defined(EXCLUSIVE)
#define CLAIMABLE(i) (GUARD_CLAIM(i) && !INFL(1) && !INFL(M) \
                      && (st[1] == PENDING || (M > 1 && st[1] == FINISHED && st[M] == PENDING)))
#define INFL(k) (st[k] == INFLIGHT)
#else
#define CLAIMABLE(i) (st[1] == PENDING || st[M] == PENDING)
#endif
/* OutcomeWriter after a failed try: tries again after a backoff unless giveUpAt has passed (a
 * pause may come between this check and the try) */
inline retryOrGiveUp() {
  if
  :: gu[me] == 0 ->
     printf("node %d: gives up the outcome of message %d, near its lease's end\n", me, hm[me]);
     rs[me] = 0; hm[me] = 0; ht[me] = 0; tried[me] = false; landed[me] = false
  :: else -> printf("node %d: will try again\n", me)
  fi
}

/* the resolve of the outcome rs[me] (Resolves): all or nothing, conditional on its token */
inline resolve() {
  m = hm[me];
  if
  :: rs[me] == DONE_OUT && DONE_HELD(m) ->
#ifdef EXCLUSIVE
     if
     :: !(aowner == me && aepoch == hg[me]) ->   /* Q17: a finish under a stale guard goes back */
        if
        :: tok[m] != ht[me] ->
           printf("node %d: its refused done (token %d) puts back message %d, which node %d holds under token %d\n",
                  me, ht[me], m, own[m], tok[m])
        :: else -> skip
        fi;
        assert(tok[m] == ht[me]);   /* C1 */
        landed[me] = true; st[m] = PENDING; tok[m] = 0; own[m] = 0; lease[m] = 0;
        printf("node %d: its done of message %d is refused by the guard (epoch %d; the agent is at node %d, epoch %d): the message goes back\n",
               me, m, hg[me], aowner, aepoch)
     :: else ->
#endif
        /* C1 a done lands only on the row under its token */
        if
        :: tok[m] != ht[me] ->
           printf("node %d: its done (token %d) finishes message %d, which node %d holds under token %d: node %d's work is lost\n",
                  me, ht[me], m, own[m], tok[m], own[m])
        :: else -> printf("node %d: its done of message %d lands\n", me, m)
        fi;
        assert(tok[m] == ht[me]);
#ifdef EXCLUSIVE
        assert(aowner == me && aepoch == hg[me]);   /* X2 */
#endif
        landed[me] = true; st[m] = FINISHED; tok[m] = 0; own[m] = 0; lease[m] = 0
#ifdef EXCLUSIVE
     fi
#endif
  :: rs[me] == RETRY_OUT && HELD(m) ->   /* a re-pend: lands under any guard */
     assert(tok[m] == ht[me]);           /* C1 */
     landed[me] = true; st[m] = PENDING; tok[m] = 0; own[m] = 0; lease[m] = 0;
     printf("node %d: its retry of message %d lands: pending again\n", me, m)
  :: else ->
     if
     :: tried[me] && COUNTED_WRITTEN ->   /* W1 counted as written only if a try landed */
        if
        :: !landed[me] ->
           printf("node %d: its try again finds the claim (token %d) on message %d ended and counts the outcome as written, but no try of it landed\n", me, ht[me], m)
        :: else -> printf("node %d: its try again finds the claim ended: an earlier try landed\n", me)
        fi;
        assert(landed[me])
     :: else -> printf("node %d: its outcome for message %d is refused: the claim (token %d) was lost\n", me, m, ht[me])
     fi
  fi;
  ROW;
  if
  :: true -> rs[me] = 0; hm[me] = 0; ht[me] = 0; gu[me] = 0; tried[me] = false; landed[me] = false
  :: FAULT -> tried[me] = true; printf("node %d: the resolve's answer is lost\n", me); retryOrGiveUp()
  fi;
  m = 0
}

/* Every statement runs atomically at the database when the node sends it (the database is the
 * only serialisation point, and a statement takes less than a tick); what a node does after a
 * statement is on its answer, which may be lost. */
proctype Node() {
  byte m, k, pick;
  bool busy;
  do
  /* ---- the claimer (Claimer, Claims): an idle consumer polls within a tick. A poll that would
   * take nothing changes nothing and is left out, and so is a claim the guard refuses. ---- */
  :: atomic { !paused[me] && CONSUMING(me) && hm[me] == 0 && ntok < TMAX && CLAIMABLE(me) ->
       choose();
       assert(pick != 0);
#ifdef EXCLUSIVE
       /* X2 a claim lands only for the agent's owner at its guard's epoch */
       if
       :: !(aowner == me && aepoch == gep[me]) ->
          printf("node %d: claims message %d with guard epoch %d while node %d owns the queue at epoch %d\n", me, pick, gep[me], aowner, aepoch)
       :: else -> skip
       fi;
       assert(aowner == me && aepoch == gep[me]);
       hg[me] = gep[me];
#endif
       m = pick; ntok++;
       st[m] = INFLIGHT; tok[m] = ntok; own[m] = me; lease[m] = LEASE + 1; stale[m] = 0;
       if
       :: true ->
          hm[me] = m; ht[me] = ntok; working[me] = true; hadFault[me] = false;
          xt[me] = LOCAL(HALF + CHECK); DUE_IN(gu[me], GIVEUP);
#ifdef LIVENESS
          hd[me] = HMAX;
#endif
          printf("node %d: claims message %d under token %d, handler starts\n", me, m, ntok)
       :: FAULT -> printf("node %d: claims message %d under token %d, but the answer is lost\n", me, m, ntok)
       fi;
       ROW; m = 0; pick = 0 }

  /* ---- the handler returns; its outcome is written at once (Dispatcher, ResolveBatcher) ---- */
  :: atomic { working[me] && !paused[me] ->
       working[me] = false; xt[me] = 0;
       if
       :: rs[me] = DONE_OUT; printf("node %d: handler of message %d returns: done\n", me, hm[me])
       :: retries < RETRIES -> retries++; rs[me] = RETRY_OUT;
          printf("node %d: handler of message %d fails: retry\n", me, hm[me])
       fi;
       if
       :: resolve()
       :: FAULT -> hadFault[me] = true; tried[me] = true;
          printf("node %d: the resolve of message %d does not reach the database\n", me, hm[me]);
          retryOrGiveUp()
       fi }
  :: atomic { rs[me] != 0 && !paused[me] -> resolve() }   /* the try again */


  /* ---- lease extension (LeaseKeeper.extendIfDue): from its check's start, on the token ---- */
  :: atomic { working[me] && !paused[me] && xt[me] <= CHECK ->
       m = hm[me];
       if
       :: HELD(m) ->
          assert(tok[m] == ht[me]);   /* C1 */
          lease[m] = LEASE + 1; stale[m] = 0;
          if
          :: xt[me] = LOCAL(HALF + CHECK); DUE_IN(gu[me], GIVEUP)
          :: FAULT -> hadFault[me] = true; xt[me] = CHECK;   /* the answer is lost */
             printf("node %d: the extend of message %d lands, but its answer is lost\n", me, m)
          fi
       :: !HELD(m) -> xt[me] = CHECK;
          printf("node %d: extend of message %d refused: the claim (token %d) was lost\n", me, m, ht[me])
       :: FAULT -> hadFault[me] = true; xt[me] = CHECK;
          printf("node %d: the extend of message %d does not reach the database\n", me, m)
       fi;
       m = 0 }

  /* ---- the reclaim sweep (NodeQueues.reclaimTick, Reclaims): every node, fixed delay ---- */
  :: atomic { !paused[me] && rt[me] == 0 ->
       if
       :: true ->
          m = 1;
          do
          :: m <= M ->
             if
             :: st[m] == INFLIGHT && lease[m] == 0 ->
                /* K1 the claim of a node without a fault since it claimed is never taken */
                if
                :: hm[own[m]] == m && ht[own[m]] == tok[m] && !hadFault[own[m]] ->
                   printf("node %d: reclaims message %d from node %d, which had no fault\n", me, m, own[m])
                :: else -> skip
                fi;
                assert(!(hm[own[m]] == m && ht[own[m]] == tok[m] && !hadFault[own[m]]));
                printf("node %d: reclaims message %d (token %d of node %d expired %d ticks ago)\n",
                       me, m, tok[m], own[m], stale[m]);
                st[m] = PENDING; tok[m] = 0; own[m] = 0; stale[m] = 0; ROW
             :: else -> skip
             fi;
             m++
          :: else -> break
          od
       :: FAULT ->
          printf("node %d: its reclaim sweep does not reach the database\n", me);
          m = 1;
          do
          :: m <= M -> up[m] = up[m] & ~(1 << me); m++
          :: else -> break
          od
       fi;
       m = 0; DUE_IN(rt[me], RI) }

#ifdef EXCLUSIVE
  /* ---- the agent queue://NAME starts and stops its consumer (ExclusiveQueues) ---- */
  :: atomic { aowner == me && gep[me] != aepoch && !paused[me] ->
       gep[me] = aepoch;
       printf("node %d: starts the exclusive consumer with guard epoch %d\n", me, aepoch) }
  :: atomic { gep[me] != 0 && (aowner != me || aepoch != gep[me]) && !paused[me] ->
       gep[me] = 0; printf("node %d: stops its exclusive consumer\n", me) }
#endif
  od
}

/* Before the next tick a node that is not paused has done what is due, and the statements it
 * sent have run. */
#ifdef LIVENESS
#define HANDLER_DUE(i) (working[i] && hd[i] == 0)
#else
#define HANDLER_DUE(i) false
#endif
#define URGENT(i) (!paused[i] && ((CONSUMING(i) && hm[i] == 0 && ntok < TMAX && CLAIMABLE(i)) || rs[i] != 0 \
                                  || (working[i] && xt[i] == 0) || rt[i] == 0 || HANDLER_DUE(i)))

inline tickNode(i) {
  if :: paused[i] == 1 -> paused[i] = 2 :: else -> skip fi;
  DEC(xt[i]); DEC(rt[i]); DEC(gu[i])
#ifdef LIVENESS
  ; DEC(hd[i])
#endif
}

inline tickMessage(k) {
  DEC(lease[k]);
  if
  :: st[k] == INFLIGHT && lease[k] == 0 ->
     if
     :: stale[k] == 0 -> up[k] = (paused[1] == 0 -> 2 : 0) | (paused[2] == 0 -> 4 : 0)
     :: else -> skip
     fi;
     if :: stale[k] <= RBOUND -> stale[k]++ :: else -> skip fi;
     /* R1 re-pended within RBOUND ticks while a node was running and sweeping */
     if
     :: stale[k] > RBOUND && up[k] != 0 ->
        printf("message %d: its lease expired %d ticks ago; node %d ran and swept all along, and it is still in flight\n",
               k, stale[k], (up[k] & 2 -> 1 : 2))
     :: else -> skip
     fi;
     assert(!(stale[k] > RBOUND && up[k] != 0))
  :: else -> stale[k] = 0
  fi
}

proctype World() {
  do
  :: d_step { !URGENT(1) && !URGENT(2) ->
       tickNode(1); tickNode(2); tickMessage(1);
#if M > 1
       tickMessage(2);
#endif
       printf("tick\n") }
  :: atomic { !paused[1] && FAULT -> paused[1] = 1; hadFault[1] = true; up[1] = up[1] & ~2;
       up[M] = up[M] & ~2; printf("node 1 pauses\n") }
  :: atomic { !paused[2] && FAULT -> paused[2] = 1; hadFault[2] = true; up[1] = up[1] & ~4;
       up[M] = up[M] & ~4; printf("node 2 pauses\n") }
  :: atomic { paused[1] == 2 -> paused[1] = 0; printf("node 1 resumes\n") }
  :: atomic { paused[2] == 2 -> paused[2] = 0; printf("node 2 resumes\n") }
#ifdef EXCLUSIVE
  :: atomic { moves < MOVES -> moves++; aowner = 3 - aowner; aepoch++;
       printf("the agent moves to node %d at epoch %d\n", aowner, aepoch) }
#endif
  od
}

#ifdef EXCLUSIVE
#define COUNTS(i) (hm[i] != 0 && st[hm[i]] == INFLIGHT && tok[hm[i]] == ht[i])
proctype Invariants() {
  do
  :: atomic { COUNTS(1) && COUNTS(2) ->   /* X1 never two nodes handling under claims that hold */
       printf("nodes 1 and 2 both handle messages of the exclusive queue (%d and %d) under claims that hold\n",
              hm[1], hm[2]);
       assert(false) }
  od
}
#endif

#ifdef LIVENESS
/* L1 once faults stop, every message ends up finished */
#if M == 1
#define ALL_FINISHED (st[1] == FINISHED)
#else
#define ALL_FINISHED (st[1] == FINISHED && st[2] == FINISHED)
#endif
ltl finishes { <> [] ALL_FINISHED }
#endif

init {
  atomic {
    PICK_RATE(1); PICK_RATE(2);
    printf("clock rates (0 fast, %d exact, %d slow): %d %d\n", DRIFT, 2 * DRIFT, rate[1], rate[2]);
    run Node(); run Node(); run World();
#if defined(EXCLUSIVE) && !defined(LIVENESS)
    run Invariants()
#endif
  }
}
