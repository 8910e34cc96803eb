#!/usr/bin/env bash
# PIT mutation testing of tenure-core's pure decision code (the classes and tests listed in
# tenure-core/pom.xml; docs/TESTING.md#mutation-testing). Prints the mutation score and fails when
# it is below the pom's mutationThreshold (80 %) or PIT does not run. ./run-tests calls it after
# the Maven build; run it alone with scripts/mutation-tests.sh.
set -uo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
. "$ROOT/scripts/java-home.sh"
cd "$ROOT"
REPORT="$ROOT/tenure-core/target/pit-reports/mutations.xml"
LOG="$ROOT/tenure-core/target/pit.log"
mkdir -p "$ROOT/tenure-core/target" && rm -f "$REPORT"
echo "mutation-tests: PIT on tenure-core's decision code (log: $LOG)" >&2
start=$(date +%s)
mvn -B -ntp -pl tenure-core test-compile org.pitest:pitest-maven:mutationCoverage >"$LOG" 2>&1
status=$?
seconds=$(( $(date +%s) - start ))
if [ ! -f "$REPORT" ]; then
  tail -n 30 "$LOG" >&2
  echo "mutation-tests: FAILED: PIT wrote no report (exit $status, ${seconds}s)" >&2
  exit 1
fi
total=$(grep -c '<mutation ' "$REPORT")
killed=$(grep -c "<mutation [^>]*status='\(KILLED\|TIMED_OUT\|MEMORY_ERROR\|RUN_ERROR\)'" "$REPORT")
survived=$(grep -c "<mutation [^>]*status='SURVIVED'" "$REPORT")
uncovered=$(grep -c "<mutation [^>]*status='NO_COVERAGE'" "$REPORT")
score=$(( total == 0 ? 0 : killed * 100 / total ))
echo "mutation-tests: mutation score ${score}% (${killed} of ${total} mutants killed," \
  "${survived} survived, ${uncovered} not covered; threshold 80%) in ${seconds}s" >&2
grep -o "<mutation [^>]*status='SURVIVED'.*</mutation>" "$REPORT" \
  | sed -E "s#.*<sourceFile>([^<]*)</sourceFile>.*<mutatedMethod>([^<]*)</mutatedMethod>.*<lineNumber>([^<]*)</lineNumber>.*<description>([^<]*)</description>.*#  survived: \1:\3 \2: \4#" >&2
if [ "$status" -ne 0 ] || [ "$total" -eq 0 ]; then
  grep -E "threshold|ERROR" "$LOG" | head -n 5 >&2
  echo "mutation-tests: FAILED (below the threshold, or PIT failed: see $LOG)" >&2
  exit 1
fi
