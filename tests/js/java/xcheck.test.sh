#!/usr/bin/env bash
# Runs every bridge spec (tests/js/java/*.spec.js) once more under the JVM's
# JNI checker (-Xcheck:jni): a spec passes when it passes there too and the
# JVM printed no "WARNING in native method" or fatal error (a missing
# exception check, a local ref misuse, a bad ref). The checker's signal
# handler notes ("Warning: SIGSEGV handler modified!", about the launcher's
# JSC start-up, docs/signals.md) are not the bridge's and are ignored. Prints
# `N passed, N failed` and exits non-zero on a failure.
set -u
cd "$(dirname "$0")"
STRAIT=${STRAIT:-../../../${BUILD:-build}/bin/strait}
case "$STRAIT" in /*) ;; *) STRAIT="$(cd "$(dirname "$STRAIT")" && pwd)/$(basename "$STRAIT")" ;; esac
passed=0 failed=0
for spec in *.spec.js; do
  out=$(timeout -k 5 180 "$STRAIT" -J-Xcheck:jni "$spec" 2>&1)
  rc=$?
  if [[ $rc -ne 0 ]] || grep -qE 'WARNING in native method|FATAL ERROR in native method|A fatal error' <<<"$out"; then
    failed=$((failed + 1))
    echo "FAIL xcheck $spec (exit $rc)"
    grep -E 'WARNING in native|FATAL|fatal error|FAIL' <<<"$out" | head -5 | sed 's/^/  /'
  else
    passed=$((passed + 1))
  fi
done
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
