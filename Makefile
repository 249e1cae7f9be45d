# FastRouter — build, test, benchmark and install.
#   make test      every test: Swift suites and C ABI programs (also under AddressSanitizer), examples,
#                  fuzz/soak/ThreadSanitizer smoke runs, a quick benchmark run, the documentation
#                  (make docs: the snippets run and every link resolves)
#   make bench     the load benchmark on its embedded default suite (release build)
#   make install   libfastrouter.so (a system library: the Swift runtime inside, only fr_* exported),
#                  include/fastrouter.h and fastrouter.pc under PREFIX
#   make example   builds and runs the C examples in examples/c (router-cli, dispatch)
#   make perf      instructions per lookup (callgrind) on the GitHub, static, Google+ and Parse sets
#                  through the C API, the Swift value API and r3, on GitHub with methods (each URL
#                  looked up with its method, against the same lookups without), and per route added
#                  with fr_router_add
#   make perf-cache  cache misses per lookup through the C API on the 1M-route set, and the 1k one
#                  (callgrind's cache simulation)
#   make docs      a DocC archive per Swift module under build/docs (broken links fail it), after
#                  building and running every example in Snippets/
#   make test-hummingbird  FastRouterHummingbird's tests (the Hummingbird trait on, in .build-hummingbird)
#   make http-bench  the example Hummingbird server routed by FastRouter and by Hummingbird's Router,
#                  loaded with wrk on loopback (HTTP_BENCH_SECONDS per router, default 15); writes
#                  http-bench.json (docs/HUMMINGBIRD.md)

SHELL := /bin/bash
PREFIX ?= /usr/local
SWIFT ?= swift
# The C compiler: cc, or the Swift toolchain's clang on a machine where no cc is installed.
ifeq ($(origin CC),default)
CC := $(if $(shell command -v cc 2>/dev/null),cc,$(dir $(realpath $(shell command -v $(SWIFT))))clang)
endif
BUILD_DIR := $(CURDIR)/.build
RELEASE_BIN = $(shell $(SWIFT) build -c release --show-bin-path 2>/dev/null)

.PHONY: all deps build release release-lib test test-swift test-c bench install example perf perf-cache docs snippets clean

all: build

# Installs the system packages the build needs when they are missing (Debian/Ubuntu).
deps:
	@if ! pkg-config --exists libpcre2-8 2>/dev/null; then \
	  echo "installing libpcre2-dev"; \
	  $(if $(filter 0,$(shell id -u)),,sudo) apt-get update -qq && \
	  $(if $(filter 0,$(shell id -u)),,sudo) apt-get install -y -qq libpcre2-dev pkg-config; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Only libfastrouter.so (and the FastRouter module it shares with fastrouter-soak), linked to the
# toolchain's Swift runtime and exporting FastRouter's Swift symbols: what make perf's Swift program
# links, without compiling the benchmark and its dependencies in release mode. The library make
# install installs is built by make clib (C ABI section).
release-lib: deps
	$(SWIFT) build -c release --product fastrouter

test-swift: deps
	$(SWIFT) test

