/*
 * The leader lease, its epoch fence and the session-lock take-over (SPEC §4, docs/CLUSTER.md),
 * as LeaderElector and SessionLockWatch run them against LeaseStore (rules L4 to L10). What it
 * models, what it leaves out and why: docs/MODEL.md.
 *
 * Nodes 1..N, each with three threads interleaved at will: the elector (acquire or renew, RENEW
 * ticks after its previous tick ended), the lock watch (as leader: check the session lock, record
 * it; as candidate: take the free lock of a holder that recorded it, wait, take over) and the
 * leader's duties (fenced writes). Every database call is two steps: the node reads its clock and
 * sends; within STMT ticks the database runs the statement atomically (it is the only
 * serialisation point) and the node has the answer. Faults, at any moment, any number of times: a
 * node pauses for any length (its clock runs on; the statements it already sent still run), a
 * statement's answer is lost (it ran or it did not), the session holding the advisory lock is
 * killed. A crash is a pause that never ends with its session killed; a graceful close is a
 * step-down.
 *
 * Configurations (scripts/model-check.sh): NO_LOCK leaves the session lock out (SQLite, MariaDB);
 * NO_WRITES and NO_CLOSE leave out the fenced writes and the step-down on close, to keep the
 * session-lock run small (the invariants P1 imply the write assertions P2 and P3).
 *
 * Negative controls (scripts/model-check.sh compiles each with spin -D...):
 *   BROKEN_FENCE_AFTER_TTL   fenceAfter = leaseTtl: the trust window outlives the lease
 *   BROKEN_TRUST_FREE_LOCK   a candidate takes over when the session lock is free, whether or not
 *                            the holder recorded the lock at its epoch (LeaseStore L10 dropped)
 *
 * The code as it was where the model refuted it (docs/MODEL.md, findings; the code now does what
 * the defaults do, and the flags keep the old behaviour as a record):
 *   JAVA_STALE_ACQUIRE       an acquire sent before the node lost its lock promotes it after its
 *                            release (F1); the default refuses that promotion (LeaderElector)
 *   JAVA_UNPROVEN_KEPT       a KEPT after a TAKEN whose renewal failed is trusted (F2); the
 *                            default renews before trusting it (SessionLockWatch.keep)
 * KEEP_PROMISE (off): a node promoted again at an epoch it promised keeps the promise.
 */

#include "common.pml"

#ifndef NO_LOCK
#define WITH_LOCK       /* the session-lock fast path (PostgreSQL); NO_LOCK: SQLite and MariaDB */
#endif

#ifndef N
#define N 2
#endif
#ifndef MAXFAULTS
#define MAXFAULTS 3
#endif
#define EMAX 3          /* epochs 1..3: two changes of holder; the model refuses a third */

/*
 * Timing, in ticks. The model's rules (DRIFT -> 0 gives the builder's, see docs/MODEL.md):
 *   RENEW + 2 STMT + 2 DRIFT <= FENCE   a leader whose calls answer in time never self-fences
 *   FENCE + DRIFT < TTL                 the trust window ends before the lease does
 *   LI > 2 DRIFT                        a candidate waits LT + LI, past the holder's lock trust
 */
#ifndef RENEW
#define RENEW 1
#endif
#ifndef STMT
#define STMT 1
#endif
#ifndef FENCE
#define FENCE 5
#endif
#ifdef BROKEN_FENCE_AFTER_TTL
#define TTL FENCE
#else
#ifndef TTL
#define TTL (FENCE + DRIFT + 1)
#endif
#endif
#define LT 1
#define LI 3
#define WAIT (LT + LI)

/* ---- the database: the lease row and the advisory lock ---- */
byte holder;            /* 0: never held */
byte epoch;
byte exp;               /* ticks until expires_at; live while > 0 */
byte lrec;              /* lock_epoch: the epoch at which the holder recorded its lock; 0 none */
byte lockOwner;         /* the node whose session holds the advisory lock; 0 none */
#define LIVE (exp > 0)
#define RECORDED (holder != 0 && lrec == epoch)


