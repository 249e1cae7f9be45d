#!/usr/bin/env bash
# make http-bench: the example API served twice, routed by FastRouter and by Hummingbird's own
# Router (the same application otherwise), each loaded with wrk on loopback; first the GitHub API
# set (203 routes), then 10 000 generated routes. Before timing, a sample of responses is checked
# for the right route and parameters. Prints a table and writes http-bench.json.
#
# Environment:
#   HTTP_BENCH_SECONDS      seconds of load per router and route set (default 15)
#   HTTP_BENCH_ROUNDS       runs per router and route set, in turns; the median run is reported
#                           (default 1)
#   HTTP_BENCH_CONNECTIONS  wrk connections (default 32; one wrk thread)
#   HTTP_BENCH_PORT         first loopback port to use (default 18080)
#   HTTP_BENCH_SETS         route sets to run (default "github generated-10k")
#   HTTP_BENCH_PERF         1: also sample each server with perf during its load and report the
#                           share of its CPU time spent routing (needs perf)
#   HTTP_BENCH_JSON         where to write the JSON (default http-bench.json)
set -euo pipefail
cd "$(dirname "$0")"
example_dir=$PWD
repo_dir=$(cd ../.. && pwd)

seconds=${HTTP_BENCH_SECONDS:-15}
rounds=${HTTP_BENCH_ROUNDS:-1}
connections=${HTTP_BENCH_CONNECTIONS:-32}
port=${HTTP_BENCH_PORT:-18080}
sets=${HTTP_BENCH_SETS:-github generated-10k}
json_out=${HTTP_BENCH_JSON:-$repo_dir/http-bench.json}
work_dir=$repo_dir/build/http-bench
mkdir -p "$work_dir"

command -v wrk >/dev/null || { echo "error: wrk is not installed (apt-get install wrk)" >&2; exit 1; }
if [ "${HTTP_BENCH_PERF:-0}" = 1 ]; then
  command -v perf >/dev/null || { echo "error: HTTP_BENCH_PERF=1 needs perf (apt-get install linux-perf)" >&2; exit 1; }
fi

echo "building the example server in release mode (both routers)"
swift build -c release --package-path "$example_dir" 2>&1 | grep -E "error|warning: unre|Compiling github|Build complete" || true
bin_dir=$(swift build -c release --package-path "$example_dir" --show-bin-path)
for router in fastrouter hummingbird; do
  [ -x "$bin_dir/github-server-$router" ] || { echo "error: github-server-$router did not build" >&2; exit 1; }
done

server_pid=
stop_server() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  server_pid=
}
trap stop_server EXIT INT TERM

