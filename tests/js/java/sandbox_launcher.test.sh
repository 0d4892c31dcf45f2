#!/usr/bin/env bash
# sandbox_launcher.test.sh - the launcher's Java sandbox flags seen from
# outside (docs/sandbox.md): --deny-native under --host-access=all says at
# start-up that it is no boundary there (and is quiet where it is one);
# --deny-threads keeps the script's JS off threads a Java API started, even
# one reached through reflection (full access); callbacks on the script's
# own thread still run. Run by scripts/test-js.sh. Prints `N passed, N failed`.
set -u
cd "$(dirname "$0")/../../.."
BUILD=${BUILD:-build}
STRAIT=${STRAIT:-$BUILD/bin/strait}
case $STRAIT in /*) ;; *) STRAIT=$PWD/$STRAIT ;; esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/strait-sandbox.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { if eval "$2"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $1: rc=$RC out=$OUT err=$ERR"; fi; }
st() { timeout -k 5 60 "$STRAIT" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null; RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err"); }

# ---- --deny-native -----------------------------------------------------------
st --deny-native -e 'console.log("ok")'
check "--deny-native under all: a start-up note says it does not hold" \
  '[[ $RC -eq 0 && "$OUT" == ok && "$ERR" == *"--deny-native does not hold under --host-access=all"* ]]'
st --deny-native --host-access=given -e 'console.log("ok")'
check "--deny-native under given: no note" '[[ $RC -eq 0 && "$OUT" == ok && -z "$ERR" ]]'
st --host-access=explicit --deny-native -e 'console.log("ok")'
check "--deny-native under explicit: no note" '[[ $RC -eq 0 && "$OUT" == ok && -z "$ERR" ]]'
st -e 'console.log("ok")'
check "no --deny-native: no note" '[[ $RC -eq 0 && -z "$ERR" ]]'
st --deny-native -e 'try { java.lang.System.load("/nonexistent/libx.so"); console.log("loaded") } catch (e) { console.log(e.message) }'
check "--deny-native under all: the direct member is still denied" '[[ "$OUT" == *"System.load"*"is not accessible"* ]]'

# ---- --deny-threads ------------------------------------------------------------
# CompletableFuture.runAsync through Method.invoke (reflection: full access):
# the pool's thread must not run the script's Runnable
st --deny-threads -e '
globalThis.ran = 0;
const m = java.lang.Class.forName("java.util.concurrent.CompletableFuture")
  .getMethod("runAsync", java.lang.Class.forName("java.lang.Runnable"));
const f = m.invoke(null, new java.lang.Runnable({ run() { globalThis.ran++ } }));
let why = "completed";
try { f.get(10, java.util.concurrent.TimeUnit.SECONDS) } catch (e) { why = e.message }
console.log(globalThis.ran, why.includes("cannot run on thread"), why.includes("--deny-threads"))'
check "--deny-threads: reflection to runAsync does not run the script's JS" '[[ $RC -eq 0 && "$OUT" == "0 true true" ]]'
st --deny-threads -e '
const l = new java.util.ArrayList(); l.add(3); l.add(1); l.add(2);
l.sort((a, b) => a - b);
const o = []; l.forEach(x => o.push(x)); console.log(o.join())'
check "--deny-threads: callbacks on the script's thread run" '[[ $RC -eq 0 && "$OUT" == "1,2,3" ]]'
st -e '
globalThis.ran = 0;
const f = java.util.concurrent.CompletableFuture.runAsync(new java.lang.Runnable({ run() { globalThis.ran++ } }));
f.get(10, java.util.concurrent.TimeUnit.SECONDS); console.log(globalThis.ran)'
check "threads allowed: the pool runs the script's JS" '[[ $RC -eq 0 && "$OUT" == 1 ]]'
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