/* ---- each node, index 1..N (0 unused) ---- */
byte rate[N + 1];       /* its clock: 0 fast, 1 exact, 2 slow (common.pml) */
byte paused[N + 1];     /* 1: paused this tick, 2: paused for a tick or more */
bool closed[N + 1];     /* stepped down on close: competes no more */
#ifdef STABILITY
bool faulted[N + 1];    /* ghost: was paused, lost an answer or its lock session */
#define NOTE_FAULT(i) faulted[i] = true
#else
#define NOTE_FAULT(i) skip
#endif
byte faults;            /* faults so far: pauses, lost answers, killed lock sessions */
#define FAULT (faults < MAXFAULTS) -> faults++
/* LeaderElector */
bool leader[N + 1];
byte lepoch[N + 1];
byte trust[N + 1];      /* WITHIN(FENCE) from the start of the last renewal that succeeded */
bool promised[N + 1];   /* lockPromised */
#ifdef KEEP_PROMISE
byte promisedAt[N + 1];  /* the epoch of the last promise: a record of it may be on its way */
#endif
byte ltrust[N + 1];     /* WITHIN(LT) from the start of the last check that found the lock kept */
byte holdOff[N + 1];    /* holdOffUntil: DUE_IN(TTL) from losing the lock; no acquire before */
bool estale[N + 1];     /* the acquire in flight began before the hold-off was set */
/* the elector thread */
#define E_IDLE 0
#define E_RENEW 1
#define E_ACQUIRE 2
byte el[N + 1];
byte etim[N + 1];       /* DUE_IN(RENEW) from the end of its last tick */
byte estmt[N + 1];      /* the statement in flight runs before this reaches 0 */
byte estart[N + 1];     /* WITHIN(FENCE) from the start of the tick in flight */
byte eepoch[N + 1];     /* the epoch the tick in flight renews */
/* the lock watch thread */
#define L_IDLE 0
#define L_CHECK 1       /* leader: hold() in flight */
#define L_RENEW 2       /* leader: the lock was taken again; a renewal at its epoch in flight */
#define L_RECORD 3      /* leader: recordSessionLock in flight */
#define L_WAIT 4        /* candidate: holds the free lock and waits WAIT before taking over */
#define L_TAKE 5        /* candidate: hold(), read and takeOver in flight */
byte lk[N + 1];
bool lticked[N + 1];    /* the lock watch ticked in this tick: at most one lock tick per tick */
byte lstmt[N + 1];      /* the statement in flight runs before this reaches 0 */
byte lstart[N + 1];     /* WITHIN(FENCE) from the start of the lock tick in flight */
byte lepochk[N + 1];    /* the epoch the leader's lock tick checks */
byte recorded[N + 1];   /* recordedEpoch */
bool letGo[N + 1];
#ifndef JAVA_UNPROVEN_KEPT
bool unproven[N + 1];   /* the lock was last TAKEN and no renewal has proven it since */
#endif
byte obsHolder[N + 1];  /* waitingOn: the lease the candidate holds the lock to take over */
byte obsEpoch[N + 1];
byte lwait[N + 1];      /* DUE_IN(WAIT) from when the candidate took the lock */
/* the leader's duties and the step-down */
byte write[N + 1];      /* the epoch of a fenced write in flight; 0 none */
byte wstmt[N + 1];
byte release[N + 1];    /* the epoch of a lease release in flight; 0 none */
byte rstmt[N + 1];
/* ghost */
byte writer[EMAX + 1];  /* the node whose fenced write was first accepted at each epoch */

#define LEADING(i) (leader[i] && trust[i] > 0)
#define IS_LEADER(i) (LEADING(i) && (!promised[i] || ltrust[i] > 0))
/* the lock trust left of a lock tick that started at lstart: same start, same clock */
#define LOCK_PART(i) (lstart[i] > FENCE - LT -> lstart[i] - (FENCE - LT) : 0)

