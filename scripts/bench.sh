#!/usr/bin/env bash
# Runs a Tenure benchmark after building the launcher and the benchmark jar, with the newest JDK.
#   scripts/bench.sh [failover] --store URL [--store URL ...] [--runs 10]   leader fail-over (default)
#   scripts/bench.sh convergence --store URL [--nodes 100] [--agents 10000] agent convergence
#   scripts/bench.sh queue [--messages 100000] [--scheduler-messages N] [--rounds 3]
#                          [--concurrency 8,16,32,64] [--threads 8,16,32,64]
#                          [--postgres URL] [--sqlite sqlite:PATH] [--mariadb URL] [--only all|pickup]
#                                                                           queue drain and pickup latency
#                                                                           (--only pickup: pickup latency alone
#                                                                           on all three, wake-ups and polling,
#                                                                           --rounds times;
#                                                                           --only stats --messages 1000000:
#                                                                           Queue.stats() before and now on a
#                                                                           table with that many dead tuples;
#                                                                           --only xmin [--rate R] [--load 0.7]
#                                                                           [--phase-seconds 60] [--hold-seconds 300]
#                                                                           [--recovery-seconds 120]: a steady
#                                                                           producer while a transaction holds
#                                                                           PostgreSQL's xmin horizon back)
#   scripts/bench.sh schedules [--schedules 1000] [--interval 10] [--periods 3]
#                              [--stores postgres,sqlite,mariadb] [--postgres URL] [--sqlite sqlite:PATH]
#                              [--mariadb URL]                           schedule fire lag, slots spread
#                                                                        and all due at once
#   scripts/bench.sh locks [--seconds 5] [--rounds 3] [--stores postgres,sqlite,mariadb]
#                          [--postgres URL] [--sqlite sqlite:PATH] [--mariadb URL]
#                                                                        named lock acquire/release loop,
#                                                                        with ShedLock and raw SQL on
#                                                                        PostgreSQL
# e.g.
#   scripts/bench.sh --store sqlite:/tmp/b.db --store 'jdbc:postgresql://127.0.0.1:5432/test?user=postgres' --runs 10
#   scripts/bench.sh convergence --store 'jdbc:postgresql://127.0.0.1:5432/test?user=postgres'
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
. "$ROOT/scripts/java-home.sh"
cd "$ROOT"
mvn -q -B -ntp -DskipTests install >/dev/null
JAR=tenure-bench/target/tenure-bench.jar
case "${1:-}" in
  convergence) shift; exec "$JAVA_HOME/bin/java" -Xmx4g -cp "$JAR" io.tenure.bench.ConvergenceBench "$@" ;;
  queue) shift; exec "$JAVA_HOME/bin/java" -Xmx2g -cp "$JAR" io.tenure.bench.QueueBench "$@" ;;
  schedules|locks) exec "$JAVA_HOME/bin/java" -Xmx2g -cp "$JAR" io.tenure.bench.ScheduleLockBench "$@" ;;
  failover) shift ;;
esac
exec "$JAVA_HOME/bin/java" -jar "$JAR" --jar tenure-cli/target/tenure.jar "$@"
