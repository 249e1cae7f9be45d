# FastRouter — build, test, benchmark and install.
#   make test      every test: Swift suites, C ABI programs, examples, a quick benchmark run
#   make bench     the load benchmark on its embedded default suite (release build)
#   make install   libfastrouter.so, include/fastrouter.h and fastrouter.pc under PREFIX
#   make example   builds and runs the C example in examples/c

SHELL := /bin/bash
PREFIX ?= /usr/local
SWIFT ?= swift
CC ?= cc
BUILD_DIR := $(CURDIR)/.build
RELEASE_BIN = $(shell $(SWIFT) build -c release --show-bin-path 2>/dev/null)

.PHONY: all deps build release test test-swift test-c bench install example clean

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

test-swift: deps
	$(SWIFT) test

# --- C ABI section ---------------------------------------------------------------------------
test-c: deps
	@echo "C tests: not wired yet"

install: release
	@echo "install: not wired yet"

example: release
	@echo "example: not wired yet"
# --- end C ABI section -----------------------------------------------------------------------

# --- benchmark section -----------------------------------------------------------------------
bench: release
	@echo "the benchmark is not built yet"
# --- end benchmark section -------------------------------------------------------------------

test: test-swift test-c

clean:
	rm -rf .build build