#if N == 2
#define OTHER_LEADS(i) (IS_LEADER(3 - i))
#define TWO_LEADERS (IS_LEADER(1) && IS_LEADER(2))
#else
#define OTHER_LEADS(i) ((i != 1 && IS_LEADER(1)) || (i != 2 && IS_LEADER(2)) \
                        || (i != 3 && IS_LEADER(3)))
#define TWO_LEADERS ((IS_LEADER(1) && IS_LEADER(2)) || (IS_LEADER(1) && IS_LEADER(3)) \
                     || (IS_LEADER(2) && IS_LEADER(3)))
#endif

#define LEASE printf("    | lease holder=%d epoch=%d live=%d lock_epoch=%d | lock held by %d\n", \
                     holder, epoch, exp, lrec, lockOwner)

/* Node i is process i (init is process 0). */
#define me _pid

inline demote(why) {
  printf("node %d: demoted (%d)\n", me, why);
  leader[me] = false; promised[me] = false; letGo[me] = true
}
#define SELF_FENCE 1
#define SUPERSEDED 2
#define LOCK_LOST 3
#define STEP_DOWN 4

inline promote(start) {
  if
  :: !(leader[me] && lepoch[me] == epoch) ->
     leader[me] = true; lepoch[me] = epoch; trust[me] = start;
#ifdef KEEP_PROMISE
     promised[me] = (promisedAt[me] == epoch);
#else
     promised[me] = false;
#endif
     ltrust[me] = 0;
     printf("node %d: leader at epoch %d, trusts itself %d more ticks\n", me, epoch, start)
  :: else -> skip
  fi
}

/* LeaseStore.acquire (L4, L5, L6): free, expired or its own; the epoch stops at EMAX */
#define ACQUIRABLE ((holder == 0 || !LIVE || holder == me) && (holder == me || epoch < EMAX))
inline acquireSql() {
  if :: holder != me -> epoch++; holder = me :: else -> skip fi;
  exp = TTL; lrec = 0
}
/* LeaseStore.renew (L7): holder and epoch */
#define RENEWABLE(e) (holder == me && epoch == (e))
/* LeaseStore.recordSessionLock (L9), release (L8), every fenced write (L12): live holder at e */
#define CURRENT(e) (holder == me && epoch == (e) && LIVE)
/* LeaseStore.takeOver (L10): the holder and epoch observed, and the lock recorded at that epoch */
#ifdef BROKEN_TRUST_FREE_LOCK
#define TAKEABLE (holder == obsHolder[me] && epoch == obsEpoch[me])
#define WORTH_TRYING (LIVE && holder != 0 && holder != me)
#else
#define TAKEABLE (holder == obsHolder[me] && epoch == obsEpoch[me] && lrec == epoch)
#define WORTH_TRYING (LIVE && holder != 0 && holder != me && RECORDED)
#endif

/* LeaderElector.leaderAt: past the trust window, whichever thread looks first demotes */
inline selfFence() {
  if
  :: leader[me] && trust[me] == 0 ->
#ifdef STABILITY
     assert(faulted[me]);   /* P6 a leader whose calls answer in time never self-fences */
#endif
     demote(SELF_FENCE)
  :: else -> skip
  fi
}

/* SessionLockWatch.confirm: after KEPT, or TAKEN and renewed at the same epoch */
inline confirm() {
  if
  :: leader[me] && lepoch[me] == lepochk[me] ->
     promised[me] = true; ltrust[me] = MAX(ltrust[me], LOCK_PART(me));
#ifdef KEEP_PROMISE
     promisedAt[me] = lepochk[me];
#endif
     printf("node %d: lock confirmed at epoch %d, lock trust %d\n", me, lepochk[me],
            ltrust[me]);
     if
     :: recorded[me] != lepochk[me] -> lk[me] = L_RECORD; lstmt[me] = STMT
     :: else -> lk[me] = L_IDLE; lstart[me] = 0
     fi
  :: else -> lk[me] = L_IDLE; lstart[me] = 0
  fi
}

