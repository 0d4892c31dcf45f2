#!/usr/bin/env bash
# Runs tests/js/fixtures/class_fields.js (every public field of classes with
# many fields, read through the bridge and compared with reflection) with
# JavaScriptCore collecting all the time and scribbling over freed cells.
# Describing a class keeps its field names and accessors in C memory while
# it allocates more; before they were protected there, a collection freed
# them: 8 runs in 10 crashed or lost a field. Each run passes when it prints
# "ok <count>" and exits 0. Prints `N passed, N failed`; non-zero on failure.
set -u
cd "$(dirname "$0")"
STRAIT=${STRAIT:-../../../${BUILD:-build}/bin/strait}
FIXTURE=../fixtures/class_fields.js
passed=0 failed=0
run() {   # name, extra environment...
  local name=$1
  shift
  local out rc
  out=$(env "$@" JSC_collectContinuously=1 JSC_scribbleFreeCells=1 timeout -k 5 120 "$STRAIT" "$FIXTURE" 2>&1)
  rc=$?
  if [[ $rc -eq 0 && "$out" =~ ^ok\ [0-9]+$ ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL class_fields_gc > $name (exit $rc)"
    head -5 <<<"$out" | sed 's/^/  /'
  fi
}
for i in 1 2 3 4; do run "concurrent marking, run $i" JSC_useConcurrentGC=true; done
for i in 1; do run "stop-the-world marking, run $i" JSC_useConcurrentGC=false; done
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
