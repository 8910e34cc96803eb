#!/usr/bin/env bash
# Runs a Tenure benchmark: builds the launcher and the benchmark jar, then runs FailoverBench with
# the given arguments, e.g.
#   scripts/bench.sh --store sqlite:/tmp/b.db --store 'jdbc:postgresql://127.0.0.1:5432/test?user=postgres' --runs 10
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
. "$ROOT/scripts/java-home.sh"
cd "$ROOT"
mvn -q -B -ntp -DskipTests install >/dev/null
exec "$JAVA_HOME/bin/java" -jar tenure-bench/target/tenure-bench.jar --jar tenure-cli/target/tenure.jar "$@"