/* SessionLockWatch.forgetCandidacy */
inline forget() {
  obsHolder[me] = 0; obsEpoch[me] = 0; lwait[me] = 0; lstart[me] = 0; lk[me] = L_IDLE
}

proctype Node() {
  do
  /* ---- the watchdog: past the trust window the node no longer leads (LeaderElector.leaderAt) */
  :: atomic { !paused[me] && leader[me] && trust[me] == 0 -> selfFence() }

  /* ---- the elector, RENEW ticks after its previous tick ended (scheduleWithFixedDelay) ---- */
  :: atomic { !paused[me] && !closed[me] && el[me] == E_IDLE && etim[me] == 0 ->
       selfFence();
       if
       :: LEADING(me) ->
          WITHIN(estart[me], FENCE); estmt[me] = STMT; eepoch[me] = lepoch[me]; el[me] = E_RENEW
       :: !LEADING(me) && ACQUIRABLE && holdOff[me] == 0 ->  /* free, expired or its own; delayElapsed */
          WITHIN(estart[me], FENCE); estmt[me] = STMT; el[me] = E_ACQUIRE; estale[me] = false
       :: else -> DUE_IN(etim[me], RENEW)         /* a live lease of another node */
       fi }
  :: atomic { el[me] == E_RENEW ->
       if
       :: RENEWABLE(eepoch[me]) ->
          exp = TTL;
          if
          :: leader[me] && lepoch[me] == eepoch[me] -> trust[me] = MAX(trust[me], estart[me])
          :: else -> skip
          fi;
          printf("node %d: renewed at epoch %d, trusts itself %d more ticks\n", me,
                 eepoch[me], trust[me])
       :: else ->
          printf("node %d: renewal at epoch %d refused\n", me, eepoch[me]);
          if :: leader[me] && lepoch[me] == eepoch[me] -> demote(SUPERSEDED) :: else -> skip fi
       fi;
       LEASE;
       el[me] = E_IDLE; DUE_IN(etim[me], RENEW); estmt[me] = 0; estart[me] = 0; eepoch[me] = 0 }
  :: atomic { el[me] == E_ACQUIRE ->
       if
       :: ACQUIRABLE -> acquireSql();
          if
#ifndef JAVA_STALE_ACQUIRE
          :: estale[me] ->   /* LeaderElector.promote: start < holdOffUntil, not promoted */
             printf("node %d: acquired the lease but began before losing its lock: no promotion\n",
                    me)
#endif
          :: else -> promote(estart[me])
          fi
       :: else -> printf("node %d: acquire refused\n", me)
       fi;
       LEASE;
       el[me] = E_IDLE; DUE_IN(etim[me], RENEW); estmt[me] = 0; estart[me] = 0; estale[me] = false }
  :: atomic { el[me] != E_IDLE && FAULT;   /* the answer is lost: the statement ran or it did not */
       if
       :: el[me] == E_RENEW && RENEWABLE(eepoch[me]) -> exp = TTL
       :: el[me] == E_ACQUIRE && ACQUIRABLE -> acquireSql()
       :: true -> skip
       fi;
       printf("node %d: the elector's answer is lost\n", me); LEASE;
       NOTE_FAULT(me);
       el[me] = E_IDLE; DUE_IN(etim[me], RENEW); estmt[me] = 0; estart[me] = 0; eepoch[me] = 0;
       estale[me] = false }

#ifdef WITH_LOCK
  /* ---- the lock watch as leader (SessionLockWatch.keep) ---- */
  :: atomic { !paused[me] && !closed[me] && lk[me] == L_IDLE && !lticked[me] && LEADING(me) ->
       lticked[me] = true;
       if :: letGo[me] -> letGo[me] = false; recorded[me] = 0 :: else -> skip fi;
       lepochk[me] = lepoch[me]; WITHIN(lstart[me], FENCE); lk[me] = L_CHECK; lstmt[me] = STMT }
  :: atomic { lk[me] == L_CHECK ->
       if
#ifndef JAVA_UNPROVEN_KEPT
       :: lockOwner == me && unproven[me] ->          /* KEPT, but the last TAKEN is unproven */
          lk[me] = L_RENEW; lstmt[me] = STMT
       :: lockOwner == me && !unproven[me] ->                  /* KEPT */
          confirm()
#else
       :: lockOwner == me ->                                   /* KEPT */
          confirm()
#endif
       :: lockOwner == 0 ->                                    /* TAKEN: prove no take-over */
          lockOwner = me; lk[me] = L_RENEW; lstmt[me] = STMT;
#ifndef JAVA_UNPROVEN_KEPT
          unproven[me] = true;
#endif
          printf("node %d: took the lock again; renews before trusting it\n", me)
       :: else ->                                              /* REFUSED: lockLost */
          if
          :: leader[me] && lepoch[me] == lepochk[me] && promised[me] ->
             printf("node %d: another session holds its lock\n", me);
             demote(LOCK_LOST);   /* no acquire for a lease TTL (LeaderElector.holdOffUntil) */
             DUE_IN(holdOff[me], TTL); estale[me] = (el[me] == E_ACQUIRE);
             release[me] = lepochk[me]; rstmt[me] = STMT
          :: else -> skip
          fi;
          lk[me] = L_IDLE; lstart[me] = 0
       fi }
  :: atomic { lk[me] == L_RENEW ->
       if
       :: RENEWABLE(lepochk[me]) ->
          exp = TTL;
          if
          :: leader[me] && lepoch[me] == lepochk[me] -> trust[me] = MAX(trust[me], lstart[me])
          :: else -> skip
          fi;
#ifndef JAVA_UNPROVEN_KEPT
          unproven[me] = false;
#endif
          confirm()
       :: else ->
          if :: leader[me] && lepoch[me] == lepochk[me] -> demote(SUPERSEDED) :: else -> skip fi;
          lk[me] = L_IDLE; lstart[me] = 0
       fi }
  :: atomic { lk[me] == L_RECORD ->
       if
       :: CURRENT(lepochk[me]) ->
          lrec = lepochk[me]; recorded[me] = lepochk[me];
          printf("node %d: recorded its lock at epoch %d\n", me, lepochk[me]); LEASE
       :: else ->
          if :: leader[me] && lepoch[me] == lepochk[me] -> demote(SUPERSEDED) :: else -> skip fi
       fi;
       lk[me] = L_IDLE; lstart[me] = 0 }
  :: atomic { (lk[me] == L_CHECK || lk[me] == L_RENEW || lk[me] == L_RECORD) && FAULT;
       if                                                      /* the answer is lost */
       :: lk[me] == L_CHECK && lockOwner == me -> lockOwner = 0  /* with the lock's session */
       :: lk[me] == L_RENEW && RENEWABLE(lepochk[me]) -> exp = TTL
       :: lk[me] == L_RECORD && CURRENT(lepochk[me]) -> lrec = lepochk[me]
       :: true -> skip
       fi;
       printf("node %d: the lock watch's answer is lost\n", me); LEASE;
       NOTE_FAULT(me); lk[me] = L_IDLE; lstart[me] = 0 }

  /* ---- the lock watch as candidate (SessionLockWatch.watch, waitForTakeOver) ---- */
  :: atomic { (!paused[me] && lk[me] == L_IDLE && !lticked[me] && !LEADING(me)
               && (letGo[me] || lockOwner == me || leader[me]
                   || (!closed[me] && WORTH_TRYING && lockOwner == 0))) ->
       selfFence();   /* leadingEpoch(): a lapsed trust demotes here too */
       lticked[me] = true; letGo[me] = false; recorded[me] = 0;
       if :: lockOwner == me -> lockOwner = 0 :: else -> skip fi;    /* a candidate holds nothing */
       if
       :: !closed[me] && WORTH_TRYING && lockOwner == 0 ->            /* read, then hold(): TAKEN */
          lockOwner = me; obsHolder[me] = holder; obsEpoch[me] = epoch;
          DUE_IN(lwait[me], WAIT); lk[me] = L_WAIT;
          printf("node %d: took the free lock of node %d (epoch %d); waits %d ticks\n",
                 me, holder, epoch, lwait[me]); LEASE
       :: else -> skip
       fi }
  :: atomic { !paused[me] && !closed[me] && lk[me] == L_WAIT && !lticked[me] ->
       lticked[me] = true;
       WITHIN(lstart[me], FENCE); lk[me] = L_TAKE; lstmt[me] = STMT }
  :: atomic { lk[me] == L_TAKE ->
       if
       :: lockOwner == me ->                                          /* KEPT */
          if
          :: !LIVE ->                                                 /* released: acquire */
             if :: ACQUIRABLE && holdOff[me] == 0 -> acquireSql(); promote(lstart[me]) :: else -> skip fi;
             forget()
          :: else ->
             if
             :: !(holder == obsHolder[me] && epoch == obsEpoch[me]
#ifndef BROKEN_TRUST_FREE_LOCK
                  && RECORDED
#endif
                 ) -> lockOwner = 0; forget()                          /* the lease moved on */
             :: else ->
                if
                :: lwait[me] > 0 -> lk[me] = L_WAIT; lstart[me] = 0
                :: else ->
                   if
                   :: TAKEABLE && epoch < EMAX ->
                      printf("node %d: takes the lease over from node %d\n", me,
                             holder);
                      epoch++; holder = me; exp = TTL; lrec = 0; promote(lstart[me]); LEASE
                   :: else -> lockOwner = 0
                   fi;
                   forget()
                fi
             fi
          fi
       :: lockOwner == 0 ->                                           /* TAKEN: wait anew */
          lockOwner = me; DUE_IN(lwait[me], WAIT); lk[me] = L_WAIT; lstart[me] = 0
       :: else -> forget()                                            /* REFUSED */
       fi;
       lstmt[me] = 0 }
  :: atomic { lk[me] == L_TAKE && FAULT;                              /* the answer is lost */
       if
       :: lockOwner == me && lwait[me] == 0 && TAKEABLE && epoch < EMAX ->
          epoch++; holder = me; exp = TTL; lrec = 0
       :: true -> skip
       fi;
       if :: lockOwner == me -> lockOwner = 0 :: else -> skip fi;  /* the lock's session is gone */
       printf("node %d: the lock watch's answer is lost\n", me); LEASE;
       NOTE_FAULT(me); lstmt[me] = 0; forget() }

#endif

#ifndef NO_WRITES
  /* ---- the leader's duties: a fenced write (the fence in the statement's own SQL) ---- */
  :: atomic { !paused[me] && !closed[me] && write[me] == 0 && IS_LEADER(me) ->
       write[me] = lepoch[me]; wstmt[me] = STMT }
  :: atomic { write[me] != 0 ->
       if
       :: CURRENT(write[me]) ->
          printf("node %d: fenced write at epoch %d accepted\n", me, write[me]);
          assert(write[me] == epoch);                        /* P3 no stale-epoch write accepted */
          assert(writer[epoch] == 0 || writer[epoch] == me); /* P2 one leader's writes per epoch */
          assert(!OTHER_LEADS(me));                          /* P2 and no other leader meanwhile */
          writer[epoch] = me
       :: else ->
          printf("node %d: fenced write at epoch %d refused\n", me, write[me])
       fi;
       write[me] = 0; wstmt[me] = 0 }
#endif

#ifndef NO_CLOSE
  /* ---- close: step down (demote, then expire the lease at its epoch), then nothing more ---- */
  :: atomic { (!paused[me] && !closed[me] && leader[me] && release[me] == 0 && el[me] == E_IDLE
               && (lk[me] == L_IDLE || lk[me] == L_WAIT) && write[me] == 0) ->
       closed[me] = true; demote(STEP_DOWN); release[me] = lepoch[me]; rstmt[me] = STMT }
#endif
  /* ---- a release in flight (the step-down's, or the one after losing the lock) ---- */
  :: atomic { release[me] != 0 ->
       if :: CURRENT(release[me]) -> exp = 0 :: else -> skip fi;
       printf("node %d: released the lease at epoch %d\n", me, release[me]); LEASE;
       release[me] = 0; rstmt[me] = 0 }
  od
}

