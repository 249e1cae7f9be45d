#!/usr/bin/env bash
# The installed library is a system library: a copy of the install prefix in a fresh directory
# (so no build path can help) has libfastrouter.so.X.Y.Z with its SONAME and development links,
# a SONAME of libfastrouter.so.X, no RUNPATH, no dependency on the Swift toolchain (runtime,
# Foundation, ICU, libdispatch) and only fr_* symbols; a C program built against the copy with
# `cc app.c $(pkg-config --cflags --libs fastrouter)` runs with an empty environment.
#   test_install.sh PREFIX WORKDIR
# The toolchain is the one `swift` (or $SWIFT) resolves to.
set -uo pipefail
prefix=${1:?usage: test_install.sh PREFIX WORKDIR} work=${2:?usage: test_install.sh PREFIX WORKDIR}
repo=$(cd "$(dirname "$0")/../.." && pwd)
passed=0 failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAILED: $*" >&2; }

header="$prefix/include/fastrouter.h"
version=$(sed -n 's/^#define FR_VERSION "\(.*\)".*/\1/p' "$header")
major=$(sed -n 's/^#define FR_VERSION_MAJOR \([0-9]*\).*/\1/p' "$header")
[ -n "$version" ] && [ -n "$major" ] || { echo "no FR_VERSION / FR_VERSION_MAJOR in $header" >&2; exit 1; }
soname=libfastrouter.so.$major
real=libfastrouter.so.$version
toolchain=
if swift=$(command -v "${SWIFT:-swift}" 2>/dev/null); then
  toolchain=$(realpath "$(dirname "$(realpath "$swift")")/..")
fi

copy=$(mktemp -d "${TMPDIR:-/tmp}/fastrouter-install.XXXXXX") || exit 1
trap 'rm -rf "$copy"' EXIT
cp -a "$prefix/." "$copy/"
# fastrouter.pc names the prefix it was installed under: point it at the copy.
sed -i -e "s|^prefix=.*|prefix=$copy|" -e "s|^libdir=.*|libdir=$copy/lib|" \
    -e "s|^includedir=.*|includedir=$copy/include|" "$copy/lib/pkgconfig/fastrouter.pc"
lib="$copy/lib/$real"

# Layout: the file, libfastrouter.so.X -> it, libfastrouter.so -> libfastrouter.so.X.
if [ -f "$lib" ] && [ ! -L "$lib" ]; then pass; else fail "$real is not a regular file in lib/"; fi
if [ "$(readlink "$copy/lib/$soname")" = "$real" ]; then pass; else fail "$soname does not link to $real"; fi
if [ "$(readlink "$copy/lib/libfastrouter.so")" = "$soname" ]; then pass; else fail "libfastrouter.so does not link to $soname"; fi
size=$(stat -c %s "$lib")
echo "$real: $((size / 1024 / 1024)) MB ($size bytes)"

# Dynamic section: the SONAME, and no RUNPATH or RPATH at all (nothing to find outside the system).
dynamic=$(readelf -d "$lib")
if grep -q "Library soname: \[$soname\]" <<< "$dynamic"; then pass; else fail "SONAME is not $soname: $(grep SONAME <<< "$dynamic")"; fi
if ! grep -E '\((RUNPATH|RPATH)\)' <<< "$dynamic" >&2; then pass; else fail "the library has the RUNPATH/RPATH above"; fi

# Dependencies, as the dynamic loader resolves them with no LD_LIBRARY_PATH.
forbidden='not found|libswift|libFoundation|lib_Foundation|libicu|libdispatch|libBlocksRuntime'
check_deps() { # WHAT LDD-OUTPUT
  local bad
  bad=$({ grep -E "$forbidden" <<< "$2"; grep -F "$repo/" <<< "$2"
          [ -z "$toolchain" ] || grep -F "$toolchain/" <<< "$2"; } | sort -u)
  if [ -z "$bad" ]; then pass; else fail "$1 needs these (missing, toolchain or build-tree) libraries:"$'\n'"$bad"; fi
}
deps=$(env -i PATH=/usr/bin:/bin ldd "$lib")
echo "ldd $real:"; echo "$deps"
check_deps "$real" "$deps"

# Exported: fr_* functions, nothing else defined (no Swift symbols, no data, no linker symbols).
exported=$(nm -D --defined-only "$lib")
if awk '!($2 == "T" && $3 ~ /^fr_[a-z_]+$/) { print; bad = 1 } END { exit bad }' <<< "$exported" >&2; then pass
else fail "defined dynamic symbols other than fr_* functions (above)"; fi
if [ "$(wc -l <<< "$exported")" -ge 18 ]; then pass; else fail "only $(wc -l <<< "$exported") fr_* functions exported"; fi

# A program built the documented way against the copy, run with an empty environment.
cat > "$work/install_app.c" <<'C'
#include <fastrouter.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    fr_router *r = fr_router_new(0);
    fr_match *m = fr_match_new();
    fr_str id;
    if (!r || !m || fr_router_add(r, "/users/{id:int}", 15, 0, 7, NULL) != FR_OK) return 2;
    if (fr_router_match(r, "/users/42", 9, m) != FR_OK || fr_match_param(m, "id", 2, &id) != FR_OK) return 3;
    printf("%s route %llu id=%.*s\n", fr_version(), (unsigned long long)fr_match_route_id(m), (int)id.len, id.ptr);
    fr_match_free(m);
    fr_router_free(r);
    return strcmp(fr_version(), FR_VERSION) != 0;
}
C
app="$work/install_app"
# shellcheck disable=SC2016
if env -u LD_LIBRARY_PATH CC="${CC:-cc}" PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR="$copy/lib/pkgconfig" \
    sh -c '$CC "$1" $(pkg-config --cflags --libs fastrouter) -o "$2"' sh "$work/install_app.c" "$app"; then
  pass
  out=$(env -i PATH=/usr/bin:/bin "$app"); status=$?
  if [ $status -eq 0 ] && [ "$out" = "$version route 7 id=42" ]; then pass
  else fail "the program printed '$out' (exit $status)"; fi
  app_deps=$(env -i PATH=/usr/bin:/bin ldd "$app")
  if grep -qF "$soname => $copy/lib/$soname " <<< "$app_deps"; then pass
  else fail "the program does not load $soname from the copy: $app_deps"; fi
  check_deps "the program" "$app_deps"
else
  fail "cc app.c \$(pkg-config --cflags --libs fastrouter) against the copy"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
