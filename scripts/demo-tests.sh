#!/usr/bin/env bash
# The launcher end to end, as a user meets it (issue 6); run by ./run-tests after the Maven tests:
#  1. `./tenure demo --duration 30s --no-browser` must exit 0 with a summary of 0 lost, 0 stranded;
#  2. the console in headless Chromium (Playwright) against a live `./tenure demo`: three nodes and
#     one leader, stop the leader from the console, another leader and the agents move, replay a
#     dead letter; the screenshot is kept at tenure-server/target/console-e2e/console.png.
# Needs Node.js, npm and Debian's chromium; without them it skips loudly, or fails when CI=true.
set -uo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
OUT="$ROOT/tenure-server/target/console-e2e"
BROWSER_TEST="$ROOT/tenure-server/src/test/browser"
rm -rf "$OUT" && mkdir -p "$OUT"
status=0

fail() { echo "demo-tests: FAILED: $*" >&2; status=1; }

# 1. Unattended demo.
echo "demo-tests: ./tenure demo --duration 30s --no-browser" >&2
if summary=$("$ROOT/tenure" demo --duration 30s --no-browser --http 0 --dir "$OUT/unattended" 2>"$OUT/unattended.err"); then
  echo "demo-tests: summary $summary" >&2
  echo "$summary" | grep -q '"lost":0' && echo "$summary" | grep -q '"stranded":0' \
    || fail "the demo's summary shows lost or stranded messages: $summary"
else
  fail "./tenure demo exited non-zero; stdout: $summary; stderr: $(tail -n 5 "$OUT/unattended.err")"
fi

# 2. The console in a real browser.
missing=""
command -v node >/dev/null || missing="$missing node"
command -v npm >/dev/null || missing="$missing npm"
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || missing="$missing chromium"
if [ -n "$missing" ]; then
  if [ "${CI:-}" = "true" ]; then
    fail "missing$missing: the console browser test cannot run (CI=true)"
  else
    echo "demo-tests: !!! missing$missing: the console browser test is SKIPPED (install Debian chromium, node, npm; CI would fail)" >&2
  fi
  exit "$status"
fi
if ! (cd "$BROWSER_TEST" && npm ci --no-audit --no-fund --silent >"$OUT/npm.log" 2>&1); then
  fail "npm ci in $BROWSER_TEST failed; see $OUT/npm.log"
  exit "$status"
fi
"$ROOT/tenure" demo --no-browser --http 0 --dir "$OUT/live" >"$OUT/live.out" 2>"$OUT/live.err" &
demo=$!
stop_demo() { kill -TERM "$demo" 2>/dev/null; wait "$demo" 2>/dev/null; }
trap stop_demo EXIT
url=""
for _ in $(seq 1 180); do
  url=$(grep -o 'console: http://[^ ]*' "$OUT/live.err" 2>/dev/null | head -n 1 | cut -d' ' -f2)
  [ -n "$url" ] && break
  kill -0 "$demo" 2>/dev/null || break
  sleep 0.5
done
if [ -z "$url" ]; then
  fail "the demo did not print its console URL; stderr: $(tail -n 5 "$OUT/live.err")"
  exit "$status"
fi
echo "demo-tests: console browser test against $url" >&2
node "$BROWSER_TEST/console-e2e.mjs" "$url" "$OUT/console.png" || fail "the console browser test failed (screenshot $OUT/console.png)"
stop_demo
trap - EXIT

# 3. The console of a node that requires a token, for reads too.
token="e2e-$RANDOM$RANDOM"
TENURE_HTTP_TOKEN="$token" "$ROOT/tenure" node --name token-node --store "sqlite:$OUT/token/tenure.db" \
  --http 0 >"$OUT/token.out" 2>"$OUT/token.err" &
tokened=$!
trap 'kill -TERM "$tokened" 2>/dev/null; wait "$tokened" 2>/dev/null' EXIT
turl=""
for _ in $(seq 1 120); do
  turl=$(grep -o 'admin API and console on http://[^ ]*' "$OUT/token.out" 2>/dev/null | head -n 1 | awk '{print $NF}')
  [ -n "$turl" ] && break
  kill -0 "$tokened" 2>/dev/null || break
  sleep 0.5
done
if [ -z "$turl" ]; then
  fail "the token node did not print its console URL; stderr: $(tail -n 5 "$OUT/token.err")"
else
  echo "demo-tests: console token test against $turl" >&2
  node "$BROWSER_TEST/console-token-e2e.mjs" "${turl%/}" "$token" || fail "the console token test failed"
fi
[ "$status" = 0 ] && echo "demo-tests: OK (screenshot $OUT/console.png)" >&2
exit "$status"