/* ---- time and faults ---- */
/* Before the next tick: a node that is not paused acts on its due deadlines, and every statement
 * sent has run (or been lost), paused node or not. */
#define URGENT(i) ((!paused[i] && ((el[i] == E_IDLE && etim[i] == 0 && !closed[i]) \
                                   || (leader[i] && trust[i] == 0))) \
                   || (el[i] != E_IDLE && estmt[i] == 0) \
                   || ((lk[i] == L_CHECK || lk[i] == L_RENEW || lk[i] == L_RECORD || lk[i] == L_TAKE) \
                       && lstmt[i] == 0) \
                   || (write[i] != 0 && wstmt[i] == 0) || (release[i] != 0 && rstmt[i] == 0))
#if N == 2
#define ANY_URGENT (URGENT(1) || URGENT(2))
#else
#define ANY_URGENT (URGENT(1) || URGENT(2) || URGENT(3))
#endif

inline tickNode(i) {
  if :: paused[i] == 1 -> paused[i] = 2 :: else -> skip fi;
  lticked[i] = false;
  DEC(trust[i]); DEC(ltrust[i]); DEC(etim[i]); DEC(estmt[i]); DEC(estart[i]);
  DEC(lstmt[i]); DEC(lstart[i]); DEC(lwait[i]); DEC(wstmt[i]); DEC(rstmt[i]); DEC(holdOff[i])
}

