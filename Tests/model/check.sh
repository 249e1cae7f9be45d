#!/usr/bin/env bash
# Checks Tests/model/publication.pml with spin (make model): an exhaustive search of the protocol
# must end with no error, and each broken variant must fail on the property it breaks.
#
#   Tests/model/check.sh [-DNAME=VALUE ...]
#
# Arguments are passed to spin for every run, e.g. -DUPDATES=2 -DLOOKUPS=3 for another search.
# Environment: SPIN (default spin), CC (default cc), PAN_DEPTH (pan's -m, default 100000),
# PAN_MEMLIM (megabytes pan may use, default 4096), PAN_HASH (pan's -w: 2^N hash table slots,
# default 25, 256 MB of table; a search of tens of millions of states slows down a lot with a
# smaller table, and a larger one costs memory the small searches do not need). Everything is
# built in a temporary directory, removed afterwards; a failing run prints its counterexample.
set -euo pipefail

model="$(cd "$(dirname "$0")" && pwd)/publication.pml"
SPIN=${SPIN:-spin}
CC=${CC:-cc}
PAN_DEPTH=${PAN_DEPTH:-100000}
PAN_MEMLIM=${PAN_MEMLIM:-4096}
PAN_HASH=${PAN_HASH:-25}
defines=("$@")
# spin runs the model through the C preprocessor, gcc's by default: the same compiler instead, so
# that a machine with only the Swift toolchain's clang can run the check.
preprocess="-P$CC -E -x c"

fail() { echo "error: model check: $*" >&2; exit 1; }

command -v "$SPIN" >/dev/null 2>&1 || fail "$SPIN not found (Debian/Ubuntu: apt-get install spin)"
command -v "$CC" >/dev/null 2>&1 || fail "no C compiler ($CC) to build pan"
for define in "${defines[@]}"; do
  [[ $define == -D* ]] || fail "unexpected argument '$define' (only -DNAME or -DNAME=VALUE)"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/fastrouter-model.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$model" "$work/publication.pml"

# run LABEL [SPIN_DEFINES...]: generates and compiles pan for one variant in its own directory
# and runs the exhaustive safety search (assertions and invalid end states). Leaves pan's output
# in $out and the variant's directory in $dir; fails if the search did not run to completion.
run() {
  local label=$1; shift
  dir="$work/$label"
  mkdir -p "$dir"
  cp "$work/publication.pml" "$dir/"
  (cd "$dir" && "$SPIN" "$preprocess" -a "$@" "${defines[@]}" publication.pml > spin.log 2>&1) ||
    { cat "$dir/spin.log" >&2; fail "$label: spin -a failed"; }
  # Compression (-DCOLLAPSE) is lossless: the search stays exhaustive. Warnings in the generated
  # pan.c are not ours (-w).
  (cd "$dir" && "$CC" -O2 -w -DSAFETY -DCOLLAPSE -DMEMLIM="$PAN_MEMLIM" -o pan pan.c > cc.log 2>&1) ||
    { cat "$dir/cc.log" >&2; fail "$label: compiling pan failed"; }
  local status=0
  out=$(cd "$dir" && ./pan -m"$PAN_DEPTH" -w"$PAN_HASH" 2>&1) || status=$?
  if [ $status -ne 0 ] || ! grep -q '^Full statespace search for:' <<< "$out" \
     || ! grep -q 'errors: [0-9]' <<< "$out"; then
    echo "$out" >&2; fail "$label: pan did not finish (exit $status)"
  fi
  # pan stops at the first error ("Search not completed"); with none, any of these means part of
  # the state space was not searched.
  if [ "$(errors)" = 0 ] && grep -E 'max search depth too small|reached -DMEMLIM bound|out of memory|Search not completed' <<< "$out" >&2; then
    fail "$label: the search was cut short (raise PAN_DEPTH or PAN_MEMLIM)"
  fi
}

