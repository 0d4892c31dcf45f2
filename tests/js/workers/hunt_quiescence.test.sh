#!/usr/bin/env bash
# hunt_quiescence.test.sh - a process whose last active loop is one that
# waits only for messages must end (docs/workers.md, "Lifetimes"): the
# member that goes idle last sees the quiescence it makes itself. Generated
# over the ways the main (or a worker) is left with only listeners after
# its workers ended (by themselves, terminate(), close(), process.exit(),
# an error), with the listener on a MessagePort, a Worker, a transferred
# port's other end, nested workers; and over the same with a terminated
# worker's exit event, which must still arrive (a terminated worker is
# active until its parent has its exit). Run by scripts/test-js.sh.
# Prints `N passed, N failed`.
set -u
cd "$(dirname "$0")/../../.."
BUILD=${BUILD:-build}
STRAIT=${STRAIT:-$BUILD/bin/strait}
case $STRAIT in /*) ;; *) STRAIT=$PWD/$STRAIT ;; esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/strait-hunt-q.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
cd "$TMP"

echo 'onmessage = () => {}' >idle.js
echo '1' >done.js
echo 'self.close()' >closes.js
echo 'process.exit(3)' >exits.js
echo 'throw new Error("boom")' >throws.js
echo 'const w = new Worker("./done.js"); const { port1 } = new MessageChannel(); port1.onmessage = () => {}; onmessage = () => {}' >nest.js

# How the worker ends: [name, script, what the parent does with it]
ENDS=(
  "ends by itself|./done.js|"
  "is terminated|./idle.js|setTimeout(() => w.terminate(), 30);"
  "closes itself|./closes.js|"
  "calls process.exit|./exits.js|"
  "throws|./throws.js|w.onerror = () => {};"
  "has a nested worker and is terminated|./nest.js|setTimeout(() => w.terminate(), 100);"
)
# What the parent listens to afterwards: [name, code]
LISTENS=(
  "a MessagePort|const { port1 } = new MessageChannel(); port1.onmessage = () => {};"
  "a transferred port's other end|const { port1, port2 } = new MessageChannel(); port1.onmessage = () => {}; w.postMessage(0, [port2]);"
  "the Worker itself|w.onmessage = () => {};"
  "a port and the Worker|const { port1 } = new MessageChannel(); port1.onmessage = () => {}; w.onmessage = () => {};"
)
for e in "${ENDS[@]}"; do
  IFS='|' read -r ename file act <<<"$e"
  for l in "${LISTENS[@]}"; do
    IFS='|' read -r lname code <<<"$l"
    src="const w = new Worker('$file'); $code $act setTimeout(() => console.log('main done'), 10);"
    timeout -k 5 20 "$STRAIT" -e "$src" >out 2>err </dev/null
    rc=$?
    if [[ $rc -ne 124 && $rc -ne 137 && "$(cat out)" == "main done" ]]; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      echo "FAIL the worker $ename, the main listens to $lname: rc=$rc out=$(cat out) err=$(head -c 300 err)"
    fi
  done
done

# A terminated worker's exit event still arrives when the parent has only listeners left.
NODE_LISTENS=(
  "a MessagePort|const { port1 } = new MessageChannel(); port1.on('message', () => {});"
  "a transferred port's other end|const { port1, port2 } = new MessageChannel(); port1.on('message', () => {}); w.postMessage(0, [port2]);"
  "the Worker itself|w.on('message', () => {});"
)
for l in "${NODE_LISTENS[@]}"; do
  IFS='|' read -r lname code <<<"$l"
  src="const { Worker, MessageChannel } = require('worker_threads'); const w = new Worker('./idle.js'); $code
       w.on('exit', (c) => console.log('exit', c)); setTimeout(() => w.terminate(), 30);"
  timeout -k 5 20 "$STRAIT" -e "$src" >out 2>err </dev/null
  rc=$?
  if [[ $rc -eq 0 && "$(cat out)" == "exit 1" ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL a terminated worker's exit event, the main listens to $lname: rc=$rc out=$(cat out) err=$(head -c 300 err)"
  fi
done

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
