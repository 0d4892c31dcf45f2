#!/usr/bin/env bash
# workers_launcher.test.sh - workers seen from the strait command: when the
# process exits (main loop and every worker with work done), exit codes,
# uncaught worker errors, and what a worker inherits (limits, deny
# switches, host access). Run by scripts/test-js.sh. Prints `N passed, N failed`.
set -u
cd "$(dirname "$0")/../../.."
BUILD=${BUILD:-build}
STRAIT=${STRAIT:-$BUILD/bin/strait}
case $STRAIT in /*) ;; *) STRAIT=$PWD/$STRAIT ;; esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/strait-workers.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { if eval "$2"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $1: rc=$RC out=$OUT err=$ERR"; fi; }
st() { timeout -k 5 60 "$STRAIT" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null; RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err"); }
cd "$TMP"

# A worker that only waits for messages, and a main that waits only for it:
# nothing can send a message any more, so the process ends (Node would hang).
echo 'onmessage = (e) => postMessage(e.data + 1)' >echo1.js
st -e 'const w = new Worker("./echo1.js"); w.onmessage = (e) => console.log("got", e.data); w.postMessage(1)'
check "exits when the main and the worker only wait for messages" '[[ $RC -eq 0 && "$OUT" == "got 2" ]]'

# The main waits for a worker that still has work.
echo 'setTimeout(() => postMessage("late"), 300)' >late.js
st -e 'const w = new Worker("./late.js"); w.onmessage = (e) => console.log(e.data)'
check "waits for a worker with a pending timer" '[[ $RC -eq 0 && "$OUT" == late ]]'

# A worker with nothing to wait for ends by itself; so does the process.
echo 'postMessage("done")' >once.js
st -e 'const { Worker } = require("worker_threads"); const w = new Worker("./once.js"); w.on("message", console.log); w.on("exit", (c) => console.log("exit", c))'
check "a worker without listeners ends, exit 0" '[[ $RC -eq 0 && "$OUT" == $'"'"'done\nexit 0'"'"' ]]'

# An uncaught worker error nobody listens for is an uncaught error of the main.
echo 'throw new Error("nobody listens")' >bad.js
st -e 'new Worker("./bad.js")'
check "an unhandled worker error exits 1 and is reported" '[[ $RC -eq 1 && "$ERR" == *"nobody listens"* ]]'

# process.exit() in a worker ends the worker only.
echo 'process.exit(5)' >exit5.js
st -e 'const { Worker } = require("worker_threads"); new Worker("./exit5.js").on("exit", (c) => console.log("worker exit", c)); setTimeout(() => console.log("main goes on"), 100)'
check "process.exit in a worker ends only the worker" '[[ $RC -eq 0 && "$OUT" == $'"'"'worker exit 5\nmain goes on'"'"' ]]'

# The main's process.exit() ends everything, busy workers included.
echo 'for (;;) {}' >spin.js
st -e 'new Worker("./spin.js"); setTimeout(() => process.exit(3), 100)'
check "process.exit in the main ends busy workers" '[[ $RC -eq 3 ]]'

# An uncaught error in the main with a busy worker: exit 1 at once.
st -e 'new Worker("./spin.js"); setTimeout(() => { throw new Error("main fails") }, 100)'
check "an uncaught main error ends busy workers" '[[ $RC -eq 1 && "$ERR" == *"main fails"* ]]'

# Inherited: deny switches, host access, time limit.
echo 'postMessage(Object.keys(process.env).length)' >env.js
st --deny-env -e 'new Worker("./env.js").onmessage = (e) => console.log(e.data)'
check "--deny-env applies to workers" '[[ $RC -eq 0 && "$OUT" == 0 ]]'
echo 'postMessage(typeof java + " " + typeof Java)' >java.js
st --host-access=none -e 'new Worker("./java.js").onmessage = (e) => console.log(e.data)'
check "--host-access=none applies to workers" '[[ $RC -eq 0 && "$OUT" == "undefined undefined" ]]'
st -e 'new Worker("./java.js").onmessage = (e) => console.log(e.data)'
check "a worker of the launcher has Java" '[[ $RC -eq 0 && "$OUT" == "object object" ]]'
st --timeout=300ms -e 'const w = new Worker("./spin.js"); w.onerror = (e) => { console.log(e.message); e.preventDefault() }'
check "--timeout applies to a worker" '[[ $RC -eq 0 && "$OUT" == *"time limit of 300 ms"* ]]'
mkdir -p root && echo 'postMessage(1)' >root/in.js
st --fs-root="$TMP/root" -e 'new Worker("'"$TMP"'/spin.js").onerror = (e) => console.log(e.message)'
check "--fs-root applies to a worker's script" '[[ $RC -eq 0 && "$OUT" == *"is outside the runtime'"'"'s file root"* ]]'

st --deny-threads -e 'try { new Worker("./once.js") } catch (e) { console.log(e.code) }'
check "--deny-threads refuses workers" '[[ $RC -eq 0 && "$OUT" == ERR_ACCESS_DENIED ]]'

# The parts loaded on first use (structuredClone, workers) use the built-ins
# captured when the runtime started, not what a script replaced before.
st -e 'const v = { m: new Map([[1, { a: [1, 2] }]]) }; Map.prototype.get = () => 42; Map.prototype.set = null; WeakMap.prototype.get = null; Function.prototype.call = null; Function.prototype.bind = null; Array.prototype.push = null; Object.keys = null; const c = structuredClone(v); console.log(c.m.size, JSON.stringify([...c.m.entries()])); const { port1, port2 } = new MessageChannel(); port2.onmessage = (e) => { console.log("port", JSON.stringify(e.data)); port1.close(); }; port1.postMessage([1, 2])'
check "built-ins replaced before first use do not matter" '[[ $RC -eq 0 && "$OUT" == $'"'"'1 [[1,{"a":[1,2]}]]\nport [1,2]'"'"' ]]'

# Ctrl-C while a worker spins: the main is interrupted, the process exits 130.
( sleep 0.5; pkill -INT -f "strait-workers.*sigint.js" ) &
echo 'new Worker("./spin.js"); setInterval(() => {}, 1000)' >sigint.js
st "$TMP/sigint.js"
check "Ctrl-C ends the main and its workers" '[[ $RC -eq 130 ]]'

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
