#!/usr/bin/env bash
# Runs tests/js/fixtures/gc_wrappers.js with JavaScriptCore collecting all
# the time and scribbling over freed cells, with concurrent marking on (as
# shipped) and off: a wrapper that a collection found dead but whose token
# was not finalized yet must never be handed to JS again (before the fix it
# crashed or threw in nearly every run). Each run passes when it prints "ok"
# and exits 0. Prints `N passed, N failed` and exits non-zero on a failure.
set -u
cd "$(dirname "$0")"
STRAIT=${STRAIT:-../../../${BUILD:-build}/bin/strait}
FIXTURE=../fixtures/gc_wrappers.js
passed=0 failed=0
run() {   # name, extra environment...
  local name=$1
  shift
  local out rc
  out=$(env "$@" JSC_collectContinuously=1 JSC_scribbleFreeCells=1 timeout -k 5 120 "$STRAIT" "$FIXTURE" 2>&1)
  rc=$?
  if [[ $rc -eq 0 && "$out" == ok ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL gc_wrappers > $name (exit $rc)"
    head -5 <<<"$out" | sed 's/^/  /'
  fi
}
for i in 1 2 3; do run "concurrent marking, run $i" JSC_useConcurrentGC=true; done
for i in 1 2; do run "stop-the-world marking, run $i" JSC_useConcurrentGC=false; done
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
