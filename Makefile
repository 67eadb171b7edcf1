# numgpu: build, test, demo, install.
#
#   make deps            check system packages and the NVRTC wheel; install what is missing
#                        (root + apt-get, pip), else print the command to run and stop
#   make test            (default, and what .ci/run calls) the whole test suite, NVRTC required;
#                        says at the end which tests were skipped (CUDA ones, without a GPU)
#   make demo            the tour: every entry point once, checked and timed
#   make bench           numgpu-bench, results into docs/bench/
#   make header          regenerate include/numgpu.h (cbindgen) and include/numgpu.f90 (from
#                        the header and the templates of fortran/), c-tests/hostile_calls.h and
#                        python/numgpu/_signatures.py (the Python module's C signatures)
#   make build           release build of the library (target/release/libnumgpu.{so,a})
#   make install         PREFIX=/usr/local (default) [DESTDIR=]: library, header, Fortran module,
#                        pkg-config and CMake package files
#   make install-check   install into a temporary prefix and build and run a C program against
#                        it through pkg-config and through CMake (installs cmake if missing);
#                        then pip install ./python into a temporary venv and import it there
#   make uninstall       remove what `make install` put under PREFIX
#   make bundle          scripts/gpu-bundle.sh: everything a GPU host needs, in .gpu-bundle/
#   make clippy          cargo clippy on every target, warnings as errors
#   make clean           cargo clean, the bundle and the MPI kit
#
# TEST_PROFILE=release runs the tests on a release build. Default: debug. Measured from
# `cargo clean` on a 2-core machine: make test took 2m09 in debug, 2m50 in release; the NVRTC
# kernel compile check takes 40-50 s either way, and the rest of the tests run in seconds.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := test
.DELETE_ON_ERROR:

CARGO ?= cargo
PREFIX ?= /usr/local
DESTDIR ?=
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
# GNU make's built-in FC default is f77; we want gfortran unless the caller named another.
ifeq ($(origin FC),default)
FC := gfortran
endif
TEST_PROFILE ?= debug
export TEST_PROFILE

# The package version, read from Cargo.toml's [package] table (never typed here).
VERSION := $(shell awk -F'"' '/^\[/ { p = ($$0 == "[package]") } p && /^version[ \t]*=/ { print $$2; exit }' Cargo.toml)
MAJOR := $(word 1,$(subst ., ,$(VERSION)))
MINOR := $(word 2,$(subst ., ,$(VERSION)))
ifeq ($(VERSION),)
$(error could not read the package version from Cargo.toml)
endif

SONAME := libnumgpu.so.$(MAJOR)
REAL_SO := libnumgpu.so.$(VERSION)
FORTRAN_MODULE := include/numgpu.f90

SUBST = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	-e 's|@MAJOR@|$(MAJOR)|g' -e 's|@MINOR@|$(MINOR)|g' \
	-e "s|@FC_VERSION@|$$($(FC) -dumpfullversion 2>/dev/null || echo unknown)|g"

.PHONY: deps test demo bench header build install install-check uninstall bundle clippy clean help

help:
	@sed -n '1,/^$$/p' Makefile | sed 's/^# \{0,1\}//'

deps:
	@scripts/deps.sh

test: deps
	@scripts/test.sh

demo: deps
	@NVRTC_DIR="$$(scripts/deps.sh --nvrtc-dir)"; \
	export LD_LIBRARY_PATH="$${NVRTC_DIR:+$$NVRTC_DIR:}$${LD_LIBRARY_PATH:-}"; \
	$(CARGO) run --release --features testing --bin numgpu-tour

bench: deps
	@NVRTC_DIR="$$(scripts/deps.sh --nvrtc-dir)"; \
	export LD_LIBRARY_PATH="$${NVRTC_DIR:+$$NVRTC_DIR:}$${LD_LIBRARY_PATH:-}"; \
	$(CARGO) run --release --features bench --bin numgpu-bench -- --out docs/bench

header:
	NUMGPU_UPDATE_HEADER=1 $(CARGO) test --test integration header::
	@git diff --stat -- include/numgpu.h include/numgpu.f90 c-tests/hostile_calls.h python/numgpu/_signatures.py || true

build: deps
	$(CARGO) build --release --lib

