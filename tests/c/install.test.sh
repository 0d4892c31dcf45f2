#!/bin/sh
# install.test.sh - `make install` into a temporary DESTDIR: the files land
# where they should (versioned library, its SONAME and dev symlinks, the
# headers, strait.pc, the launcher, strait.jar), a C program built with
# `pkg-config --cflags --libs strait` against the installed header and
# library runs, and the installed launcher runs a script. Run by
# scripts/test-c.sh; BUILD selects the build directory. Ends with
# "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
CC=${CC:-cc}
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "install: $*" >&2; }
check() { if eval "$1"; then ok; else bad "$2"; fi; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest="$tmp/root"
prefix=/opt/strait
root="$dest$prefix"
version=$(cat VERSION)
major=${version%%.*}

if ! make --no-print-directory -s BUILD="$BUILD" DESTDIR="$dest" PREFIX="$prefix" install \
    >"$tmp/make.log" 2>&1; then
  cat "$tmp/make.log" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

check '[ -f "$root/lib/libstrait.so.$version" ] && [ ! -L "$root/lib/libstrait.so.$version" ]' \
  "lib/libstrait.so.$version is not a file"
check '[ "$(readlink "$root/lib/libstrait.so.$major")" = "libstrait.so.$version" ]' \
  "lib/libstrait.so.$major does not link to libstrait.so.$version"
check '[ "$(readlink "$root/lib/libstrait.so")" = "libstrait.so.$major" ]' \
  "lib/libstrait.so does not link to libstrait.so.$major"
check '[ -f "$root/include/strait.h" ] && [ -f "$root/include/strait_jvm.h" ]' "headers missing"
check '[ -x "$root/bin/strait" ] && [ -f "$root/lib/strait.jar" ]' "launcher or jar missing"
check 'grep -qx "Version: $version" "$root/lib/pkgconfig/strait.pc"' "strait.pc has no Version: $version"
# The public headers include only each other and system/JSC headers.
check '! grep -h "#include \"" "$root/include/strait.h" "$root/include/strait_jvm.h" | grep -v "\"strait.h\""' \
  "a public header includes a private one"

cat >"$tmp/hello.c" <<'C'
#include <strait.h>
#include <stdio.h>
#include <string.h>

static void out(void *ud, int fd, const char *s, size_t n) { fwrite(s, 1, n, stdout); }

int main(void) {
  strait_options o = {.write = out};
  strait_runtime *rt;
  if (strait_runtime_new(&o, &rt)) return 1;
  strait_enter(rt);
  const char *src = "console.log('hello', 6 * 7)";
  JSValueRef exc = NULL;
  int rc = strait_eval_utf8(rt, src, strlen(src), "hello.js", NULL, &exc);
  strait_leave(rt);
  strait_runtime_free(rt);
  printf("%s %d\n", strait_version(), rc);
  return rc;
}
C
# strait.pc names the final prefix; a copy of it points into DESTDIR
# (pkg-config's own relocation would move JSC's paths too).
mkdir -p "$tmp/pc"
sed "s|^prefix=.*|prefix=$root|" "$root/lib/pkgconfig/strait.pc" >"$tmp/pc/strait.pc"
check 'grep -qx "prefix=$prefix" "$root/lib/pkgconfig/strait.pc"' "strait.pc has no prefix=$prefix"
flags=$(PKG_CONFIG_PATH="$tmp/pc" pkg-config --cflags --libs strait)
check '[ -n "$flags" ]' "pkg-config found no strait"
if $CC -o "$tmp/hello" "$tmp/hello.c" $flags 2>"$tmp/cc.log"; then
  ok
  out=$(LD_LIBRARY_PATH="$root/lib" "$tmp/hello" 2>&1)
  check '[ "$out" = "hello 42
$version 0" ]' "the program printed: $out"
else
  cat "$tmp/cc.log" >&2
  bad "the program against the installed library did not build"
fi

out=$("$root/bin/strait" -p '6 * 7' 2>&1)
check '[ "$out" = 42 ]' "the installed launcher printed: $out"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
