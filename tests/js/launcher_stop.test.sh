#!/usr/bin/env bash
# launcher_stop.test.sh - the stop battery of the strait command
# (docs/sandbox.md, "Stopping a script"): every way a script runs code that
# never ends by itself, times --timeout and Ctrl-C (SIGINT). Each run must
# end within a bound with the documented status and message: exit 1 and
# "strait: time limit of N ms exceeded" for --timeout (a worker's own limit
# is its error, reported as the parent's uncaught error: exit 1 too), exit
# 130 and "strait: interrupted" for SIGINT. Timed bounds are generous (a
# loaded CI machine): they catch work that is never stopped or stopped
# seconds late. Run by scripts/test-js.sh. Prints `N passed, N failed`.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
STRAIT=${STRAIT:-$BUILD/bin/strait}
case $STRAIT in /*) ;; *) STRAIT=$PWD/$STRAIT ;; esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/strait-stop.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
LIMIT_MS=300
BOUND_MS=3000      # from the limit or the signal to the exit
now_ms() { date +%s%3N; }
check() { if eval "$2"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $1: rc=$RC ms=$MS err=$(head -c 300 "$TMP/e")"; fi; }

# NAME|NEEDS|SCRIPT: NEEDS is "java" when the script uses Java, "-" else.
# The script prints "ready" just before the work that never ends (a script
# using Java starts the JVM first: a SIGINT while HotSpot starts meets its
# own handler, before the launcher's is back).
WAYS=(
  'sync loop|-|console.log("ready"); for (;;) {}'
  'catch and retry|-|console.log("ready"); for (;;) { try { for (;;) {} } catch (e) {} }'
  'loop in finally|-|try { console.log("ready"); for (;;) {} } finally { for (;;) {} }'
  'promise job loop (await)|-|(async () => { console.log("ready"); for (;;) await null; })()'
  'promise then chain|-|const f = () => Promise.resolve().then(f); console.log("ready"); f()'
  'queueMicrotask recursion|-|queueMicrotask(function f() { queueMicrotask(f); }); console.log("ready")'
  'timer callback|-|setTimeout(() => { console.log("ready"); for (;;) {} }, 1)'
  'JS callback inside a Java call|java|java.lang.System.nanoTime(); const l = new java.util.ArrayList(); l.add(2); l.add(1); console.log("ready"); l.sort((a, b) => { for (;;) {} })'
  'blocking Java call|java|java.lang.System.nanoTime(); console.log("ready"); java.lang.Thread.sleep(1e9)'
  'blocking Java call, catch and retry|java|java.lang.System.nanoTime(); console.log("ready"); for (;;) { try { new java.util.concurrent.LinkedBlockingQueue().take() } catch (e) {} }'
  'typed-array sort (a long native operation)|-|const f = new Float64Array(3e7); for (let i = 0; i < f.length; i += 997) f[i] = i % 13; console.log("ready"); f.sort()'
  'worker|-|const { Worker } = require("worker_threads"); new Worker("for (;;) {}", { eval: true }); setTimeout(() => console.log("ready"), 100)'
)

# run_timeout SCRIPT: runs it with --timeout, sets RC and MS (ms past the limit).
run_timeout() {
  local t0=$(now_ms)
  timeout -k 5 60 "$STRAIT" --timeout=${LIMIT_MS}ms -e "$1" >"$TMP/o" 2>"$TMP/e" </dev/null
  RC=$?
  MS=$(( $(now_ms) - t0 - LIMIT_MS ))
}

# run_sigint SCRIPT: SIGINT once the script printed ready; RC, MS (ms from the signal).
run_sigint() {
  rm -f "$TMP/o"
  "$STRAIT" -e "$1" >"$TMP/o" 2>"$TMP/e" </dev/null & local pid=$!
  for _ in $(seq 300); do grep -q ready "$TMP/o" 2>/dev/null && break; sleep 0.05; done
  sleep 0.1
  local t0=$(now_ms)
  kill -INT $pid
  # bounded: a process that does not stop is killed after 60 s (a failure)
  ( sleep 60; kill -9 $pid 2>/dev/null ) & local guard=$!
  wait $pid; RC=$?
  MS=$(( $(now_ms) - t0 ))
  kill $guard 2>/dev/null; wait $guard 2>/dev/null
}

java_ok=0
if timeout 60 "$STRAIT" -e 'java.lang.System.currentTimeMillis()' >/dev/null 2>&1; then java_ok=1; fi

for w in "${WAYS[@]}"; do
  IFS='|' read -r name needs script <<<"$w"
  if [[ $needs == java && $java_ok -ne 1 ]]; then continue; fi
  run_timeout "$script"
  if [[ $name == worker ]]; then
    check "--timeout / $name" '[[ $RC -eq 1 && $MS -le $BOUND_MS ]] && grep -q "time limit of $LIMIT_MS ms" "$TMP/e"'
  else
    check "--timeout / $name" '[[ $RC -eq 1 && $MS -le $BOUND_MS ]] && grep -qx "strait: time limit of $LIMIT_MS ms exceeded" "$TMP/e"'
  fi
  run_sigint "$script"
  check "SIGINT / $name" '[[ $RC -eq 130 && $MS -le $BOUND_MS ]] && grep -q "strait: interrupted" "$TMP/e"'
done
# a loop of short timer callbacks is no entry that a time limit bounds (each
# callback is one), but Ctrl-C ends it
run_sigint 'setInterval(() => {}, 0); console.log("ready")'
check "SIGINT / interval of short callbacks" '[[ $RC -eq 130 && $MS -le $BOUND_MS ]]'

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
