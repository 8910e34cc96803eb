#!/usr/bin/env bash
# The fault harness as CI runs it (issue 7): `./tenure chaos --profile ci` on SQLite and on
# PostgreSQL, at once, each about 90 s with a fresh random seed (printed; rerun one with --seed N).
# Each must exit 0: no message lost or stranded, no agent overlap, no stale-epoch write, FIFO order
# kept (one message per key in flight), every agent running once at the end, every schedule slot
# fired with exactly one message, no superseded lock holder's fenced write committed. Reports stay
# in target/chaos/<store>/report.json.
set -uo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
OUT="$ROOT/target/chaos"
rm -rf "$OUT" && mkdir -p "$OUT"
# The two runs share nothing (a SQLite file of their own; their own prefix on PostgreSQL), so they
# run at once: each is about 90 s of mostly waiting, and both together take about as long as one.
run() { # store
  local store=$1
  echo "chaos-tests: ./tenure chaos --profile ci --store $store" >&2
  if "$ROOT/tenure" chaos --profile ci --store "$store" --dir "$OUT/$store" >"$OUT/$store.json" 2>"$OUT/$store.err"; then
    echo "chaos-tests: $store OK: $(head -c 400 "$OUT/$store.json")" >&2
  else
    echo "chaos-tests: $store FAILED: $(tail -n 3 "$OUT/$store.err"); report: $(cat "$OUT/$store.json")" >&2
    return 1
  fi
}
# Built once, here: two launchers finding the jar stale would both start a Maven build.
"$ROOT/tenure" --version >/dev/null || exit 1
run sqlite & sqlite=$!
run postgres & postgres=$!
status=0
wait "$sqlite" || status=1
wait "$postgres" || status=1
exit "$status"
