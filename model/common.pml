/*
 * Shared by every model (docs/MODEL.md): time, drift and small helpers.
 *
 * Time is discrete. One global tick is one step of the database clock; every timestamp the
 * database compares (a lease's expiry, a heartbeat's age, a message's lease) is kept as a
 * countdown in ticks, so the state space stays finite however long a run is.
 *
 * A node measures its own deadlines on its monotonic clock, which runs at its own rate: a local
 * duration of D ticks lasts D - DRIFT, D or D + DRIFT global ticks on a fast, exact or slow node
 * (rate[i] = 0, 1, 2), chosen at the start; never less than one tick. Different nodes may drift
 * apart by 2 DRIFT. The clock keeps running while the node is paused, as System.nanoTime does.
 *
 * A countdown set to D + 1 stays above zero for D ticks and reaches zero on the (D + 1)th: "at most
 * D ticks have passed" is "countdown > 0", as LeaderElector's "now - start <= fenceAfter".
 */

#ifndef DRIFT
#define DRIFT 1
#endif

/*
 * Local deadlines of node `me`, drifting with its rate:
 * WITHIN(x, d): x > 0 while at most d local ticks have passed ("now - start <= d");
 * DUE_IN(x, d): x reaches 0 once d local ticks have passed ("now - start >= d").
 */
#define LOCAL(v) ((v) + rate[me] > DRIFT -> (v) + rate[me] - DRIFT : (v))
#define WITHIN(x, d) x = LOCAL((d) + 1)
#define DUE_IN(x, d) x = LOCAL(d)

/* chosen once per node, at the start */
#define PICK_RATE(i) \
  if \
  :: rate[i] = DRIFT \
  :: DRIFT > 0 -> rate[i] = 0 \
  :: DRIFT > 0 -> rate[i] = 2 * DRIFT \
  fi

#define DEC(x) if :: (x) > 0 -> x-- :: else -> skip fi
#define MAX(a, b) ((a) > (b) -> (a) : (b))
