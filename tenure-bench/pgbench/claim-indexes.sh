#!/usr/bin/env bash
# Claims alone, by pgbench, on the schema before and after V7 (issue 5's index change), from the
# schema files themselves: 100,000 unkeyed pending messages, 2 clients claiming 256 at a time with
# the claim statement of each version (before: the LATERAL walk; after: the window's own locking
# index scan), until the queue is empty. Prints claims per second per round; claims only, no
# deletes, so the figure is the claim's own cost.
#   tenure-bench/pgbench/claim-indexes.sh [rounds] [psql connection options...]
set -euo pipefail
ROUNDS=${1:-3}; shift || true
CONN=("$@"); [ ${#CONN[@]} -eq 0 ] && CONN=(-h 127.0.0.1 -U postgres test)
SCHEMA=$(cd "$(dirname "$(readlink -f "$0")")/../../tenure-jdbc/src/main/resources/io/tenure/jdbc/internal/schema/postgresql" && pwd)
WORK=$(mktemp -d); trap 'rm -rf "$WORK"; psql -q "${CONN[@]}" -c "DROP TABLE IF EXISTS pgb_messages" >/dev/null 2>&1' EXIT
T=pgb_messages
COLS="id, queue, msg_key, payload, content_type, headers, priority, attempts, max_attempts, available_at, status, owner_node, claim_token, lease_until, last_error, created_at, finished_at, dedupe_key"
SET="UPDATE $T SET status = 'INFLIGHT', owner_node = 'node', claim_token = 'token' || :client_id, lease_until = statement_timestamp() + interval '30 seconds', attempts = attempts + 1 WHERE status = 'PENDING' AND id IN (SELECT id FROM c) RETURNING $COLS"
cat > "$WORK/before.sql" <<SQL
WITH c AS MATERIALIZED (SELECT c.id FROM (SELECT w.id FROM $T w WHERE w.queue = 'q' AND w.status = 'PENDING' AND w.available_at <= statement_timestamp() ORDER BY w.priority DESC, w.id LIMIT 1024) w CROSS JOIN LATERAL (SELECT c.id FROM $T c WHERE c.id = w.id AND c.status = 'PENDING' AND c.available_at <= statement_timestamp() AND (c.msg_key IS NULL OR NOT (EXISTS (SELECT 1 FROM $T o WHERE o.queue = c.queue AND o.msg_key = c.msg_key AND o.id < c.id AND o.status IN ('PENDING', 'INFLIGHT')) OR EXISTS (SELECT 1 FROM $T f WHERE f.queue = c.queue AND f.status = 'INFLIGHT' AND f.msg_key = c.msg_key))) FOR UPDATE SKIP LOCKED) c LIMIT 256) $SET;
SQL
cat > "$WORK/after.sql" <<SQL
WITH c AS MATERIALIZED (SELECT w.id FROM (SELECT w.id, w.queue, w.msg_key FROM $T w WHERE w.queue = 'q' AND w.status = 'PENDING' AND w.available_at <= statement_timestamp() ORDER BY w.priority DESC, w.id LIMIT 1024 FOR UPDATE SKIP LOCKED) w WHERE w.msg_key IS NULL OR NOT (EXISTS (SELECT 1 FROM $T o WHERE o.queue = w.queue AND o.msg_key = w.msg_key AND o.id < w.id AND o.status = 'PENDING') OR EXISTS (SELECT 1 FROM $T f WHERE f.queue = w.queue AND f.status = 'INFLIGHT' AND f.msg_key = w.msg_key)) LIMIT 256) $SET;
SQL
setup() { # the schema files up to $1, then 100,000 messages
  { echo "DROP TABLE IF EXISTS $T;"
    for f in V4__queue.sql V5__claim_indexes.sql V6__inflight_keys.sql V7__claim_writes.sql; do
      [ "$f" \> "$1" ] && break
      sed 's/\${prefix}/pgb_/g' "$SCHEMA/$f"
    done
    echo "INSERT INTO $T (queue, payload, content_type, headers, priority, attempts, max_attempts, available_at, status, created_at)"
    echo " SELECT 'q', convert_to('message ' || g, 'UTF8'), 'text/plain', '', 0, 0, 5, now(), 'PENDING', now() FROM generate_series(1, 100000) g;"
    echo "VACUUM ANALYZE $T;"; } > "$WORK/setup.sql"
  psql -q "${CONN[@]}" -f "$WORK/setup.sql" >/dev/null 2>&1
}
for round in $(seq "$ROUNDS"); do
  for version in before after; do
    [ $version = before ] && setup V6__inflight_keys.sql || setup V7__claim_writes.sql
    tps=$(pgbench -n -M prepared -c 2 -j 2 -t 196 -f "$WORK/$version.sql" "${CONN[@]}" 2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
    echo "round $round, $version V7: $tps claims of 256 per second"
  done
done
