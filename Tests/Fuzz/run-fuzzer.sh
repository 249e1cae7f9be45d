#!/usr/bin/env bash
# Runs one libFuzzer harness of Tests/Fuzz for a while and prints a one-line summary.
#   Tests/Fuzz/run-fuzzer.sh BINARY NAME SECONDS WORKDIR [libFuzzer flags...]
# The committed seeds (Tests/Fuzz/corpus/NAME) are replayed first and never written; new inputs go
# to WORKDIR/corpus/NAME. A crash, failed invariant, leak-free OOM or hang (-timeout) is saved as
# WORKDIR/artifacts/NAME-* and fails the run with the end of the log and a command to replay it.
set -uo pipefail
cd "$(dirname "$0")/../.."
binary=${1:?usage: run-fuzzer.sh BINARY NAME SECONDS WORKDIR [flags]}
name=${2:?} seconds=${3:?} work=${4:?}
shift 4
seeds=Tests/Fuzz/corpus/$name
corpus=$work/corpus/$name
log=$work/$name.log
mkdir -p "$corpus" "$work/artifacts"
dict=()
case $name in
  pattern) dict=(-dict=Tests/Fuzz/pattern.dict) ;;
  match) dict=(-dict=Tests/Fuzz/url.dict) ;;
esac
before=$(find "$corpus" -type f | wc -l)
# Swift's crash backtracer would wait on a crashed child; libFuzzer reports crashes itself.
SWIFT_BACKTRACE=enable=no "$binary" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/$name-" "${dict[@]}" "$@" "$corpus" "$seeds" > "$log" 2>&1
status=$?
stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
after=$(find "$corpus" -type f | wc -l)
runs=$(stat number_of_executed_units)
details="$(stat average_exec_per_sec) runs/s, corpus $after files (+$((after - before))), seeds $(find "$seeds" -type f | wc -l), peak RSS $(stat peak_rss_mb) MB, slowest input $(stat slowest_unit_time_sec) s"
if [ $status -eq 0 ]; then
  echo "fuzz $name: ${runs:-?} runs in $seconds s, no crash ($details)"
  exit 0
fi
echo "fuzz $name: FAILED after ${runs:-?} runs, exit $status ($details); end of $log:"
grep -v -E '^#[0-9]+|^    #[0-9]+ 0x|^INFO: |Recommended dictionary|# Uses: ' "$log" | tail -30
artifact=$(sed -n "s/.*Test unit written to \(.*\)$/\1/p" "$log" | tail -1)
if [ -n "$artifact" ]; then
  echo "replay: SWIFT_BACKTRACE=enable=no $binary $artifact"
fi
exit 1
