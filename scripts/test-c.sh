#!/bin/sh
# Builds the core library and runs every C unit test (tests/c/test_*.c),
# then the shell suites tests/c/*.test.sh (exports, install) that look at
# the built libstrait.so: those run only when $BUILD/lib/libstrait.so exists
# (`make test-c` builds it; the ASan build of `make asan` has only the core).
# BUILD selects the build directory (default build); SAN=1 compiles and
# links the tests with AddressSanitizer + UBSan (the Makefile's `asan`
# target builds the library that way first). Ends with one line
# "N passed, N failed" summed over all test programs; exits non-zero when a
# test failed or a program crashed.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
CC=${CC:-cc}
SAN=${SAN:-0}

mkdir -p "$BUILD/tests/c"
make --no-print-directory -s BUILD="$BUILD" "$BUILD/libstraitcore.a" >"$BUILD/tests/c/make.log" 2>&1 || {
  cat "$BUILD/tests/c/make.log" >&2
  echo "test-c: library build failed" >&2
  echo "0 passed, 1 failed"
  exit 1
}

CFLAGS="-std=gnu11 -O1 -g -pthread -Wall -Wextra -Wno-unused-parameter -Wno-unused-function"
if [ "$SAN" = 1 ]; then
  CFLAGS="$CFLAGS -fsanitize=address,undefined -fno-omit-frame-pointer"
  # JSC keeps some allocations for the life of the process (its VM, JIT and
  # per-thread data); tests/c/lsan.supp names exactly those.
  export LSAN_OPTIONS="suppressions=$(pwd)/tests/c/lsan.supp:print_suppressions=0"
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_stack_use_after_return=0:handle_segv=1}"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
fi
JSC_CFLAGS=$(pkg-config --cflags javascriptcoregtk-4.1)
JSC_LIBS=$(pkg-config --libs javascriptcoregtk-4.1)

mkdir -p "$BUILD/tests/c"
passed=0
failed=0

# Adds up one program's "N passed, N failed" (the last line of its output
# $3; $2 is its exit status) and prints it as "test-c: $1: ...".
tally() {
  last=$(printf '%s\n' "$3" | tail -n 1)
  p=$(printf '%s\n' "$last" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\1/p')
  f=$(printf '%s\n' "$last" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\2/p')
  if [ -z "$p" ]; then
    echo "test-c: $1: crashed or printed no summary (exit $2)" >&2
    printf '%s\n' "$3" | tail -n 5 >&2
    failed=$((failed + 1))
    return
  fi
  if [ "$2" != 0 ] && [ "$f" = 0 ]; then
    echo "test-c: $1: exit status $2" >&2
    f=1
  fi
  echo "test-c: $1: $last"
  passed=$((passed + p))
  failed=$((failed + f))
}

for src in tests/c/test_*.c; do
  name=$(basename "$src" .c)
  bin="$BUILD/tests/c/$name"
  if ! $CC $CFLAGS -Iinclude -Isrc -Isrc/core -Itests/c $JSC_CFLAGS -o "$bin" "$src" \
      "$BUILD/libstraitcore.a" $JSC_LIBS -lm; then
    echo "test-c: $name: compile failed" >&2
    failed=$((failed + 1))
    continue
  fi
  # test_workers makes hundreds of JSC heaps on short-lived threads, and
  # test_codec frees runtimes while JSC's JIT threads may still build a
  # string: JSC leaks a small block there (tests/c/lsan.supp); the
  # suppressions name JSC's functions, which only a full unwind of malloc's
  # stack shows.
  if [ "$SAN" = 1 ] && { [ "$name" = test_workers ] || [ "$name" = test_codec ]; }; then
    out=$(ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0" "$bin" 2>"$bin.stderr")
  else
    out=$("$bin" 2>"$bin.stderr")
  fi
  rc=$?
  cat "$bin.stderr" >&2
  tally "$name" "$rc" "$out"
done
for sh in tests/c/*.test.sh; do
  name=$(basename "$sh" .test.sh)
  if [ ! -f "$BUILD/lib/libstrait.so" ]; then
    echo "test-c: $name: not run (no $BUILD/lib/libstrait.so)"
    continue
  fi
  out=$(BUILD="$BUILD" sh "$sh")
  tally "$name" "$?" "$out"
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
