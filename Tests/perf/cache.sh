#!/usr/bin/env bash
# make perf-cache: cache misses per lookup through the C API on sets written by
# fastrouter-bench --write-sets, counted by callgrind's cache simulation (the simulator cachegrind
# uses; callgrind, because it can limit collection to the measured loop).
#   Tests/perf/cache.sh PERF_DIR SET...    (PERF_CACHE_LOOKUPS, PERF_CACHE_LL from the environment)
# lookup_loop loads PERF_DIR/sets/SET.routes without instrumentation (--instr-atstart=no: a
# million adds under simulation would take the better part of an hour), starts it before its
# warm-up passes, so the simulated caches are warm, and collection covers only perf_lookups().
# Each set is simulated twice: with the last level valgrind reads from the processor, and with
# the last level set to this core's L2 (from /sys), since a virtual machine can report a shared
# last level far larger than its share of it (this host reports 304 MiB) and the misses past the
# L2 then say more. PERF_CACHE_LL ("size,associativity,line size" in bytes, valgrind's --LL=)
# replaces the second.
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=${1:?usage: cache.sh PERF_DIR SET...}
shift
lookups=${PERF_CACHE_LOOKUPS:-100000}

l2=${PERF_CACHE_LL:-}
label=", as PERF_CACHE_LL set it"
index=/sys/devices/system/cpu/cpu0/cache/index2
if [ -z "$l2" ] && [ -r "$index/size" ] && [ "$(cat "$index/level")" = 2 ]; then
  label=", as this core's L2"
  size=$(cat "$index/size")
  case $size in *K) size=$(( ${size%K} * 1024 ));; *M) size=$(( ${size%M} * 1024 * 1024 ));; esac
  l2="$size,$(cat "$index/ways_of_associativity"),$(cat "$index/coherency_line_size")"
fi

per() { awk -v n="$1" -v d="$lookups" 'BEGIN { printf "%.2f", n / d }'; }

# simulate SET NAME [--LL=...]: one run; prints the instruction count once and the misses.
simulate() {
  local set=$1 name=$2; shift 2
  local out=$dir/callgrind.$set.$name.out log=$dir/valgrind.$set.$name.log
  if ! valgrind --tool=callgrind --cache-sim=yes "$@" --instr-atstart=no --collect-atstart=no \
      --toggle-collect=perf_lookups --callgrind-out-file="$out" --log-file="$log" \
      "$dir/lookup_loop" "$dir/sets/$set.routes" "$dir/sets/$set.urls" "$lookups" > "$dir/$set.$name.txt"; then
    cat "$log" >&2
    echo "error: lookup_loop failed on $set" >&2
    return 1
  fi
  # events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw, then their totals.
  local -a events totals
  read -r -a events <<< "$(sed -n 's/^events: *//p' "$out")"
  read -r -a totals <<< "$(sed -n 's/^totals: *//p' "$out")"
  local -A total
  local i
  for i in "${!events[@]}"; do total[${events[$i]}]=${totals[$i]:-0}; done
  if [ "${total[Ir]:-0}" -eq 0 ] || [ -z "${total[DLmr]:-}" ]; then
    echo "error: no cache counts in $out (was lookup_loop built without valgrind/callgrind.h?)" >&2
    return 1
  fi
  if [ "$name" = cache ]; then
    echo "$set: $(( total[Ir] / lookups )) instructions/lookup, first-level data misses" \
      "$(per $(( total[D1mr] + total[D1mw] )))/lookup ($(sed -n 's/^desc: D1 cache: *//p' "$out"))"
  fi
  echo "  last level $(sed -n 's/^desc: LL cache: *//p' "$out")$([ "$name" = l2 ] && echo "$label"):" \
    "$(per $(( total[ILmr] + total[DLmr] + total[DLmw] ))) misses/lookup (data reads $(per "${total[DLmr]}")," \
    "data writes $(per "${total[DLmw]}"), instructions $(per "${total[ILmr]}"))"
}

for set in "$@"; do
  echo "$set: $(grep -vc '^#' "$dir/sets/$set.routes") routes loaded under valgrind, then $lookups lookups under cache simulation"
  simulate "$set" cache || exit 1
  [ -z "$l2" ] || simulate "$set" l2 --LL="$l2" || exit 1
done