/* A pause lasts at least one tick (a shorter one is just another interleaving) and any longer. */
inline pause(i) {
  atomic { !paused[i] && FAULT; paused[i] = 1; NOTE_FAULT(i); printf("node %d pauses\n", i) }
}
inline resume(i) {
  atomic { paused[i] == 2 -> paused[i] = 0; printf("node %d resumes\n", i) }
}

proctype World() {
  do
  :: d_step {   /* one tick of the database clock; every clock moves */
       !ANY_URGENT ->
       DEC(exp); tickNode(1); tickNode(2);
#if N > 2
       tickNode(3);
#endif
       printf("tick\n") }
  :: pause(1)
  :: pause(2)
  :: resume(1)
  :: resume(2)
#if N > 2
  :: pause(3)
  :: resume(3)
#endif
#ifdef WITH_LOCK
  :: atomic { lockOwner != 0 && FAULT;   /* the session holding the advisory lock is killed */
       printf("the lock session of node %d is killed\n", lockOwner);
       NOTE_FAULT(lockOwner); lockOwner = 0 }
#endif
  od
}

/* The invariants, checked in every state. */
#define HOLDS_LEASE(i) (!IS_LEADER(i) || (holder == i && epoch == lepoch[i] && LIVE))
proctype Invariants() {
  do
  :: assert(!TWO_LEADERS)   /* P1 never two nodes that believe they lead */
  :: assert(HOLDS_LEASE(1)) /* P1 a node that believes it leads holds the live lease */
  :: assert(HOLDS_LEASE(2)) /* P1 a node that believes it leads holds the live lease */
#if N > 2
  :: assert(HOLDS_LEASE(3)) /* P1 a node that believes it leads holds the live lease */
#endif
  od
}

init {
  atomic {
    PICK_RATE(1); PICK_RATE(2);
#if N > 2
    PICK_RATE(3);
#endif
    printf("clock rates (0 fast, %d exact, %d slow): %d %d\n", DRIFT, 2 * DRIFT, rate[1], rate[2]);
    run Node(); run Node();
#if N > 2
    run Node();
#endif
    run World(); run Invariants()
  }
}
