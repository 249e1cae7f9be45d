#!/usr/bin/env bash
# make perf's counting, once the Makefile has built the loops into PERF_DIR: each loop runs under
# callgrind with collection on only inside its measured function, and the figure is the
# instructions counted there over the lookups (or routes added) it made. Deterministic: no timing.
#   Tests/perf/run.sh PERF_DIR    (PERF_SETS, PERF_LOOKUPS, PERF_ADDS from the environment)
# Per set: FastRouter's C API (lookup_loop, against its target where docs/SEMANTICS.md §6 sets
# one), the Swift value API (swift_lookup_loop) and r3 (r3_lookup_loop, when the Makefile could
# build it), r3 counted only when it answered every URL as FastRouter did; then a table of the C
# API next to r3, and registration (add_loop).
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=${1:?usage: run.sh PERF_DIR}
sets=${PERF_SETS:-github static gplus parse}
lookups=${PERF_LOOKUPS:-200000}
adds=${PERF_ADDS:-20000}
# Instructions per lookup through the C API (docs/SEMANTICS.md §6); sets without one have none.
declare -A target=([github]=600 [static]=450)

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
  s=$(count "$set.swift" swift_lookup_loop perfLookups "$lookups" "$routes" "$urls" "$lookups") || exit 1
  echo "$set, Swift Router.match: $s instructions/lookup ($(( s * 100 / c ))% of the C API)"
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

a=$(count add_loop add_loop perf_adds "$adds" "$adds") || exit 1
echo "registration: $a instructions per fr_router_add ($adds generated routes)"
