#!/usr/bin/env bash
# libfastrouter.so exports exactly the functions fastrouter.h declares, and nothing else; the
# header compiles as strict C99 and as C++.
#   test_symbols.sh LIBRARY HEADER WORKDIR
set -uo pipefail
lib=$1 header=$2 work=$3
passed=0 failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAILED: $*" >&2; }

# Declared: every "fr_name(" that starts a prototype (return type, then the name).
grep -oE '^[a-z_0-9 ]*[ *]fr_[a-z_]+\(' "$header" | grep -oE 'fr_[a-z_]+\($' | tr -d '(' | sort -u > "$work/declared.txt"
nm -D --defined-only "$lib" | awk '$2 == "T" && $3 ~ /^fr_/ { print $3 }' | sort -u > "$work/exported.txt"

if [ "$(wc -l < "$work/declared.txt")" -ge 18 ]; then pass; else fail "only $(wc -l < "$work/declared.txt") prototypes found in $header"; fi
if diff -u "$work/declared.txt" "$work/exported.txt" >&2; then pass; else fail "declared (-) and exported (+) fr_* functions differ"; fi
# Every name docs/SEMANTICS.md §4 requires is among them.
for name in fr_router_new fr_router_free fr_router_add fr_router_remove fr_router_count fr_match_new \
            fr_match_free fr_router_match fr_match_next fr_match_route_id fr_match_param_count \
            fr_match_param_at fr_match_param fr_match_fragment fr_strerror fr_version fr_router_url fr_router_dump; do
  if grep -qx "$name" "$work/exported.txt"; then pass; else fail "$name is not exported"; fi
done
# Nothing else is exported (libfastrouter.map): no Swift symbol of FastRouter or of the runtime
# linked into the library, no data, no linker-defined symbol.
if nm -D --defined-only "$lib" | awk '!($2 == "T" && $3 ~ /^fr_[a-z_]+$/) { print; bad = 1 } END { exit bad }' >&2; then pass
else fail "exported symbols other than fr_* functions (above)"; fi

# The header: C99 pedantic, C11, C++ (extern "C"), and no headers beyond <stddef.h>/<stdint.h>.
printf '#include <fastrouter.h>\nint main(void) { fr_str s = fr_match_fragment(0); return (int)s.len + FR_OK; }\n' > "$work/header.c"
cp "$work/header.c" "$work/header.cpp"
inc=$(dirname "$header")
if cc -std=c99 -Wall -Wextra -pedantic -Werror -I"$inc" -c "$work/header.c" -o "$work/header_c99.o"; then pass; else fail "header as C99"; fi
if cc -std=c11 -Wall -Wextra -pedantic -Werror -I"$inc" -c "$work/header.c" -o "$work/header_c11.o"; then pass; else fail "header as C11"; fi
if c++ -Wall -Wextra -Werror -I"$inc" -c "$work/header.cpp" -o "$work/header_cpp.o"; then pass; else fail "header as C++"; fi
if nm "$work/header_cpp.o" | grep -q ' U fr_match_fragment$'; then pass; else fail "C++ sees fr_match_fragment with C linkage"; fi
includes=$(grep -E '^\s*#\s*include' "$header" | tr -d ' ' | sort | tr '\n' ' ')
if [ "$includes" = "#include<stddef.h> #include<stdint.h> " ]; then pass; else fail "header includes: $includes"; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