# --- documentation section -------------------------------------------------------------------
#   make snippets   builds and runs each example of Snippets/ (the README's Swift examples; each
#                   checks its own results and stops with an error when one is wrong)
#   make docs       snippets, then build/docs/<module>.doccarchive for FastRouter, FastRouterDeepLinks
#                   and FastRouterLint, with swift-docc-plugin; a warning (an unresolved symbol link,
#                   a missing snippet) is an error. Serve an archive with any static web server
#                   (python3 -m http.server -d build/docs/FastRouter.doccarchive) and open
#                   /documentation/fastrouter. FastRouterCABI has no Swift API: include/fastrouter.h
#                   documents the C library.
DOCS_DIR := $(CURDIR)/build/docs
DOC_MODULES := FastRouter FastRouterDeepLinks FastRouterLint
SNIPPETS := $(sort $(basename $(notdir $(wildcard Snippets/*.swift))))

snippets: deps
	@bin="$$($(SWIFT) build --show-bin-path)"; for snippet in $(SNIPPETS); do \
	  $(SWIFT) build --product $$snippet > /dev/null || { $(SWIFT) build --product $$snippet; exit 1; }; \
	  "$$bin/$$snippet" > /dev/null || { echo "error: snippet $$snippet failed" >&2; exit 1; }; \
	  echo "snippet $$snippet: ok"; \
	done

docs: snippets
	rm -rf $(DOCS_DIR) && mkdir -p $(DOCS_DIR)
	$(SWIFT) package --allow-writing-to-directory $(DOCS_DIR) generate-documentation \
	    $(addprefix --target ,$(DOC_MODULES)) --output-path $(DOCS_DIR) --warnings-as-errors
	@for module in $(DOC_MODULES); do \
	  [ -f "$(DOCS_DIR)/$$module.doccarchive/index.html" ] || { echo "error: no archive for $$module" >&2; exit 1; }; \
	done
# --- end documentation section ---------------------------------------------------------------

# --- C ABI section ---------------------------------------------------------------------------
#   make install PREFIX=DIR   libfastrouter.so.X.Y.Z with its SONAME link libfastrouter.so.X and
#                             development link libfastrouter.so, fastrouter.h, fastrouter.pc
#                             (rpath in Libs unless DIR is /usr)
#   make clib                 only builds that library, in .build-clib
#   make test-c               installs under build/c/prefix, then runs Tests/c/run.sh against that install
#   make example              builds examples/c/router-cli and examples/c/dispatch with pkg-config, routes
#                             examples/c/urls.txt, and dispatches the requests of examples/c/requests.txt
#                             on the GitHub API's method routes (fails unless the output equals
#                             examples/c/requests.expected)
# The installed library is a system library: the Swift runtime is linked into it statically (its
# modules do not import Foundation), so it needs nothing from the Swift toolchain at run time; it
# exports only the fr_* functions (libfastrouter.map, the linker's export list); its SONAME is
# libfastrouter.so.FR_VERSION_MAJOR. SwiftPM's --static-swift-stdlib compiles against the static
# runtime but links only executables with it, hence -Xswiftc -static-stdlib for the library's link.
# lld, because gold leaves local copies of a few Swift symbols in the dynamic symbol table. It is
# built in its own scratch path, .build-clib: the static runtime changes how the modules compile,
# so sharing .build would rebuild them back and forth with the other release products. make
# install fails if the installed library needs any library it cannot find, or any from the Swift
# toolchain.
SWIFT_TOOLCHAIN_DIR = $(realpath $(dir $(realpath $(shell command -v $(SWIFT))))..)
OBJCOPY ?= $(shell command -v objcopy 2>/dev/null || echo $(dir $(realpath $(shell command -v $(SWIFT))))llvm-objcopy)
FR_VERSION = $(shell sed -n 's/^\#define FR_VERSION "\(.*\)".*/\1/p' include/fastrouter.h)
FR_SOVERSION = $(shell sed -n 's/^\#define FR_VERSION_MAJOR \([0-9]*\).*/\1/p' include/fastrouter.h)
FR_SONAME = libfastrouter.so.$(FR_SOVERSION)
FR_LIBDIR = $(PREFIX)/lib
FR_INCLUDEDIR = $(PREFIX)/include
FR_RPATH = $(if $(filter /usr /usr/,$(PREFIX)),, -Wl,-rpath,$${libdir})
CLIB_DIR := $(CURDIR)/.build-clib
CLIB_BUILD_FLAGS = -c release --scratch-path $(CLIB_DIR) --static-swift-stdlib --disable-local-rpath \
    -Xswiftc -static-stdlib -Xswiftc -use-ld=lld \
    -Xlinker -soname=$(FR_SONAME) -Xlinker --version-script=$(CURDIR)/libfastrouter.map
CLIB_BIN = $(shell $(SWIFT) build -c release --scratch-path $(CLIB_DIR) --show-bin-path 2>/dev/null)
# Libraries the installed library must not need: the Swift runtime, Foundation, ICU, libdispatch.
CLIB_FORBIDDEN_DEPS := not found|libswift|libFoundation|lib_Foundation|libicu|libdispatch|libBlocksRuntime
C_BUILD_DIR := $(CURDIR)/build/c
C_TEST_PREFIX := $(C_BUILD_DIR)/prefix
AS_ROOT = $(if $(filter 0,$(shell id -u)),,sudo)

.PHONY: c-deps clib

# valgrind runs the leak test; installed when missing (Debian/Ubuntu).
c-deps: deps
	@command -v valgrind >/dev/null 2>&1 || { echo "installing valgrind"; \
	  $(AS_ROOT) apt-get update -qq && $(AS_ROOT) apt-get install -y -qq valgrind; }

# SwiftPM does not relink when only the export list changes: an older library is removed first.
clib: deps
	@lib="$(CLIB_BIN)/libfastrouter.so"; [ ! -e "$$lib" ] || [ "$$lib" -nt libfastrouter.map ] || rm -f "$$lib"
	$(SWIFT) build $(CLIB_BUILD_FLAGS) --product fastrouter

install: clib
	install -d "$(DESTDIR)$(FR_LIBDIR)/pkgconfig" "$(DESTDIR)$(FR_INCLUDEDIR)"
	install -m 644 "$(CLIB_BIN)/libfastrouter.so" "$(DESTDIR)$(FR_LIBDIR)/libfastrouter.so.$(FR_VERSION)"
	$(OBJCOPY) --strip-unneeded "$(DESTDIR)$(FR_LIBDIR)/libfastrouter.so.$(FR_VERSION)"
	ln -sfn "libfastrouter.so.$(FR_VERSION)" "$(DESTDIR)$(FR_LIBDIR)/$(FR_SONAME)"
	ln -sfn "$(FR_SONAME)" "$(DESTDIR)$(FR_LIBDIR)/libfastrouter.so"
	@lib="$(DESTDIR)$(FR_LIBDIR)/libfastrouter.so.$(FR_VERSION)"; \
	deps=$$(env -u LD_LIBRARY_PATH ldd "$$lib") || { echo "error: ldd $$lib failed" >&2; exit 1; }; \
	if bad=$$(grep -E '$(CLIB_FORBIDDEN_DEPS)|$(SWIFT_TOOLCHAIN_DIR)/' <<< "$$deps"); then \
	  echo "$$bad" >&2; \
	  echo "error: $$lib needs the libraries above (missing, or from the Swift toolchain)" >&2; exit 1; fi
	install -m 644 include/fastrouter.h "$(DESTDIR)$(FR_INCLUDEDIR)/fastrouter.h"
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(FR_LIBDIR)|' -e 's|@INCLUDEDIR@|$(FR_INCLUDEDIR)|' \
	    -e 's|@VERSION@|$(FR_VERSION)|' -e 's|@RPATH@|$(FR_RPATH)|' fastrouter.pc.in \
	    > "$(DESTDIR)$(FR_LIBDIR)/pkgconfig/fastrouter.pc"
	@echo "installed libfastrouter $(FR_VERSION) under $(DESTDIR)$(PREFIX)"

test-c: c-deps
	@$(MAKE) --no-print-directory install PREFIX="$(C_TEST_PREFIX)" DESTDIR=
	PKG_CONFIG_PATH="$(C_TEST_PREFIX)/lib/pkgconfig" CC="$(CC)" Tests/c/run.sh "$(C_BUILD_DIR)"

example: deps
	@$(MAKE) --no-print-directory install PREFIX="$(C_TEST_PREFIX)" DESTDIR=
	$(CC) -std=c99 -Wall -Wextra -O2 examples/c/router-cli.c -o examples/c/router-cli \
	    $$(PKG_CONFIG_PATH="$(C_TEST_PREFIX)/lib/pkgconfig" pkg-config --cflags --libs fastrouter)
	examples/c/router-cli examples/c/routes.txt < examples/c/urls.txt
	$(CC) -std=c99 -Wall -Wextra -O2 examples/c/dispatch.c -o examples/c/dispatch \
	    $$(PKG_CONFIG_PATH="$(C_TEST_PREFIX)/lib/pkgconfig" pkg-config --cflags --libs fastrouter)
	@out=$$(examples/c/dispatch examples/c/github.routes < examples/c/requests.txt) && echo "$$out" && \
	  diff -u examples/c/requests.expected - <<< "$$out" || \
	  { echo "error: examples/c/dispatch did not print examples/c/requests.expected" >&2; exit 1; }
# --- end C ABI section -----------------------------------------------------------------------

# --- benchmark section -----------------------------------------------------------------------
#   make bench         the embedded default suite, release build; BENCH_ARGS adds options,
#                      e.g. make bench BENCH_ARGS="--json bench.json --svg bench.svg"
#   make bench-quick   a few seconds end to end (debug build); proves the tool works, asserts no figure
BENCH_ARGS ?=
BENCH_SUDO = $(if $(filter 0,$(shell id -u)),,sudo)

.PHONY: bench-deps bench-quick

# libpcre2-dev builds FastRouter; libr3-dev brings libr3.so.0, the r3 peer (loaded at run time,
# so a failed install only leaves r3 out of the run).
bench-deps:
	@missing=""; \
	pkg-config --exists libpcre2-8 2>/dev/null || missing="$$missing libpcre2-dev pkg-config"; \
	{ [ -e /usr/include/r3/r3.h ] && /sbin/ldconfig -p 2>/dev/null | grep -q 'libr3\.so\.0'; } || missing="$$missing libr3-dev"; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing"; \
	  $(BENCH_SUDO) apt-get update -qq && $(BENCH_SUDO) apt-get install -y -qq $$missing || \
	    echo "warning: could not install$$missing (r3 will be left out if it is missing)" >&2; \
	fi
	@pkg-config --exists libpcre2-8 || { echo "error: libpcre2-8 is required (apt-get install libpcre2-dev)" >&2; exit 1; }

bench: bench-deps
	$(SWIFT) build -c release --product fastrouter-bench
	"$$($(SWIFT) build -c release --show-bin-path)/fastrouter-bench" $(BENCH_ARGS)

bench-quick: deps
	$(SWIFT) build --product fastrouter-bench
	"$$($(SWIFT) build --show-bin-path)/fastrouter-bench" --quick
	@# --routes alone: URLs from the file beside it (static.urls, one per route line), or built
	@# from the routes when there is none (examples/c has urls.txt, not routes.urls).
	"$$($(SWIFT) build --show-bin-path)/fastrouter-bench" --quick --routes Tests/perf/routesets/static.routes --routers c,swift
	"$$($(SWIFT) build --show-bin-path)/fastrouter-bench" --quick --routes examples/c/routes.txt --routers c,swift
	@# Files and options it must refuse up front, CRLF files, sets a peer cannot take.
	Tests/bench/check-cli.sh "$$($(SWIFT) build --show-bin-path)/fastrouter-bench"
	@# The lint subcommand as a user runs it: a clean file exits 0; Tests/lint/problems.routes
	@# must exit 1 with its four errors and seven warnings (duplicate, shadowed, ambiguous, shadowed
	@# for one method, a method in lower case, an empty method name, a GET route whose HEAD requests
	@# a route of its shape naming HEAD takes, HEAD taken by a better GET route).
	"$$($(SWIFT) build --show-bin-path)/fastrouter-bench" lint examples/c/routes.txt
	@out=$$("$$($(SWIFT) build --show-bin-path)/fastrouter-bench" lint Tests/lint/problems.routes); status=$$?; \
	echo "$$out"; \
	[ $$status -eq 1 ] && echo "$$out" | grep -q '^4 errors, 7 warnings$$' \
	  && echo "$$out" | grep -q ':9: warning: route .* is never the first candidate' \
	  && echo "$$out" | grep -q ':11: warning: routes .* have equal precedence' \
	  && echo "$$out" | grep -q ":13: warning: route 'GET,POST /m/{y}' is shadowed for GET only" \
	  && echo "$$out" | grep -q ":14: warning: method 'get' of route 'get /n'" \
	  && echo "$$out" | grep -q ':15: error: empty method name' \
	  && echo "$$out" | grep -q ":16: warning: HEAD requests for some URLs of route 'GET /h/{n:int}' go to 'GET,HEAD /h/{n:uint}'" \
	  && echo "$$out" | grep -q ":19: warning: route 'HEAD,POST /k/{y}' is shadowed for HEAD only" \
	  || { echo "error: fastrouter-bench lint did not report Tests/lint/problems.routes as expected (exit $$status)" >&2; exit 1; }
# --- end benchmark section -------------------------------------------------------------------

# --- perf section ----------------------------------------------------------------------------
#   make perf [PERF_LOOKUPS=200000] [PERF_SETS="github static gplus parse"] [PERF_METHOD_SETS=github]
#       instructions per lookup, counted by callgrind, through the C API with parameters read:
#       Tests/perf/lookup_loop.c, linked to the library make install installs, loads
#       Tests/perf/routesets/<set>.routes, warms up on <set>.urls, then does PERF_LOOKUPS lookups
#       cycling through them; collection is on only inside that loop (--toggle-collect), and the
#       figure printed per set is Ir / PERF_LOOKUPS, with the set's instruction target
#       (docs/SEMANTICS.md §6) where it has one. Deterministic: no timing.
#       Then the same for the Swift value API: Tests/perf/swift_lookup_loop.swift, `Router.match`
#       reading the value, the route id and every parameter's bytes (Parameters.forEachUTF8), and
#       its ratio to the C API (docs/SEMANTICS.md §6: at most 1.3×).
#       Each C API figure comes with its stages (callgrind's inclusive costs: the entry and frame,
#       the scan, the walk per segment, reading the result) next to their budgets.
#       Then r3 on the same URLs in the same loop (Tests/perf/r3_lookup_loop.c: r3's compiled tree, one
#       reused match_entry, every capture read and freed), counted where it answered every URL as
#       FastRouter did, and its ratio to the C API; left out, with a message, when libr3-dev is not
#       installed. A table puts the C API and r3 side by side.
#       Then, for each set of PERF_METHOD_SETS (default github), the set with methods (Tests/perf/
#       routesets/<set>-methods.*: each line of the list a route of its method, 203 routes on GitHub's
#       142 paths, each URL looked up with its method): the C API's instructions per lookup through
#       fr_router_match_method against the same URLs through fr_router_match, with the ratio and its
#       target (docs/SEMANTICS.md §6: at most 1.1×), the calls to malloc & co. callgrind saw in both
#       measured loops (0 expected), the Swift API's Router.match(_:method:), and r3 with its method
#       conditions (r3_tree_insert_routel_ex, r3_tree_match_route), counted where it answered as
#       FastRouter did.
#       Last, registration: Tests/perf/add_loop.c, the GitHub set's routes into a new router 50
#       times (the figure docs/SEMANTICS.md §6 sets), then PERF_ADDS generated routes in the scale
#       sets' shapes into one router; each figure is Ir per fr_router_add inside perf_adds().
#   make perf-cache [PERF_CACHE_LOOKUPS=100000] [PERF_CACHE_LL=size,assoc,line]   last-level and
#       first-level cache misses per lookup through the C API on scale-1M, and on scale-1k for
#       comparison (both written by fastrouter-bench --write-sets): Tests/perf/cache.sh runs
#       lookup_loop under callgrind's cache simulation, the simulator cachegrind uses, with collection
#       on only inside the measured loop and the routes loaded without instrumentation; once with the
#       last level valgrind reads from the processor, once with it set to this core's L2 (or to
#       PERF_CACHE_LL, valgrind's --LL=). About a minute after the benchmark is built.
# The C programs link the installed kind of library (make clib: Swift runtime inside, only fr_*
# exported); the Swift program links the release libfastrouter.so of .build (make release-lib),
# which exports FastRouter's Swift symbols and uses the toolchain's runtime. Each is measured
# through a copy without debug sections, since valgrind 3.19 can fail on the DWARF that Swift
# emits. The route set files are written by scripts/embed-routesets.py. Tests/perf/run.sh runs
# the loops and prints the figures.
PERF_LOOKUPS ?= 200000
PERF_ADDS ?= 20000
PERF_SETS ?= github static gplus parse
PERF_METHOD_SETS ?= github
PERF_CACHE_LOOKUPS ?= 100000
PERF_CACHE_LL ?=
PERF_DIR := $(CURDIR)/build/perf
SWIFTC ?= $(dir $(realpath $(shell command -v $(SWIFT))))swiftc

.PHONY: perf perf-build perf-cache

perf-build: c-deps clib
	@mkdir -p $(PERF_DIR)/lib $(PERF_DIR)/clib
	$(OBJCOPY) --strip-debug "$(CLIB_BIN)/libfastrouter.so" $(PERF_DIR)/clib/$(FR_SONAME)
	ln -sfn $(FR_SONAME) $(PERF_DIR)/clib/libfastrouter.so
	$(CC) -std=c11 -O2 -g -Wall -Wextra -Werror -Iinclude Tests/perf/lookup_loop.c -o $(PERF_DIR)/lookup_loop \
	    -L$(PERF_DIR)/clib -lfastrouter -Wl,-rpath,$(PERF_DIR)/clib

perf: perf-build release-lib
	$(OBJCOPY) --strip-debug "$(RELEASE_BIN)/libfastrouter.so" $(PERF_DIR)/lib/libfastrouter.so
	$(CC) -std=c11 -O2 -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=199309L -Iinclude Tests/perf/add_loop.c \
	    -o $(PERF_DIR)/add_loop -L$(PERF_DIR)/clib -lfastrouter -Wl,-rpath,$(PERF_DIR)/clib
	$(SWIFTC) -O -I "$(RELEASE_BIN)/Modules" -I Sources/CPCRE2 -I Sources/CThreadScratch/include -I Sources/CProcessFence/include Tests/perf/swift_lookup_loop.swift \
	    -o $(PERF_DIR)/swift_lookup_loop -L$(PERF_DIR)/lib -lfastrouter -Xlinker -rpath -Xlinker $(PERF_DIR)/lib
	@# r3's loop links libr3 itself (r3.pc), so it is built only where libr3-dev is installed.
	@rm -f $(PERF_DIR)/r3_lookup_loop
	@if pkg-config --exists r3 2>/dev/null && [ -e /usr/include/r3/r3.h ]; then \
	  echo "$(CC) ... Tests/perf/r3_lookup_loop.c -o $(PERF_DIR)/r3_lookup_loop $$(pkg-config --libs r3)"; \
	  $(CC) -std=c11 -O2 -g -Wall -Wextra -Werror $$(pkg-config --cflags r3) Tests/perf/r3_lookup_loop.c \
	      -o $(PERF_DIR)/r3_lookup_loop $$(pkg-config --libs r3) || exit 1; \
	fi
	@PERF_SETS="$(PERF_SETS)" PERF_METHOD_SETS="$(PERF_METHOD_SETS)" PERF_LOOKUPS=$(PERF_LOOKUPS) PERF_ADDS=$(PERF_ADDS) \
	    Tests/perf/run.sh $(PERF_DIR)

perf-cache: perf-build
	$(SWIFT) build -c release --product fastrouter-bench
	"$(RELEASE_BIN)/fastrouter-bench" --filter scale-1k,scale-1M --write-sets $(PERF_DIR)/sets
	@PERF_CACHE_LOOKUPS=$(PERF_CACHE_LOOKUPS) PERF_CACHE_LL="$(PERF_CACHE_LL)" Tests/perf/cache.sh $(PERF_DIR) scale-1k scale-1M

# --- end perf section ------------------------------------------------------------------------

# --- reliability section ---------------------------------------------------------------------
#   make fuzz [FUZZ_SECONDS=60]   builds the four libFuzzer harnesses of Tests/Fuzz (pattern parsing,
#                                 URL matching, differential against the reference matcher, C ABI)
#                                 and runs each FUZZ_SECONDS; inputs and crashes go to .build-fuzz/
#   make soak [SOAK_SECONDS=60]   fastrouter-soak (release): matching threads and a writer adding and
#                                 removing routes; fails on any torn answer or growing resident memory
#   make test-asan                every Swift test, then the C ABI programs, under AddressSanitizer
#   make test-tsan                every Swift suite and Tests/c/test_threads.c under ThreadSanitizer
#   make test-catalogue           Tests/c/test_catalogue.c (the bad-input catalogue) on the installed library
#   make test-reliability         part of make test (with test-asan): each fuzzer briefly, a short soak,
#                                 test-catalogue, test-tsan, model
#   make model                    spin's exhaustive check of Tests/model/publication.pml (table
#                                 publication, pins for declines, node reclamation) and of its
#                                 broken variants
# Sanitized builds use the toolchain's clang for C, so C and Swift share one sanitizer runtime.
FUZZ_SECONDS ?= 60
SOAK_SECONDS ?= 60
SWIFTC ?= $(dir $(realpath $(shell command -v $(SWIFT))))swiftc
TOOLCHAIN_CC ?= $(dir $(realpath $(shell command -v $(SWIFT))))clang
FUZZ_DIR := $(CURDIR)/.build-fuzz
FUZZERS := pattern match differential cabi
FUZZ_SWIFTFLAGS := -sanitize=fuzzer,address -parse-as-library -O -I Sources/CPCRE2 -I Sources/CThreadScratch/include \
    -I Sources/CProcessFence/include \
    -Xcc -fmodule-map-file=Sources/CPCRE2/module.modulemap -Xcc -fmodule-map-file=Sources/CFastRouter/module.modulemap \
    -Xcc -fmodule-map-file=Sources/CThreadScratch/include/module.modulemap \
    -Xcc -fmodule-map-file=Sources/CProcessFence/include/module.modulemap
FUZZ_SOURCES_pattern := Tests/Fuzz/PatternFuzz.swift
FUZZ_SOURCES_match := Tests/Fuzz/MatchFuzz.swift
FUZZ_SOURCES_differential := Tests/Fuzz/DifferentialFuzz.swift Tests/FastRouterTests/ReferenceMatcher.swift \
    Tests/FastRouterTests/ReferenceMatcher+Methods.swift
FUZZ_SOURCES_cabi := Tests/Fuzz/CABIFuzz.swift
# In make test: five seconds each from a fixed seed, with a fresh working corpus.
FUZZ_CI_SECONDS ?= 5
SOAK_CI_SECONDS ?= 5
RELIABILITY_SWIFT_LIB = $(realpath $(dir $(realpath $(shell command -v $(SWIFT))))../lib/swift/linux)
ASAN_DIR := $(CURDIR)/.build-asan
TSAN_DIR := $(CURDIR)/.build-tsan
SOAK_DIR := $(CURDIR)/.build-soak
TSAN_RUN_OPTIONS := halt_on_error=1 suppressions=$(CURDIR)/Tests/Fuzz/tsan-suppressions.txt
# C programs linked straight to a sanitized libfastrouter.so: (1) label, (2) -fsanitize value,
# (3) build directory, (4) programs, (5) environment, (6) arguments. The toolchain's TSan runtime
# has libdispatch interceptors, hence libdispatch and BlocksRuntime.
SANITIZED_C = for program in $(4); do \
	  echo "== $$program under $(1)"; \
	  $(TOOLCHAIN_CC) -std=c11 -g -O1 -Wall -Wextra -Werror -pthread -fsanitize=$(2) -fuse-ld=lld -Iinclude \
	    Tests/c/$$program.c -o $(3)/$$program -L$(3)/debug -lfastrouter \
	    -L$(RELIABILITY_SWIFT_LIB) -ldispatch -lBlocksRuntime \
	    -Wl,-rpath,$(3)/debug -Wl,-rpath,$(RELIABILITY_SWIFT_LIB) || exit 1; \
	  (cd $(CURDIR) && $(5) $(3)/$$program $(6)) || { echo "-- $$program under $(1): FAILED"; exit 1; }; \
	done

.PHONY: fuzz fuzz-build soak soak-build test-asan test-tsan test-catalogue test-reliability model

# The three modules a harness may use, each a static library with coverage and ASan:
# FastRouter (the core), FastRouterLint (fr_router_lint's report) and FastRouterCABI (the exports).
# One package name, so `package` declarations are visible across them as in the SwiftPM build.
FUZZ_MODULES := FastRouter FastRouterLint FastRouterCABI
FUZZ_DEPS_FastRouter :=
FUZZ_DEPS_FastRouterLint := FastRouter
FUZZ_DEPS_FastRouterCABI := FastRouter FastRouterLint
FUZZ_C_OBJECTS := thread_scratch process_fence
FUZZ_LIBRARIES = $(foreach module,$(FUZZ_MODULES),$(FUZZ_DIR)/lib$(module).a) $(FUZZ_C_OBJECTS:%=$(FUZZ_DIR)/%.o)

define FUZZ_MODULE_RULE
$(FUZZ_DIR)/lib$(1).a: $(shell find Sources/$(1) -name '*.swift') $(foreach dep,$(FUZZ_DEPS_$(1)),$(FUZZ_DIR)/lib$(dep).a) \
    Sources/CPCRE2/shim.h Sources/CPCRE2/module.modulemap Sources/CFastRouter/module.modulemap include/fastrouter.h \
    Sources/CThreadScratch/include/thread_scratch.h Sources/CProcessFence/include/process_fence.h
	@mkdir -p $(FUZZ_DIR)
	@echo "building $$@ (libFuzzer coverage + AddressSanitizer, -enable-testing)"
	@$(SWIFTC) -emit-library -static -emit-module -emit-module-path $(FUZZ_DIR)/$(1).swiftmodule -I $(FUZZ_DIR) \
	    -module-name $(1) -package-name FastRouter -enable-testing -wmo $(FUZZ_SWIFTFLAGS) \
	    $(shell find Sources/$(1) -name '*.swift') -o $$@ > $(FUZZ_DIR)/build-$(1).log 2>&1 || \
	    { cat $(FUZZ_DIR)/build-$(1).log; exit 1; }
endef
$(foreach module,$(FUZZ_MODULES),$(eval $(call FUZZ_MODULE_RULE,$(module))))

# The core's C files (its thread-local variable, the writers' fence), with ASan as the rest.
$(FUZZ_DIR)/thread_scratch.o: Sources/CThreadScratch/thread_scratch.c Sources/CThreadScratch/include/thread_scratch.h
	@mkdir -p $(FUZZ_DIR)
	$(TOOLCHAIN_CC) -c -O1 -g -fsanitize=address -ISources/CThreadScratch/include $< -o $@
$(FUZZ_DIR)/process_fence.o: Sources/CProcessFence/process_fence.c Sources/CProcessFence/include/process_fence.h
	@mkdir -p $(FUZZ_DIR)
	$(TOOLCHAIN_CC) -c -O1 -g -fsanitize=address -ISources/CProcessFence/include $< -o $@

define FUZZ_HARNESS_RULE
$(FUZZ_DIR)/fuzz-$(1): $(FUZZ_LIBRARIES) Tests/Fuzz/FuzzSupport.swift $(FUZZ_SOURCES_$(1))
	$(SWIFTC) $(FUZZ_SWIFTFLAGS) -package-name FastRouter -use-ld=lld -I $(FUZZ_DIR) Tests/Fuzz/FuzzSupport.swift \
	    $(FUZZ_SOURCES_$(1)) $(FUZZ_LIBRARIES) -lpcre2-8 -o $$@
endef
$(foreach fuzzer,$(FUZZERS),$(eval $(call FUZZ_HARNESS_RULE,$(fuzzer))))

fuzz-build: deps $(addprefix $(FUZZ_DIR)/fuzz-,$(FUZZERS))

fuzz: fuzz-build
	@status=0; for fuzzer in $(FUZZERS); do \
	  Tests/Fuzz/run-fuzzer.sh $(FUZZ_DIR)/fuzz-$$fuzzer $$fuzzer $(FUZZ_SECONDS) $(FUZZ_DIR) || status=1; \
	done; exit $$status

soak-build: deps
	$(SWIFT) build -c release --scratch-path $(SOAK_DIR) --product fastrouter-soak

soak: soak-build
	$(SOAK_DIR)/release/fastrouter-soak --seconds $(SOAK_SECONDS)

# The sanitized builds compile the library and its tests only (the test product, then the
# dynamic library the C programs link): not the benchmark and its dependencies.
SWIFT_TEST_PRODUCT := FastRouterPackageTests

test-asan: deps
	$(SWIFT) build --sanitize=address --scratch-path $(ASAN_DIR) --product $(SWIFT_TEST_PRODUCT)
	$(SWIFT) build --sanitize=address --scratch-path $(ASAN_DIR) --product fastrouter
	FASTROUTER_SANITIZED=1 ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --sanitize=address --scratch-path $(ASAN_DIR)
	@$(call SANITIZED_C,asan,address,$(ASAN_DIR),test_api test_methods test_threads test_catalogue,ASAN_OPTIONS=detect_leaks=0,)

test-tsan: deps
	$(SWIFT) build --sanitize=thread --scratch-path $(TSAN_DIR) --product $(SWIFT_TEST_PRODUCT)
	$(SWIFT) build --sanitize=thread --scratch-path $(TSAN_DIR) --product fastrouter
	@# Every suite but the differential test, not only the concurrency ones: the deep-link, regex
	@# and regression suites start threads and tasks too. The differential test runs on one
	@# thread, where ThreadSanitizer has nothing to check, and it is the longest suite (it runs
	@# plain and under AddressSanitizer).
	FASTROUTER_SANITIZED=1 TSAN_OPTIONS="$(TSAN_RUN_OPTIONS)" $(SWIFT) test --skip-build --sanitize=thread --scratch-path $(TSAN_DIR) --skip DifferentialTests
	@$(call SANITIZED_C,tsan,thread,$(TSAN_DIR),test_threads,TSAN_OPTIONS="$(TSAN_RUN_OPTIONS)",)

test-catalogue: deps
	@$(MAKE) --no-print-directory install PREFIX="$(CURDIR)/build/c/prefix" DESTDIR= > /dev/null
	@mkdir -p build/c
	$(CC) -std=c11 -O1 -g -Wall -Wextra -Werror -pthread Tests/c/test_catalogue.c -o build/c/test_catalogue \
	    $$(PKG_CONFIG_PATH="$(CURDIR)/build/c/prefix/lib/pkgconfig" pkg-config --cflags --libs fastrouter)
	env -i PATH=/usr/local/bin:/usr/bin:/bin build/c/test_catalogue Tests/Fuzz/bad-input-catalogue.txt

# spin is installed when missing (Debian/Ubuntu); Tests/model/check.sh builds in a temporary directory.
model:
	@command -v spin >/dev/null 2>&1 || { echo "installing spin"; \
	  $(AS_ROOT) apt-get update -qq && $(AS_ROOT) apt-get install -y -qq spin; }
	CC="$(CC)" Tests/model/check.sh

test-reliability: fuzz-build test-catalogue model
	@rm -rf $(FUZZ_DIR)/ci
	@status=0; for fuzzer in $(FUZZERS); do \
	  Tests/Fuzz/run-fuzzer.sh $(FUZZ_DIR)/fuzz-$$fuzzer $$fuzzer $(FUZZ_CI_SECONDS) $(FUZZ_DIR)/ci -seed=1 || status=1; \
	done; exit $$status
	@# The soak builds in .build (test-c and test-catalogue build the C library in .build-clib).
	$(SWIFT) build -c release --product fastrouter-soak
	$$($(SWIFT) build -c release --show-bin-path)/fastrouter-soak --seconds $(SOAK_CI_SECONDS) --readers 2
	@$(MAKE) --no-print-directory test-tsan
# --- end reliability section -----------------------------------------------------------------

# The Swift suites run once, under AddressSanitizer (test-asan, which also runs the C programs
# under it); make test-swift runs them without it. docs runs the README's examples (Snippets/)
# and fails on a documentation link that no longer resolves.
test: test-asan test-c test-reliability bench-quick docs test-hummingbird

# --- Hummingbird section ---------------------------------------------------------------------
.PHONY: test-hummingbird http-bench
# FastRouterHummingbird builds only with the package trait `Hummingbird` (docs/HUMMINGBIRD.md), in
# its own scratch path: switching traits in .build would rebuild everything each time.
HB_DIR := $(CURDIR)/.build-hummingbird

test-hummingbird: deps
	$(SWIFT) build --traits Hummingbird --scratch-path $(HB_DIR) --build-tests
	$(SWIFT) test --traits Hummingbird --scratch-path $(HB_DIR) --skip-build --filter FastRouterHummingbirdTests

# wrk (Debian's package) is installed when missing.
http-bench: deps
	@command -v wrk >/dev/null 2>&1 || { echo "installing wrk"; \
	  $(AS_ROOT) apt-get update -qq && $(AS_ROOT) apt-get install -y -qq wrk; }
	examples/hummingbird-server/http-bench.sh
# --- end Hummingbird section -----------------------------------------------------------------

clean:
	rm -rf .build build $(CLIB_DIR) $(FUZZ_DIR) $(ASAN_DIR) $(TSAN_DIR) $(SOAK_DIR) $(HB_DIR) examples/hummingbird-server/.build
