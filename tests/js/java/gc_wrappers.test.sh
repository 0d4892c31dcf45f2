#!/usr/bin/env bash
# Runs tests/js/fixtures/gc_wrappers.js with JavaScriptCore collecting all
# the time and scribbling over freed cells, with concurrent marking on (as
# shipped) and off: a wrapper that a collection found dead but whose token
# was not finalized yet must never be handed to JS again (before the fix it
# crashed or threw in nearly every run). Each run passes when it prints "ok"
# and exits 0. Then checks that wrapper churn keeps the process's memory
# bounded. Prints `N passed, N failed` and exits non-zero on a failure.
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
# Wrapper churn keeps memory bounded: 4 million more wrappers (with a
# small Java heap) may not grow the process by more than 48 MB (JSC's weak
# handle blocks leaked about 15 MB per million before jb_flush swept them: 78 MB
# here, against 20 MB with the sweep and 24 MB without weak handles).
out=$(timeout -k 5 300 "$STRAIT" -J-Xmx48m ../fixtures/churn_rss.js 2>&1)
rc=$?
if [[ $rc -eq 0 && "$out" =~ ^-?[0-9]+$ && $out -lt 49152 ]]; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL gc_wrappers > churning 4 million wrappers keeps RSS bounded (exit $rc, grew ${out:0:200} KB)"
fi
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
