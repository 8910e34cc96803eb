#!/usr/bin/env bash
# The queue benchmark's PostgreSQL drain and pickup latency, old code against new, side by side:
#   scripts/bench-compare.sh OLD_COMMIT [--pairs 6] [--messages 100000] [--concurrency 64] [--postgres URL]
# Builds the working tree's benchmark jar and OLD_COMMIT's (in a temporary worktree, `package` only,
# so nothing old reaches ~/.m2), compiles QueueSideBySide against each, then runs them alternately,
# each run a fresh JVM, the order swapped every pair, under the machine's CPU lock. Prints one table
# row per run and the medians.
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
. "$ROOT/scripts/java-home.sh"
OLD=${1:?usage: scripts/bench-compare.sh OLD_COMMIT [--pairs N] [--messages N] [--concurrency N] [--postgres URL]}
shift
PAIRS=6 MESSAGES=100000 CONCURRENCY=64 URL='jdbc:postgresql://127.0.0.1:5432/test?user=postgres'
while [ $# -gt 0 ]; do
  case "$1" in
    --pairs) PAIRS=$2 ;;
    --messages) MESSAGES=$2 ;;
    --concurrency) CONCURRENCY=$2 ;;
    --postgres) URL=$2 ;;
    *) echo "bench-compare: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
git -C "$ROOT" rev-parse --verify --quiet "$OLD^{commit}" >/dev/null \
  || { echo "bench-compare: $OLD is not a commit" >&2; exit 2; }
WORK=$(mktemp -d /tmp/tenure-bench-compare.XXXXXX)
cleanup() { git -C "$ROOT" worktree remove --force "$WORK/old" >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT
echo "bench-compare: building new (working tree) and old ($OLD)" >&2
(cd "$ROOT" && mvn -q -B -ntp -DskipTests install >/dev/null)
cp "$ROOT/tenure-bench/target/tenure-bench.jar" "$WORK/new.jar"
git -C "$ROOT" worktree add --detach "$WORK/old" "$OLD" >/dev/null 2>&1
(cd "$WORK/old" && mvn -q -B -ntp -DskipTests -Dspotless.check.skip=true package >/dev/null)
cp "$WORK/old/tenure-bench/target/tenure-bench.jar" "$WORK/old.jar"
DRIVER="$ROOT/tenure-bench/src/compare/java/io/tenure/bench/QueueSideBySide.java"
for v in old new; do
  mkdir -p "$WORK/classes-$v"
  "$JAVA_HOME/bin/javac" -nowarn -d "$WORK/classes-$v" -cp "$WORK/$v.jar" "$DRIVER"
done
run() {
  "$JAVA_HOME/bin/java" -Xmx2g -cp "$WORK/classes-$1:$WORK/$1.jar" io.tenure.bench.QueueSideBySide \
    "$1 (pair $2)" "$URL" "$MESSAGES" "$CONCURRENCY" 2>>"$WORK/err.log"
}
echo "| code | drain $MESSAGES, concurrency $CONCURRENCY | pickup p50 | p90 | p99 |" | tee "$WORK/rows"
echo "| --- | --- | --- | --- | --- |"
flock /tmp/tenure-cpu.lock bash -c "$(declare -f run); $(declare -p WORK URL MESSAGES CONCURRENCY JAVA_HOME);
  for pair in \$(seq 1 $PAIRS); do
    if [ \$((pair % 2)) = 1 ]; then first=old second=new; else first=new second=old; fi
    run \$first \$pair; run \$second \$pair
  done" | tee -a "$WORK/rows"
# Medians (the lower middle run for an even count) of drain rate and pickup p50, per side.
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
for v in old new; do
  rows=$(grep "^| $v " "$WORK/rows" || true)
  drain=$(echo "$rows" | cut -d'|' -f3 | tr -cd '0-9\n' | median)
  pickup=$(echo "$rows" | cut -d'|' -f4 | tr -cd '0-9.\n' | median)
  echo "median $v: drain $drain msg/s, pickup p50 $pickup ms"
done