errors() { sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' <<< "$out"; }
figure() { sed -n "s/^[[:space:]]*\([0-9.e+]*\)[[:space:]]*$1.*/\1/p" <<< "$out" | head -n 1; }
summary() {
  echo "$(figure 'states, stored') states stored, $(figure transitions) transitions," \
       "depth $(sed -n 's/.*depth reached \([0-9]*\).*/\1/p' <<< "$out"), errors $(errors)," \
       "$(figure 'total actual memory usage') MB, $(sed -n 's/^pan: elapsed time \(.*\) seconds/\1/p' <<< "$out") s"
}

# The protocol, in both of its forms: lookups that enter with a plain store behind the writers'
# process-wide fence (the default), and lookups that fence for themselves (FENCEDENTER, where the
# kernel offers no such fence). No error, and every statement of the model reached in each,
# but the other form's.
check_protocol() {
  local label=$1; shift
  run "$label" "$@"
  if [ "$(errors)" != 0 ]; then
    echo "$out" >&2
    echo "counterexample:" >&2
    (cd "$dir" && "$SPIN" "$preprocess" -t -p "$@" "${defines[@]}" publication.pml) >&2 || true
    fail "$label: $(errors) error(s) in the protocol model"
  fi
  unreached=$(awk '/^unreached in /{name=$3 " " $4; next} /^\t\(/{name=""; next} name != "" && /^\t/{print name ":" $0}' <<< "$out")
  if [ -n "$unreached" ]; then
    echo "$out" >&2
    fail "$label: statements never reached in any execution (dead model code):"$'\n'"$unreached"
  fi
  echo "model $label: $(summary)"
}
check_protocol protocol
check_protocol protocol-fenced -DFENCEDENTER

# The broken variants: each must fail, on the assertion of the property it breaks.
#   NOGRACE       no grace period                      -> a read of a freed node (property 1)
#   LATEENTER     root loaded before the slot is set   -> a read of a freed node (property 1)
#   NOMEMBARRIER  plain enter, no process-wide fence   -> a read of a freed node (property 1)
#   EARLYPUBLISH  root published before its new child  -> a child of another version (property 2)
#   NOPIN         the writer ignores pins              -> a decline reads a freed node (property 4)
#   LATEPIN       the reader pins after its exit       -> a decline reads a freed node (property 4)
#   SWEEPPINNED   the sweep frees the pinned version   -> a decline reads a freed node (property 4)
check_variant() {
  local variant=$1 expected=$2 what=$3
  run "$variant" "-D$variant"
  local count
  count=$(errors)
  if [ "$count" = 0 ]; then
    echo "$out" >&2
    fail "$variant: no error found; the model no longer catches $what"
  fi
  local assertion
  assertion=$(grep -m1 'assertion violated' <<< "$out" || true)
  if ! grep -qF "$expected" <<< "$assertion"; then
    echo "$out" >&2
    echo "counterexample:" >&2
    (cd "$dir" && "$SPIN" "$preprocess" -t -p "-D$variant" "${defines[@]}" publication.pml) >&2 || true
    fail "$variant: expected a violation of $expected, found: ${assertion:-another error}"
  fi
  echo "model $variant (must fail): $(summary); ${assertion#pan:1: }"
}
check_variant NOGRACE 'node[r].live&&((stale[me]&(1<<r))==0)' 'a node freed without a grace period'
check_variant LATEENTER 'node[r].live&&((stale[me]&(1<<r))==0)' 'a root loaded before the reader announces itself'
check_variant NOMEMBARRIER 'node[r].live&&((stale[me]&(1<<r))==0)' 'a plain enter without the writer'"'"'s process-wide fence'
check_variant EARLYPUBLISH 'node[c].stamp==expected' 'a root published before its child is written'
# Property 4's assertions (the root or the child a decline reads) start the same way.
check_variant NOPIN '((pinned[me]==ver)&&node[' 'a writer that frees a pinned version'
check_variant LATEPIN '((pinned[me]==ver)&&node[' 'a pin stored after the lookup it keeps'
check_variant SWEEPPINNED '((pinned[me]==ver)&&node[' 'a sweep of the retired list that frees the pinned version'
echo "model: ok"