wait_for_port() {
  for _ in $(seq 1 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    kill -0 "$server_pid" 2>/dev/null || { echo "error: the server exited" >&2; return 1; }
    sleep 0.1
  done
  echo "error: nothing listens on port $1 after 30 s" >&2
  return 1
}

# json_field FIELD JSON: a number from wrk's one-line JSON.
json_field() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p" <<<"$2"; }

# routing_share PERF_DATA ROUTER: percent of the server's samples (user and kernel, every thread)
# inside routing, counting callees: for Hummingbird its trie lookup (which also fills the
# parameters) and the method's responder lookup; for FastRouter the lookup with the method, the
# translation of its parameters into Hummingbird's, and the method's conversion.
routing_share() {
  local pattern
  if [ "$2" = fastrouter ]; then
    pattern='\] (Router\.match\(_:method:\)|Endpoint\.parameters\(of:\)|HTTPMethod\.init\(_:\))'
  else
    pattern='\] (RouterTrie\.resolve\(_:\)|EndpointResponders\.getResponder\(for:\))'
  fi
  perf report -i "$1" --children --sort symbol --stdio 2>/dev/null | grep -E '^ +[0-9.]+%' \
    | swift demangle --simplified | { grep -E "$pattern( |$)" || true; } \
    | awk '{ sum += $1 } END { printf "%.1f", sum }'
}

# run_one SET ROUTER: starts the server, checks it, loads it; appends one line to $results:
# router rps p50 p99 p99.9 errors wrong checked share
run_one() {
  local set=$1 router=$2 url check checked wrong result perf_pid share
  port=$((port + 1))
  "$bin_dir/github-server-$router" "${set_args[@]}" --port "$port" > "$work_dir/$set-$router.log" 2>&1 &
  server_pid=$!
  wait_for_port "$port"
  url=http://127.0.0.1:$port

  check=$(wrk -t1 -c1 -d60s -s "$example_dir/wrk/check.lua" "$url" -- "$requests_file" "$sample" 2>"$work_dir/check.err" | grep '^{"checked"' || true)
  checked=$(json_field checked "$check"); wrong=$(json_field wrong "$check")
  cat "$work_dir/check.err" >&2
  if [ -z "$checked" ] || [ "$checked" -eq 0 ]; then
    echo "error: the check of $router on $set got no answers" >&2; exit 1
  fi

  # Warm up (caches, allocator, branch predictors), then the timed run.
  wrk -t1 -c"$connections" -d2s -s "$example_dir/wrk/load.lua" "$url" -- "$requests_file" > /dev/null
  perf_pid=
  if [ "${HTTP_BENCH_PERF:-0}" = 1 ]; then
    perf record -F 1999 -g -p "$server_pid" -o "$work_dir/$set-$router.perf" -- sleep "$seconds" > /dev/null 2>&1 &
    perf_pid=$!
  fi
  result=$(wrk -t1 -c"$connections" -d"${seconds}s" --latency -s "$example_dir/wrk/load.lua" "$url" -- "$requests_file" | grep '^{"requests"')
  if [ -n "$perf_pid" ]; then wait "$perf_pid" || true; fi
  stop_server

  share=-
  if [ -n "$perf_pid" ]; then share=$(routing_share "$work_dir/$set-$router.perf" "$router"); fi
  echo "$router $(json_field requestsPerSecond "$result") $(json_field p50Milliseconds "$result")" \
    "$(json_field p99Milliseconds "$result") $(json_field p999Milliseconds "$result")" \
    "$(json_field errors "$result") $wrong $checked $share" >> "$results"
}

rows=()
entries=()
for set in $sets; do
  case $set in
    github) set_args=(--routes-file "$repo_dir/examples/c/github.routes"); sample=0 ;;
    generated-10k) set_args=(--generated 10000); sample=2000 ;;
    *) echo "error: unknown route set $set" >&2; exit 1 ;;
  esac
  requests_file=$work_dir/$set.tsv
  "$bin_dir/github-server-fastrouter" "${set_args[@]}" --print-requests > "$requests_file"
  request_count=$(wc -l < "$requests_file")
  results=$work_dir/$set.results
  : > "$results"
  for round in $(seq 1 "$rounds"); do
    # In turns, each router first in every other round: neither always gets the quieter slot.
    if [ $((round % 2)) = 1 ]; then order="fastrouter hummingbird"; else order="hummingbird fastrouter"; fi
    for router in $order; do run_one "$set" "$router"; done
  done
  declare -A rps=()
  for router in fastrouter hummingbird; do
    # The round with the median requests/s stands for the router (its latencies with it); the
    # errors and wrong responses are the sums over every round.
    read -r _ rate p50 p99 p999 _ _ checked share < <(grep "^$router " "$results" | sort -k2,2 -g | sed -n "$(( (rounds + 1) / 2 ))p")
    errors=$(awk -v r="$router" '$1 == r { s += $6 } END { print s + 0 }' "$results")
    wrong=$(awk -v r="$router" '$1 == r { s += $7 } END { print s + 0 }' "$results")
    rps[$router]=$rate
    name=$([ "$router" = fastrouter ] && echo "FastRouter" || echo "Hummingbird Router")
    rows+=("$(printf '%-14s %-20s %7s %12s %9s %9s %9s %7s %6s %8s' "$set" "$name" "$request_count" "$rate" \
      "$p50" "$p99" "$p999" "$errors" "$wrong" "$share")")
    entries+=("$(printf '{"name": "%s", "routeSet": "%s", "routes": %d, "requestsPerSecond": %s, "p50Milliseconds": %s, "p99Milliseconds": %s, "p999Milliseconds": %s, "errors": %s, "wrongResponses": %s, "checkedResponses": %s, "seconds": %s, "connections": %d, "rounds": %d%s}' \
      "$name" "$set" "$request_count" "$rate" "$p50" "$p99" "$p999" "$errors" "$wrong" "$checked" \
      "$seconds" "$connections" "$rounds" "$([ "$share" != - ] && echo ", \"routingSharePercent\": $share")")")
  done
  ratio=$(awk -v a="${rps[fastrouter]}" -v b="${rps[hummingbird]}" 'BEGIN { printf "%.2f", a / b }')
  rows+=("$(printf '%-14s FastRouter / Hummingbird requests/s: %s×' "$set" "$ratio")")
  unset rps
done

echo
printf '%-14s %-20s %7s %12s %9s %9s %9s %7s %6s %8s\n' "route set" "router" "routes" "requests/s" \
  "p50 ms" "p99 ms" "p99.9 ms" "errors" "wrong" "routing%"
printf '%s\n' "${rows[@]}"
{
  echo '{"routers": ['
  for i in "${!entries[@]}"; do
    printf '  %s%s\n' "${entries[$i]}" "$([ "$i" -lt $((${#entries[@]} - 1)) ] && echo ,)"
  done
  echo ']}'
} > "$json_out"
echo "wrote $json_out"

# A wrong response or an error fails the run: the figures would not be of a working server.
if grep -qE '"(errors|wrongResponses)": [1-9]' "$json_out"; then
  echo "error: errors or wrong responses (see $json_out)" >&2
  exit 1
fi
