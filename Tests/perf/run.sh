#!/usr/bin/env bash
# make perf's counting, once the Makefile has built the loops into PERF_DIR: each loop runs under
# callgrind with collection on only inside its measured function, and the figure is the
# instructions counted there over the lookups (or routes added) it made. Deterministic: no timing.
#   Tests/perf/run.sh PERF_DIR    (PERF_SETS, PERF_METHOD_SETS, PERF_LOOKUPS, PERF_ADDS from the environment)
# Per set: FastRouter's C API (lookup_loop, against its target where docs/SEMANTICS.md §6 sets
# one), the Swift value API (swift_lookup_loop) and r3 (r3_lookup_loop, when the Makefile could
# build it), r3 counted only when it answered every URL as FastRouter did; then a table of the C
# API next to r3. Then, per set of PERF_METHOD_SETS, the same set with methods (its -methods
# files: each line a route of its method, each URL looked up with its method): the C API through
# fr_router_match_method against the same URLs through fr_router_match (docs/SEMANTICS.md §6: at
# most 1.1×), the Swift API's Router.match(_:method:), r3 with its method conditions, and the heap
# allocations each C API loop made; then registration (add_loop), on the GitHub set and on generated routes.
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=${1:?usage: run.sh PERF_DIR}
sets=${PERF_SETS:-github static gplus parse}
method_sets=${PERF_METHOD_SETS:-github}
lookups=${PERF_LOOKUPS:-200000}
adds=${PERF_ADDS:-20000}
# Instructions per lookup through the C API (docs/SEMANTICS.md §6); sets without one have none.
declare -A target=([github]=600 [static]=400 [gplus]=700 [parse]=450)

