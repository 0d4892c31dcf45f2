#!/usr/bin/env bash
# Builds everything once, runs every suite (C core, JS specs, Java/JUnit),
# prints each suite's summary line and then the summed line
# `N passed, N failed[, N skipped]`. Exits non-zero if anything failed.
# A suite script that is missing, or ends without a summary line, counts as
# one failure; the run goes on. Environment: BUILD (default build).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export BUILD

summary_re='^([A-Za-z]+: )?([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$'
total_p=0 total_f=0 total_s=0
lines=()

echo "== build ($BUILD)"
if ! make --no-print-directory BUILD="$BUILD" all; then
  echo "test-all: build failed"
  echo "0 passed, 1 failed"
  exit 1
fi

for suite in c js java; do
  script="scripts/test-$suite.sh"
  echo "== $suite ($script)"
  p=0 f=0 s=0 rc=0 line=""
  if [[ ! -f "$script" ]]; then
    echo "test-all: $script is missing"
    f=1
  else
    log=$(mktemp)
    bash "$script" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    line=$(grep -E "$summary_re" "$log" | tail -n 1)
    rm -f "$log"
    if [[ -n "$line" && "$line" =~ $summary_re ]]; then
      p=${BASH_REMATCH[2]} f=${BASH_REMATCH[3]} s=${BASH_REMATCH[5]:-0}
      if [[ $rc -ne 0 && $f -eq 0 ]]; then
        echo "test-all: $script exited $rc with no failure counted"
        f=1
      fi
    else
      echo "test-all: $script ended without a summary line (exit code $rc)"
      f=1
    fi
  fi
  one="$p passed, $f failed"
  [[ $s -ne 0 ]] && one="$one, $s skipped"
  lines+=("$(printf '%-6s %s' "$suite:" "$one")")
  total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + s))
done

echo "== summary"
for l in "${lines[@]}"; do echo "$l"; done
line="$total_p passed, $total_f failed"
[[ $total_s -ne 0 ]] && line="$line, $total_s skipped"
echo "$line"
[[ $total_f -eq 0 ]]