# Installed layout (all under $(DESTDIR)$(PREFIX)):
#   lib/libnumgpu.so.$(VERSION), with symlinks lib/$(SONAME) (the SONAME) and lib/libnumgpu.so
#   lib/libnumgpu.a
#   include/numgpu.h
#   include/numgpu.f90      the Fortran module's source
#   include/numgpu.mod      the compiled module (gfortran -J include/: found with the same -I as
#                           the C header; .mod files are specific to the gfortran version)
#   lib/libnumgpu_fortran.a the module's object code (its wrapper procedures), for `use numgpu`
#   lib/pkgconfig/numgpu.pc, lib/pkgconfig/numgpu-fortran.pc
#   lib/cmake/numgpu/numgpuConfig.cmake, numgpuConfigVersion.cmake (numgpu::numgpu,
#                           numgpu::numgpu_static, numgpu::fortran)
install: build
	@echo "installing numgpu $(VERSION) into $(DESTDIR)$(PREFIX)"
	install -d "$(DESTDIR)$(LIBDIR)/pkgconfig" "$(DESTDIR)$(LIBDIR)/cmake/numgpu" "$(DESTDIR)$(INCLUDEDIR)"
	install -m 755 target/release/libnumgpu.so "$(DESTDIR)$(LIBDIR)/$(REAL_SO)"
	ln -sfn "$(REAL_SO)" "$(DESTDIR)$(LIBDIR)/$(SONAME)"
	ln -sfn "$(SONAME)" "$(DESTDIR)$(LIBDIR)/libnumgpu.so"
	install -m 644 target/release/libnumgpu.a "$(DESTDIR)$(LIBDIR)/libnumgpu.a"
	install -m 644 include/numgpu.h "$(DESTDIR)$(INCLUDEDIR)/numgpu.h"
	@if [[ -f $(FORTRAN_MODULE) ]]; then \
		set -x; \
		install -m 644 $(FORTRAN_MODULE) "$(DESTDIR)$(INCLUDEDIR)/numgpu.f90"; \
		tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
		$(FC) -O2 -fPIC -c $(FORTRAN_MODULE) -J "$$tmp" -o "$$tmp/numgpu_fortran.o"; \
		install -m 644 "$$tmp/numgpu.mod" "$(DESTDIR)$(INCLUDEDIR)/numgpu.mod"; \
		rm -f "$(DESTDIR)$(LIBDIR)/libnumgpu_fortran.a"; \
		ar rcs "$(DESTDIR)$(LIBDIR)/libnumgpu_fortran.a" "$$tmp/numgpu_fortran.o"; \
		$(SUBST) packaging/numgpu-fortran.pc.in > "$(DESTDIR)$(LIBDIR)/pkgconfig/numgpu-fortran.pc"; \
	else \
		echo "warning: $(FORTRAN_MODULE) does not exist yet: no Fortran module installed" >&2; \
	fi
	$(SUBST) packaging/numgpu.pc.in > "$(DESTDIR)$(LIBDIR)/pkgconfig/numgpu.pc"
	$(SUBST) packaging/numgpuConfig.cmake.in > "$(DESTDIR)$(LIBDIR)/cmake/numgpu/numgpuConfig.cmake"
	$(SUBST) packaging/numgpuConfigVersion.cmake.in > "$(DESTDIR)$(LIBDIR)/cmake/numgpu/numgpuConfigVersion.cmake"
	@[[ -n "$(DESTDIR)" || $$(id -u) -ne 0 ]] || ! command -v ldconfig >/dev/null || ldconfig || true

uninstall:
	rm -f "$(DESTDIR)$(LIBDIR)/$(REAL_SO)" "$(DESTDIR)$(LIBDIR)/$(SONAME)" "$(DESTDIR)$(LIBDIR)/libnumgpu.so" \
		"$(DESTDIR)$(LIBDIR)/libnumgpu.a" "$(DESTDIR)$(LIBDIR)/libnumgpu_fortran.a" \
		"$(DESTDIR)$(INCLUDEDIR)/numgpu.h" "$(DESTDIR)$(INCLUDEDIR)/numgpu.f90" "$(DESTDIR)$(INCLUDEDIR)/numgpu.mod" \
		"$(DESTDIR)$(LIBDIR)/pkgconfig/numgpu.pc" "$(DESTDIR)$(LIBDIR)/pkgconfig/numgpu-fortran.pc"
	rm -rf "$(DESTDIR)$(LIBDIR)/cmake/numgpu"

install-check:
	@scripts/deps.sh --cmake
	@prefix="$$(mktemp -d /tmp/numgpu-prefix.XXXXXX)"; trap 'rm -rf "$$prefix"' EXIT; \
	scripts/install-check.sh "$$prefix"; \
	python/install-check.sh "$$prefix"

bundle:
	scripts/gpu-bundle.sh

clippy:
	$(CARGO) clippy --all-targets -- -D warnings

clean:
	$(CARGO) clean
	rm -rf .gpu-bundle gpu-out .mpi-kit
