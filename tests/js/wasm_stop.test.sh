#!/usr/bin/env bash
# wasm_stop.test.sh - WebAssembly code is stopped like JS (src/core/wasm.c,
# src/core/js/wasm.js): each never-ending export of tests/c/wasm/stops.wasm
# (a loop, mutual return_call recursion, a loop in try/catch_all, a loop
# calling JS, deep recursion) and of stops_tt.wasm (a loop in a try_table)
# ends on the launcher's --timeout with exit 1 and the time limit's message,
# no catch or finally of the script running, within a bound; Ctrl-C ends a
# wasm loop with exit 130. JavaScriptCore's watchdog never reaches into wasm
# code: without the meter each of these runs until `timeout` kills it.
# Run by scripts/test-js.sh. Prints `N passed, N failed`.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
STRAIT=${STRAIT:-$BUILD/bin/strait}
case $STRAIT in /*) ;; *) STRAIT=$PWD/$STRAIT ;; esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/strait-wasm-stop.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { if eval "$2"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $1: rc=$RC ms=$MS out=$OUT err=$ERR"; fi; }
now_ms() { date +%s%3N; }

# A script that runs export $2 of module file $1 inside try/catch/finally.
script() {
  local bytes
  bytes=$(od -An -v -tu1 "tests/c/wasm/$1.wasm" | tr -s ' \n' ',' | sed 's/^,//;s/,$//')
  cat >"$TMP/$2.js" <<JS
const i = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array([$bytes])), { env: { f() { return 1; } } });
console.log('ready');
try { i.exports.$2(0); } catch (e) { console.log('caught', String(e)); } finally { console.log('finally ran'); }
console.log('after');
JS
}

for e in loop tail try_loop import_loop recurse; do script stops "$e"; done
script stops_tt try_table_loop

for e in loop tail try_loop try_table_loop import_loop recurse; do
  t0=$(now_ms)
  timeout -k 5 15 "$STRAIT" --timeout=200ms "$TMP/$e.js" >"$TMP/out" 2>"$TMP/err" </dev/null
  RC=$?; MS=$(( $(now_ms) - t0 )); OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
  check "--timeout=200ms stops $e" '[[ $RC -eq 1 && "$ERR" == *"time limit of 200 ms exceeded"* && "$OUT" == ready ]]'
  check "--timeout=200ms stops $e within 5 s" '[[ $MS -lt 5000 ]]'
done

# Ctrl-C during a wasm loop
rm -f "$TMP/o"
"$STRAIT" "$TMP/loop.js" >"$TMP/o" 2>"$TMP/e" </dev/null & pid=$!
for _ in $(seq 300); do grep -q ready "$TMP/o" 2>/dev/null && break; sleep 0.1; done
sleep 0.3; kill -INT $pid
for _ in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -KILL $pid 2>/dev/null
wait $pid; RC=$?; MS=0; OUT=$(cat "$TMP/o"); ERR=$(cat "$TMP/e")
check "Ctrl-C stops a wasm loop" '[[ $RC -eq 130 && "$ERR" == "strait: interrupted" && "$OUT" == ready ]]'

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
