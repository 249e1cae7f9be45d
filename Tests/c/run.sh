#!/usr/bin/env bash
# Builds and runs every C ABI test against the INSTALLED library, header and fastrouter.pc
# (found through PKG_CONFIG_PATH), then the Python ctypes example and the example CLI.
#   PKG_CONFIG_PATH=PREFIX/lib/pkgconfig Tests/c/run.sh WORKDIR
# Test programs run with an empty environment: the library needs nothing from the Swift toolchain.
set -uo pipefail
cd "$(dirname "$0")/../.."
work=${1:?usage: run.sh WORKDIR}
mkdir -p "$work"
leak_iterations=${FR_LEAK_ITERATIONS:-2000}
CC=${CC:-cc}

if ! pkg-config --exists fastrouter; then
  echo "fastrouter.pc not found: run 'make install PREFIX=...' and set PKG_CONFIG_PATH" >&2
  exit 1
fi
cflags=$(pkg-config --cflags fastrouter)
libs=$(pkg-config --libs fastrouter)
libdir=$(pkg-config --variable=libdir fastrouter)
includedir=$(pkg-config --variable=includedir fastrouter)
prefix=$(pkg-config --variable=prefix fastrouter)
clean_env=(env -i PATH=/usr/local/bin:/usr/bin:/bin)

failures=()
run() { # NAME COMMAND...: runs one test program, shows its output, records a failure
  local name=$1; shift
  echo "== $name"
  if "$@"; then echo "-- $name: ok"; else echo "-- $name: FAILED"; failures+=("$name"); fi
}

# Symbols and header; the install as a system library (layout, SONAME, dependencies), from a copy.
run test_symbols Tests/c/test_symbols.sh "$libdir/libfastrouter.so" "$includedir/fastrouter.h" "$work"
run test_install Tests/c/test_install.sh "$prefix" "$work"

# C programs: strict warnings, linked exactly as pkg-config says.
for source in Tests/c/test_*.c; do
  name=$(basename "$source" .c)
  # shellcheck disable=SC2086
  if ! $CC -std=c11 -O1 -g -Wall -Wextra -Werror -pthread "$source" -o "$work/$name" $cflags $libs; then
    failures+=("$name (build)")
  fi
done
for name in test_api test_methods test_alloc test_threads; do
  [ -x "$work/$name" ] && run "$name" "${clean_env[@]}" "$work/$name"
done
if [ -x "$work/test_leaks" ]; then
  if command -v valgrind >/dev/null 2>&1; then
    run "test_leaks under valgrind ($leak_iterations iterations)" "${clean_env[@]}" "$(command -v valgrind)" \
      --quiet --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
      --error-exitcode=1 "$work/test_leaks" "$leak_iterations"
  else
    echo "valgrind is not installed (apt-get install valgrind)" >&2
    failures+=("test_leaks (no valgrind)")
  fi
fi

# The measuring loops of `make perf`, built against the installed library and run briefly, so a
# change that breaks them shows here rather than at the next measurement.
check_perf_loops() {
  local name
  for name in lookup_loop add_loop; do
    # shellcheck disable=SC2086
    $CC -std=c11 -O1 -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=199309L "Tests/perf/$name.c" -o "$work/$name" \
      $cflags $libs || return 1
  done
  "${clean_env[@]}" "$work/lookup_loop" Tests/perf/routesets/github.routes Tests/perf/routesets/github.urls 2000 \
    > /dev/null || return 1
  local added
  added=$("${clean_env[@]}" "$work/add_loop" 2000) || return 1
  [[ $added == "2000 routes in "* ]] || { echo "add_loop printed: $added" >&2; return 1; }
}
run "make perf loops (smoke)" check_perf_loops

# The example CLI, built the way docs/SEMANTICS.md §4 promises a C program builds: cc app.c $(pkg-config ...).
cli="$work/router-cli"
# shellcheck disable=SC2046
if $CC examples/c/router-cli.c -o "$cli" $(pkg-config --cflags --libs fastrouter); then
  check_cli() {
    local out expected status=0
    out=$("${clean_env[@]}" "$cli" examples/c/routes.txt < examples/c/urls.txt) || return 1
    while IFS= read -r expected; do
      if ! grep -qxF -- "$expected" <<< "$out"; then echo "missing line: $expected" >&2; status=1; fi
    done <<'LINES'
/ -> 2
/users/42 -> 3 id="42"
/users/me?tab=posts -> 4 tab="posts"
/users/alice/posts/hello%20world#comments -> 6 name="alice" post="hello world" #comments
/files -> 8 path=""
/search?q=fast+router&lang=en&q=%E2%9C%93 -> 10 q="fast router" lang="en" q="✓"
MYAPP://Settings/Privacy -> 11 section="Privacy"
https://api.example.com:8443/docs/guide/intro -> 14 page="guide/intro"
https://other.org/users/9 -> 3 id="9"
/admin/users/42 -> 15 *="users/42"
/nothing/here -> no match
/bad%zz -> error: invalid URL
LINES
    [ "$(wc -l <<< "$out")" -eq "$(grep -c . examples/c/urls.txt)" ] || { echo "not one line per URL" >&2; status=1; }
    # A bad routes file names file, line and column.
    printf '/ok\n/a//b\n' > "$work/bad-routes.txt"
    local err
    err=$("${clean_env[@]}" "$cli" "$work/bad-routes.txt" < /dev/null 2>&1) && { echo "bad routes accepted" >&2; status=1; }
    grep -q "bad-routes.txt:2:3: error: invalid pattern" <<< "$err" || { echo "bad routes: $err" >&2; status=1; }
    # Reverse routing and the dump.
    [ "$("${clean_env[@]}" "$cli" -u 3 id=42 examples/c/routes.txt)" = "/users/42" ] || { echo "-u failed" >&2; status=1; }
    "${clean_env[@]}" "$cli" -d examples/c/routes.txt | grep -qF '/users/{id:int}' || { echo "-d failed" >&2; status=1; }
    [ $status -eq 0 ] && echo "example CLI: all lines as expected"
    return $status
  }
  run "example CLI" check_cli
