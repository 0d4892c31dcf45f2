#!/usr/bin/env bash
# Functional interfaces of an application (fixtures/Functional.java:
# interfaces not annotated @FunctionalInterface, classes implementing one,
# two or a wide one): fixtures/functional_user.js calls them. Prints
# `N passed, N failed`.
set -u
cd "$(dirname "$0")"
STRAIT=${STRAIT:-../../../${BUILD:-build}/bin/strait}
JAVA_HOME=${JAVA_HOME:-$(../../../scripts/java-home.sh)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! "$JAVA_HOME/bin/javac" -d "$tmp" fixtures/Functional.java; then
  echo "0 passed, 1 failed"
  exit 1
fi
out=$(timeout -k 5 120 "$STRAIT" -cp "$tmp" fixtures/functional_user.js 2>&1)
rc=$?
printf '%s\n' "$out" | grep -vE '^[0-9]+ passed, [0-9]+ failed$' | head -40
line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -1)
if [[ $rc -ne 0 || -z "$line" ]]; then
  echo "functional_user.js exited with $rc"
  p=${line%% *}
  echo "${p:-0} passed, 1 failed"
  exit 1
fi
echo "$line"
[[ "$line" == *" 0 failed" ]]
