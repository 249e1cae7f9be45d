#!/bin/bash
# check-cli.sh BENCH — the benchmark's command line as a user meets it: files it must refuse with
# a clear message and status 64 before measuring anything, files it must read (CRLF line ends),
# route sets a peer cannot express (the peer sits the set out instead of stopping the run), and a
# set FastRouter cannot build (status 1, every time). Each run is --quick and tiny.
set -u
bench=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0

# expect STATUS PATTERN -- ARGS...: runs the benchmark, checks its exit status and that its
# output (stdout and stderr) matches PATTERN (grep -E).
expect() {
    local status=$1 pattern=$2
    shift 3
    local output
    output=$("$bench" "$@" 2>&1)
    local actual=$?
    if [ "$actual" -ne "$status" ] || ! grep -qE -- "$pattern" <<<"$output"; then
        echo "FAIL: fastrouter-bench $*: expected status $status and /$pattern/, got status $actual:" >&2
        tail -5 <<<"$output" >&2
        failures=$((failures + 1))
    fi
}

printf '/a/:x\n/a/:y/b\n' >"$dir/names.routes"
expect 0 "routing-kit TrieRouter: skipped — placeholders :x and :y" -- --quick --routes "$dir/names.routes" --routers c,routing-kit

printf '/a/{x:int}\n/a/{y:int}\n' >"$dir/dup.routes"
printf '/a/1\n/a/2\n' >"$dir/dup.urls"
for run in 1 2 3 4 5; do
    expect 1 "duplicate route" -- --quick --routes "$dir/dup.routes" --urls "$dir/dup.urls" --routers c
done

# The same route under another method is that route, whatever its parameters are called.
printf 'GET /a/{x:int}\nPUT /a/{y:int}\n' >"$dir/methods.routes"
printf '/a/1\n/a/2\n' >"$dir/methods.urls"
expect 0 "methods — routes from" -- --quick --routes "$dir/methods.routes" --urls "$dir/methods.urls" --routers c
expect 0 "no problems found" -- lint "$dir/methods.routes"
# Read with its methods, the file is two routes, each URL looked up with its route's method: the
# rows with methods follow the set's own (every router answering right), then what a method
# costs the C API.
expect 0 "C API lookup with a method vs without, on the same URLs: .* from ns/lookup" -- --quick --routes "$dir/methods.routes" --urls "$dir/methods.urls" --routers c,r3,routing-kit
# A request whose method its route does not accept is a wrong answer with methods (405).
printf 'GET /a\n/b\n' >"$dir/method405.routes"
printf 'POST /a\nGET /b\n' >"$dir/method405.urls"
expect 1 "405, Allow: GET, HEAD" -- --quick --routes "$dir/method405.routes" --urls "$dir/method405.urls" --routers c,swift

printf '/a\r\n/b/:id 5\r\n' >"$dir/crlf.routes"
printf '/a\r\n/b/7\r\n' >"$dir/crlf.urls"
expect 0 "crlf — routes from" -- --quick --routes "$dir/crlf.routes" --urls "$dir/crlf.urls" --routers c
expect 0 "no problems found" -- lint "$dir/crlf.routes"

# Methods are case-sensitive tokens (docs/SEMANTICS.md §3.7): 'get' is one, 'GÉT' is not.
printf 'GÉT /a\n' >"$dir/badmethod.routes"
expect 64 "invalid method 'GÉT': not an HTTP token" -- --quick --routes "$dir/badmethod.routes"
expect 64 "no such file" -- --quick --routes "$dir/missing.routes"
expect 64 "is a directory" -- --quick --routes "$dir"
expect 2 "no such file" -- lint "$dir/missing.routes"
expect 64 "cannot write $dir/nowhere/x.json: no directory" -- --quick --json "$dir/nowhere/x.json"
expect 64 "cannot write $dir: it is a directory" -- --quick --svg "$dir"
expect 64 "--routers names no router" -- --quick --routers ''
expect 64 "--filter names no set" -- --quick --filter ''
expect 64 "--threads must be between 1 and 512" -- --quick --threads -1
expect 64 "--duration must be more than 0" -- --quick --duration -1

# --write-sets writes the files make perf-cache reads, with the set's own URLs, and measures nothing.
expect 0 "wrote $dir/sets/crlf.urls" -- --routes "$dir/crlf.routes" --urls "$dir/crlf.urls" --write-sets "$dir/sets"
if ! grep -qx '/b/:id 5' "$dir/sets/crlf.routes" || ! grep -qx '/b/7' "$dir/sets/crlf.urls"; then
    echo "FAIL: fastrouter-bench --write-sets: $dir/sets/crlf.routes or crlf.urls lacks its lines" >&2
    failures=$((failures + 1))
fi
# The process a run starts for the build-order figure: one set, one JSON object.
expect 0 '"builtBy":"single"' -- --routes "$dir/crlf.routes" --urls "$dir/crlf.urls" --duration 0.01 --table-built-by single
expect 64 "needs exactly one set" -- --quick --filter static,github --table-built-by batch

if [ "$failures" -ne 0 ]; then
    echo "fastrouter-bench command line: $failures checks failed" >&2
    exit 1
fi
echo "fastrouter-bench command line: all checks passed"