# count NAME PROGRAM FUNCTION DIVISOR ARGS...: Ir inside FUNCTION over DIVISOR, or a message on
# stderr and status 1.
count() {
  local name=$1 program=$2 function=$3 divisor=$4; shift 4
  local out=$dir/callgrind.$name.out log=$dir/valgrind.$name.log
  if ! valgrind --tool=callgrind --collect-atstart=no --toggle-collect="$function" \
      --callgrind-out-file="$out" --log-file="$log" "$dir/$program" "$@" > "$dir/$name.txt" 2> "$dir/$name.err"; then
    cat "$dir/$name.err" "$log" >&2
    echo "error: $program failed ($name)" >&2
    return 1
  fi
  local ir
  ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$out")
  [ -n "$ir" ] && [ "$ir" -gt 0 ] || { echo "error: no instruction count in $out" >&2; return 1; }
  echo $(( ir / divisor ))
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# percent A B: A as a percentage of B, one decimal.
percent() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%%", 100 * a / b }'; }

# allocations NAME: the calls to malloc & co. that callgrind recorded inside the measured function
# of run NAME (callgrind names each function once, "cfn=(id) name", then by its id alone).
allocations() {
  awk '
    /^c?fn=\(/ {
      id = $0; sub(/^c?fn=\(/, "", id); sub(/\).*/, "", id)
      name = $0; if (sub(/^c?fn=\([0-9]+\) /, "", name)) names[id] = name
      callee = /^cfn=/ ? names[id] : ""
    }
    /^calls=/ && callee ~ /^(malloc|calloc|realloc|reallocarray|posix_memalign|aligned_alloc|memalign|valloc|pvalloc)('\''[0-9]+)?$/ {
      split($0, field, /[= ]/); total += field[2]
    }
    END { print total + 0 }' "$dir/callgrind.$1.out"
}

# at_most VALUE LIMIT: "met" or "missed".
at_most() { awk -v a="$1" -v b="$2" 'BEGIN { print (a <= b ? "met" : "missed") }'; }

# stages NAME URLS: where a C API lookup's instructions go (docs/SEMANTICS.md §6), from callgrind's
# inclusive costs in run NAME: the scan (ScratchState.scanPlainPath, or scanFullURL for any other
# URL), the walk (Walker.visit, its outermost call per table, or Walker.visitPath for a table
# without dynamic routes, and the test of a table's common prefix, Walker.visitAfterPrefix:
# every table a lookup walks), reading the result (the fr_match_* accessors the loop calls), and
# the rest of fr_router_match: the entry and the lookup's frame (arguments, the reader slot, the
# method, the candidate made current). Per lookup, and the walk per segment of the URLs' paths.
stages() {
  local name=$1 urls=$2 annotated own
  annotated=$(callgrind_annotate --inclusive=yes --auto=no --threshold=100 "$dir/callgrind.$name.out" 2> /dev/null | swift demangle --simplified) || return 0
  own=$(callgrind_annotate --auto=no --threshold=100 "$dir/callgrind.$name.out" 2> /dev/null | swift demangle --simplified) || return 0
  cost() { awk -v pattern="$1" -v n="$lookups" '$0 ~ "^ *[0-9,]+ [(] *[0-9.]+%[)] .*" pattern { gsub(",", "", $1); total += $1 } END { printf "%d", total / n }'; }
  inclusive() { cost "$1" <<< "$annotated"; }
  exclusive() { cost "$1" <<< "$own"; }
  local entry scan walk result segments
  entry=$(inclusive ':fr_router_match(_method)? ')
  scan=$(inclusive 'ScratchState[.]scan(PlainPath|FullURL)')
  # The prefix's test ends with a jump into the walk, which callgrind counts as its callee.
  walk=$(( $(inclusive 'Walker[.](visit<|visitPath)') + $(exclusive 'Walker[.]visitAfterPrefix') ))
  result=$(inclusive ':fr_match_(route_id|param_count|param_at) ')
  segments=$(awk '!/^#/ && NF { sub(/^[A-Z]+[ \t]+/, ""); sub(/[?#].*/, ""); sub(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\/]*/, ""); n += gsub(/[^\/]+/, "x"); urls++ } END { printf "%.2f", n / urls }' "$urls")
  printf '  stages: entry and frame %d + result %d = %d (≤ 100), scan %d (≤ 60), walk %d = %s per segment over %s segments (≤ 40)\n' \
    $(( entry - scan - walk )) "$result" $(( entry - scan - walk + result )) "$scan" "$walk" \
    "$(awk -v w="$walk" -v s="$segments" 'BEGIN { printf "%.0f", (s > 0 ? w / s : w) }')" "$segments"
}

r3=yes
if [ ! -x "$dir/r3_lookup_loop" ]; then
  r3=no
  echo "r3: not counted — libr3-dev is not installed (apt-get install libr3-dev, or make bench-deps)"
fi

declare -A c_api r3_count r3_note
for set in $sets; do
  routes=Tests/perf/routesets/$set.routes urls=Tests/perf/routesets/$set.urls
  c=$(count "$set.c" lookup_loop perf_lookups "$lookups" "$routes" "$urls" "$lookups" "$dir/answers.$set.c") || exit 1
  c_api[$set]=$c
  verdict=""
  if [ -n "${target[$set]:-}" ]; then
    verdict=" (target ≤ ${target[$set]}: $([ "$c" -le "${target[$set]}" ] && echo met || echo missed))"
  fi
  echo "$set: $c instructions/lookup$verdict"
  stages "$set.c" "$urls"
  s=$(count "$set.swift" swift_lookup_loop perfLookups "$lookups" "$routes" "$urls" "$lookups") || exit 1
  echo "$set, Swift Router.match: $s instructions/lookup ($(percent "$s" "$c") of the C API; target ≤ 130%: $(at_most "$s" "$(( c * 13 / 10 ))"))"
  [ "$r3" = yes ] || continue
  if ! r=$(count "$set.r3" r3_lookup_loop perf_lookups "$lookups" "$routes" "$urls" "$lookups" "$dir/answers.$set.r3" 2> /dev/null); then
    r3_note[$set]="r3_lookup_loop failed: $(head -n 1 "$dir/$set.r3.err")"
  elif ! cmp -s "$dir/answers.$set.c" "$dir/answers.$set.r3"; then
    differ=$(diff <(cat -n "$dir/answers.$set.c") <(cat -n "$dir/answers.$set.r3") | grep -c '^<')
    first=$(diff <(cat -n "$dir/answers.$set.c") <(cat -n "$dir/answers.$set.r3") | sed -n 's/^< *\([0-9]*\).*/\1/p' | head -n 1)
    r3_note[$set]="r3 answered $differ URLs differently from FastRouter (the first on line $first of the URLs); see $dir/answers.$set.*"
  else
    r3_count[$set]=$r
    echo "$set, r3: $r instructions/lookup ($(ratio "$r" "$c")× the C API's)"
    continue
  fi
  echo "$set, r3: not counted — ${r3_note[$set]}"
done

echo
echo "instructions per lookup, C API and r3 on the same URLs (callgrind; each reading the route and every capture):"
printf '  %-8s %7s %7s %11s  %s\n' set "C API" r3 "r3 / C API" "C API target"
for set in $sets; do
  r=${r3_count[$set]:-}
  # The ratio is padded apart from its sign: printf counts the bytes of a multi-byte "×".
  printf '  %-8s %7s %7s %10s%s  %s\n' "$set" "${c_api[$set]}" "${r:--}" \
    "$([ -n "$r" ] && ratio "$r" "${c_api[$set]}" || echo "-")" "$([ -n "$r" ] && echo "×" || echo " ")" \
    "${target[$set]:+≤ ${target[$set]}}"
done
echo

# With methods: the C API with a method against the same URLs without one, then the Swift API and
# r3 with methods. The URLs without methods are the set's own (<set>.urls: the same URLs in the
# same order), counted above or here.
declare -A with_method without_method r3_method
for set in $method_sets; do
  routes=Tests/perf/routesets/$set-methods.routes urls=Tests/perf/routesets/$set-methods.urls
  if [ -z "${c_api[$set]:-}" ]; then
    c_api[$set]=$(count "$set.c" lookup_loop perf_lookups "$lookups" Tests/perf/routesets/$set.routes \
      Tests/perf/routesets/$set.urls "$lookups" "$dir/answers.$set.c") || exit 1
  fi
  without=${c_api[$set]}
  with=$(count "$set-methods.c" lookup_loop perf_method_lookups "$lookups" "$routes" "$urls" "$lookups" \
    "$dir/answers.$set-methods.c") || exit 1
  with_method[$set]=$with without_method[$set]=$without
  echo "$set with methods: $with instructions/lookup through fr_router_match_method, $without through fr_router_match on the same URLs: $(ratio "$with" "$without")× (target ≤ 1.1×: $(at_most "$(ratio "$with" "$without")" 1.1)); heap allocations in the measured loops: $(allocations "$set-methods.c") and $(allocations "$set.c")"
  s=$(count "$set-methods.swift" swift_lookup_loop perfMethodLookups "$lookups" "$routes" "$urls" "$lookups") || exit 1
  echo "$set with methods, Swift Router.match(_:method:): $s instructions/lookup ($(percent "$s" "$with") of the C API with methods; target ≤ 130%: $(at_most "$s" "$(( with * 13 / 10 ))"))"
  [ "$r3" = yes ] || continue
  if ! r=$(count "$set-methods.r3" r3_lookup_loop perf_method_lookups "$lookups" "$routes" "$urls" "$lookups" \
      "$dir/answers.$set-methods.r3" 2> /dev/null); then
    echo "$set with methods, r3: not counted — r3_lookup_loop failed: $(head -n 1 "$dir/$set-methods.r3.err")"
  elif ! cmp -s "$dir/answers.$set-methods.c" "$dir/answers.$set-methods.r3"; then
    differ=$(diff <(cat -n "$dir/answers.$set-methods.c") <(cat -n "$dir/answers.$set-methods.r3") | grep -c '^<')
    echo "$set with methods, r3: not counted — r3 answered $differ URLs differently from FastRouter; see $dir/answers.$set-methods.*"
  else
    r3_method[$set]=$r
    echo "$set with methods, r3 (r3_tree_match_route): $r instructions/lookup ($(ratio "$r" "$with")× the C API's with methods)"
  fi
done

if [ -n "$method_sets" ]; then
  echo
  echo "instructions per lookup with a method (callgrind; the same URLs as the set's own, each reading the route and every capture):"
  printf '  %-8s %11s %8s %14s %7s %14s\n' set "no method" "method" "method / none" r3 "r3 / C API"
  for set in $method_sets; do
    r=${r3_method[$set]:-}
    printf '  %-8s %11s %8s %13s%s %7s %13s%s\n' "$set" "${without_method[$set]}" "${with_method[$set]}" \
      "$(ratio "${with_method[$set]}" "${without_method[$set]}")" "×" "${r:--}" \
      "$([ -n "$r" ] && ratio "$r" "${with_method[$set]}" || echo "-")" "$([ -n "$r" ] && echo "×" || echo " ")"
  done
  echo "  target: a lookup with a method ≤ 1.1× the same lookup without one (docs/SEMANTICS.md §6)"
  echo
fi

# Registration on the GitHub set, as docs/SEMANTICS.md §6 counts it (its routes into a new router,
# 50 times), then on the generated routes of a larger table.
rounds=50
routes=$(grep -cv '^#' Tests/perf/routesets/github.routes)
g=$(count add_github add_loop perf_adds $(( routes * rounds )) Tests/perf/routesets/github.routes "$rounds") || exit 1
a=$(count add_loop add_loop perf_adds "$adds" "$adds") || exit 1
echo "registration: $g instructions per fr_router_add on the GitHub set (target ≤ 10000: $([ "$g" -le 10000 ] && echo met || echo missed)); $a on $adds generated routes"
