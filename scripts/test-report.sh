#!/usr/bin/env bash
# Sums the surefire reports, lists which provider ran which compliance area, and fails when a
# compliance class is missing or skipped anything while CI=true.
set -uo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
cd "$ROOT"
since=${1:-}
newer=()
[ -n "$since" ] && [ -f "$since" ] && newer=(-newer "$since")
tests=0; failed=0; skipped=0
declare -A kit
for f in $(find . -path '*/target/surefire-reports/TEST-*.xml' "${newer[@]}" 2>/dev/null | sort); do
  # Count the test cases themselves: a suite header says tests="0" for nested classes.
  t=$(grep -c '<testcase ' "$f")
  fl=$(grep -c '<failure' "$f")
  e=$(grep -c '<error' "$f")
  s=$(grep -c '<skipped' "$f")
  tests=$((tests + ${t:-0})); failed=$((failed + ${fl:-0} + ${e:-0})); skipped=$((skipped + ${s:-0}))
  name=$(basename "$f" .xml); name=${name##*.}
  case "$name" in *ComplianceTest) kit[$name]="${t:-0} run, $(( ${fl:-0} + ${e:-0} )) failed, ${s:-0} skipped" ;; esac
done
echo
echo "Compliance kit by provider:"
missing=0; kit_skipped=0
for provider in InMemory Sqlite Postgres MariaDb; do
  for area in Schema Markers Membership EventStore Leadership Cluster AgentStore AgentClaim AgentEpoch AgentCluster QueueEnqueue QueueValues QueueClaim QueueResolve QueueReclaim QueueExclusive QueueDeadLetter QueueContract QueueCluster QueueControl QueueCancel QueueMessageAdmin QueueHandler QueueUnique QueueWakeup AgentWakeup Schedules ScheduleFire ScheduleCluster Locks; do
    cls="${provider}${area}ComplianceTest"
    if [ -n "${kit[$cls]:-}" ]; then
      note=""
      case "${kit[$cls]}" in *", 0 skipped") ;; *) kit_skipped=1; note="   <-- SKIPPED" ;; esac
      case "${kit[$cls]}" in "0 run"*) kit_skipped=1; note="   <-- DID NOT RUN (database down?)" ;; esac
      printf '  %-36s %s%s\n' "$cls" "${kit[$cls]}" "$note"
    else
      printf '  %-36s MISSING\n' "$cls"; missing=1
    fi
  done
done
if [ "$kit_skipped" -ne 0 ]; then
  echo
  echo "!!! WARNING: some providers did not run. Their databases may be down; see the"
  echo "!!! '!!!' lines in */target/surefire-reports/*-output.txt and docs/PROVIDERS.md."
  echo "!!! CI (CI=true) fails on this."
fi
passed=$((tests - failed - skipped))
echo
echo "Tenure tests: $passed passed, $failed failed, $skipped skipped"
if [ "$failed" -gt 0 ]; then exit 1; fi
if [ "${CI:-}" = "true" ]; then
  if [ "$missing" -ne 0 ]; then echo "CI: a compliance class did not run" >&2; exit 1; fi
  if [ "$skipped" -gt 0 ] || [ "$kit_skipped" -ne 0 ]; then echo "CI: skipped tests are failures in CI" >&2; exit 1; fi
fi
exit 0