else
  failures+=("router-cli (build)")
fi

# The method-aware dispatcher: the sample requests print examples/c/requests.expected exactly.
dispatch="$work/dispatch"
# shellcheck disable=SC2046
if $CC -std=c99 -Wall -Wextra -Werror examples/c/dispatch.c -o "$dispatch" $(pkg-config --cflags --libs fastrouter); then
  check_dispatch() {
    local out status=0
    out=$("${clean_env[@]}" "$dispatch" examples/c/github.routes < examples/c/requests.txt) || return 1
    diff -u examples/c/requests.expected - <<< "$out" || status=1
    # -H: HEAD takes only routes registered for HEAD.
    out=$(printf 'HEAD /events\nGET /events\n' | "${clean_env[@]}" "$dispatch" -H examples/c/github.routes) || return 1
    [ "$out" = $'HEAD /events -> 405 Allow: GET\nGET /events -> route 10: GET /events' ] ||
      { echo "-H printed: $out" >&2; status=1; }
    # A bad routes file names file, line and column: a bad method list, a bad pattern, an overlap.
    printf 'GET /ok\nGE;T /a\nPOST /a//b\nGET,POST /ok\n' > "$work/bad-method-routes.txt"
    local err
    err=$("${clean_env[@]}" "$dispatch" "$work/bad-method-routes.txt" < /dev/null 2>&1) &&
      { echo "bad method routes accepted" >&2; status=1; }
    grep -q "bad-method-routes.txt:2:1: error: invalid argument: .*GE;T" <<< "$err" &&
      grep -q "bad-method-routes.txt:3:8: error: invalid pattern" <<< "$err" &&
      grep -q "bad-method-routes.txt:4:10: error: duplicate route" <<< "$err" ||
      { echo "bad method routes: $err" >&2; status=1; }
    [ $status -eq 0 ] && echo "dispatch example: all lines as expected"
    return $status
  }
  run "dispatch example" check_dispatch
else
  failures+=("dispatch (build)")
  dispatch=""
fi

# The Python example through ctypes, compared line by line with the CLI and the dispatcher.
if command -v python3 >/dev/null 2>&1; then
  run "python example" python3 examples/python/test_route.py "$cli" ${dispatch:+"$dispatch"}
else
  echo "python3 not found: skipping the Python example" >&2
fi

# The complete programs of docs/C.md (its first two C blocks: the tour and HTTP methods), built as
# C99 and run: the guide's examples must compile as written and print what their comments say.
guide_program() { # N: writes the guide's N-th C block to $work/guide-N.c and builds it
  awk -v n="$1" '/^```c$/ { if (++seen == n) { inside = 1; next } } inside && /^```/ { exit } inside' docs/C.md \
    > "$work/guide-$1.c"
  # shellcheck disable=SC2086
  $CC -std=c99 -Wall -Wextra -Werror "$work/guide-$1.c" -o "$work/guide-$1" $cflags $libs
}
check_guide() {
  guide_program 1 || return 1
  local out expected
  out=$("${clean_env[@]}" "$work/guide-1" 2> "$work/guide.err") || return 1
  expected=$'route 1\n  id=42\n  tab=posts\n  #top\n  next: route 3\nmyapp://settings/privacy'
  [ "$out" = "$expected" ] || { printf 'docs/C.md example printed:\n%s\n' "$out" >&2; return 1; }
  grep -q "unbalanced '{'.* at offset 7" "$work/guide.err" || { cat "$work/guide.err" >&2; return 1; }
  guide_program 2 || return 1
  out=$("${clean_env[@]}" "$work/guide-2") || return 1
  expected='GET,POST /users/:id: duplicate route
GET /users/42: route 1
DELETE /users/42: route 2
HEAD /users/42: route 1
POST /users/42: 405, Allow: GET, HEAD, PUT, DELETE
PURGE /health: route 3
GET /nothing: 404
G T /users/42: 400, invalid argument'
  [ "$out" = "$expected" ] || { printf 'docs/C.md HTTP methods example printed:\n%s\n' "$out" >&2; return 1; }
}
run "docs/C.md example" check_guide

echo
if [ ${#failures[@]} -eq 0 ]; then
  echo "C ABI tests: all passed"
else
  printf 'C ABI tests FAILED: %s\n' "${failures[@]}"
  exit 1
fi
