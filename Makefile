# pokedexd: the two commands a user needs are `make install` and `make test`.
# DEB=1: the Debian package's layout (debian/rules, Tests/end-to-end/package), where Debian's zsh reads
# vendor completions.
ifneq ($(DEB),)
override PREFIX     := /usr
override ZSHCOMPDIR := /usr/share/zsh/vendor-completions
endif
PREFIX      ?= $(HOME)/.local
DESTDIR     ?=
BINDIR      ?= $(PREFIX)/bin
DATADIR     ?= $(PREFIX)/share
# Programs the installed ones run, not a user (systemd/render).
LIBEXECDIR  ?= $(PREFIX)/libexec
MANDIR      ?= $(DATADIR)/man
# User units go where the user manager looks for them under this prefix.
# subst, not filter: a HOME with a space or a % in it is one word to compare, not a pattern.
USERUNITDIR ?= $(if $(subst $(HOME)/.local,,$(PREFIX)),$(PREFIX)/lib/systemd/user,$(HOME)/.config/systemd/user)
DBUSSERVICEDIR   ?= $(DATADIR)/dbus-1/services
DBUSINTERFACEDIR ?= $(DATADIR)/dbus-1/interfaces
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR  ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
EXAMPLESDIR ?= $(DATADIR)/doc/pokedexd/examples
APPLICATIONSDIR ?= $(DATADIR)/applications
# GNOME Shell reads search providers from the system data directories only (PREFIX=/usr or
# /usr/local); KRunner reads its D-Bus plugins from every data directory, ~/.local/share too.
SEARCHPROVIDERDIR ?= $(DATADIR)/gnome-shell/search-providers
KRUNNERDIR ?= $(DATADIR)/krunner/dbusplugins
ICONDIR ?= $(DATADIR)/icons/hicolor

SWIFT       ?= swift
# Where the Swift compiles SwiftPM gives no module cache of its own (the manifests, the
# ChangelogVersion plugin) keep Clang's modules: in the build, not in $XDG_CACHE_HOME/clang.
# LLVM names its lock and temporary files from a pattern in which every % is a random digit, a
# % in the folder's name included: with XDG_CACHE_HOME="~/100% cache" none could be made, and
# the plugin's build stopped ("build planning stopped due to build-tool plugin failures").
export CLANG_MODULE_CACHE_PATH ?= $(CURDIR)/.build/clang-module-cache
RELEASE_DIR  = .build/release
LOCALEDIR   ?= $(DATADIR)/locale
# The programs' own words: po/LANG.po (tools/update-po), built into .build/locale by msgfmt.
LANGUAGES    = $(basename $(notdir $(wildcard po/*.po)))
CATALOGUES   = $(foreach l,$(LANGUAGES),.build/locale/$(l)/LC_MESSAGES/pokedexd.mo)
# The app entry and KRunner's plugin, their Name, GenericName, Comment and Keywords in every
# language of po/ (msgfmt --desktop, from desktop/*.desktop.in).
DESKTOP_FILES = .build/desktop/io.github.pokedexd.Pokedex1.desktop .build/desktop/io.github.pokedexd.Pokedex1-krunner.desktop
# Debian packages the build and the service need (make release, make install, make deb).
BUILD_PACKAGES = libsystemd-dev libcurl4-openssl-dev libssl-dev libpng-dev zlib1g-dev libdeflate-dev libseccomp-dev pkgconf gettext dpkg-dev
# And what the tests need besides (make test).
DEB_PACKAGES = libsystemd-dev libcurl4-openssl-dev libssl-dev libpng-dev zlib1g-dev libdeflate-dev pkgconf gettext dpkg-dev locales dbus dbus-user-session systemd python3 python3-dbus python3-gi curl jq groff-base man-db bsdextrautils openssl nginx-light iproute2 tmux desktop-file-utils libglib2.0-bin breeze-icon-theme adwaita-icon-theme neofetch wamerican wngerman unicode-data libseccomp-dev gcc git passwd util-linux procps pulseaudio pulseaudio-utils vorbis-tools

.PHONY: bench-tools release-objects-flags test-function-order vendor dsc test-package-build check \
  check-unit build-tests test-unit-xctest test-unit-properties test-desktop-user-beside \
  test-e2e docs test-docs test-mock all build release catalogues locales deps deps-build \
  deps-package check-build-deps deb test-package install-files install-list test test-unit \
  test-integration test-examples test-browse test-sound test-soak test-leaks test-names \
  test-words test-graphics test-desktop-search test-desktop-shells test-widgets test-session \
  test-desktop-user check-sanitizers check-asan check-tsan check-generated install uninstall \
  clean

all: build

# The packages of a list that dpkg has not installed, each after a space (a shell command).
missing_packages = for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || printf ' %s' $$p; \
	done

## deps: install the Debian packages the build and the tests need that are missing (apt-get;
## sudo when not root). deps-build: only those the build needs. Nothing else installs packages
## but `make install`, `make deb` and the opt-in tests that name their own.
deps-build:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(BUILD_PACKAGES)"

deps:
	@missing=$$($(call missing_packages,$(DEB_PACKAGES))); \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(APT_FLAGS) $$missing; \
	fi

# What `make deb` needs besides the build's: Debian's packaging tools. `make test-package`
# adds lintian and licensecheck, and debootstrap for the clean Debian 12 root the package is tried in.
PACKAGE_PACKAGES = $(BUILD_PACKAGES) debhelper dpkg-dev
PACKAGE_TEST_PACKAGES = lintian licensecheck debootstrap binutils

## deps-package: the build's and the packaging tools (apt-get; sudo when not root).
deps-package:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(PACKAGE_PACKAGES)"

# A build installs nothing: where a package it needs is missing, it says so and stops (on a
# system without dpkg, the compiler will tell).
check-build-deps:
	@command -v dpkg-query >/dev/null || exit 0; missing=$$($(call missing_packages,$(BUILD_PACKAGES))); \
	if [ -n "$$missing" ]; then \
	  echo "missing Debian packages the build needs:$$missing; run 'make deps' (or 'make deps-build': the build's alone)" >&2; \
	  exit 1; \
	fi

build: check-build-deps
	$(SWIFT) build

# The release build, one for make install, make deb and the tests: the pokedexd binary, which
# is pokectl too when started by that name (Sources/pokedexd/MultiCall.swift).
# - A static Swift runtime: pokectl starts in about the time busctl does (bench/pokectl-startup.sh),
#   and the package needs no Swift on the system. It is shipped once, in the one binary; libcurl
#   is loaded only when that binary is the service (Sources/CCurlShims/curl_library.c).
# - Bound at start (-z now, with RELRO; both from dpkg-buildflags' LDFLAGS, below): the GOT is
#   read-only once running. Linked by the toolchain's lld: GNU ld 2.44 and later (Debian 13, sid)
#   make no RELRO segment once Swift's objects put writable data in sections named .rodata.
# - Relative relocations packed (-z pack-relative-relocs, DT_RELR; glibc 2.36, Debian 12): the
#   46,000 pointers Swift's metadata holds took 1.1 MB of .rela.dyn, read at every start and
#   resident with the pages around it; packed, 10 KB. A sync's peak RSS: 42,700 -> 40,800 KiB.
# - The code the service runs laid out together (tools/function-order says why and how it is
#   recorded): each function in a section of its own, and the sections in the order of
#   tools/pokedexd.order. A sync's peak RSS: 41,300 -> 37,400 KiB. Swift skips the code generation
#   of a module whose IR is unchanged (.swift_modhash), whatever the flags: a tree built before
#   these flags gets them once its release objects are deleted (release-objects-flags, below).
# - No symbol exported (SwiftPM links executables with --export-dynamic, for tests that link
#   them; none does): nothing is loaded by name, and --gc-sections may drop what none calls.
# - Hardened as Debian builds (dpkg-buildflags, from dpkg-dev, with hardening=+all): CPPFLAGS
#   and CFLAGS reach the C shims (POKEDEX_CFLAGS, which Package.swift gives the C targets alone;
#   SwiftPM reads no CFLAGS, and its -Xcc reaches Swift's Clang importer too), LDFLAGS' -Wl,
#   options the link.
# - Reproducible: the tree is "." in debug info and #file wherever it is built (CFLAGS'
#   -ffile-prefix-map for C, -file-prefix-map for Swift), the debug info names no Clang module
#   cache (its folder is a hash of the build's absolute paths); the installed copy's module
#   hashes are zeroed and its build-id set anew (tools/elf-normalize says why). A build-id
#   always (Debian 13's Swift gives lld none): the debug symbols' package is named by it.
comma := ,
buildflags = $(shell DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get $(1) 2>/dev/null)
RELEASE_CFLAGS  := $(call buildflags,CPPFLAGS) $(call buildflags,CFLAGS)
# (Without dpkg-buildflags, a system that is not Debian, RELRO and -z now still.)
RELEASE_LDFLAGS := $(or $(subst $(comma), ,$(patsubst -Wl$(comma)%,%,$(filter -Wl$(comma)%,$(call buildflags,LDFLAGS)))),-z relro -z now)
# SwiftPM names the build plugins' output folder after the package's folder (.build/plugins/
# outputs/FOLDER/…: ChangelogVersion's generated source), and the debug info names that source:
# the same file wherever the tree is unpacked (pokedexd-VERSION, as dpkg-source -x makes it, or a
# clone's name), so the build ID, computed over the whole file, is too. The first map that fits
# a path applies: these before the tree's own.
PLUGIN_OUTPUTS = .build/plugins/outputs/$(shell basename "$(CURDIR)" | tr A-Z a-z)
PLUGIN_OUTPUTS_MAP = -Xswiftc -file-prefix-map -Xswiftc $(CURDIR)/$(PLUGIN_OUTPUTS)=./.build/plugins/outputs/pokedexd \
	-Xswiftc -file-prefix-map -Xswiftc $(PLUGIN_OUTPUTS)=.build/plugins/outputs/pokedexd
RELEASE_FLAGS = -c release --static-swift-stdlib -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld \
	-Xlinker --no-export-dynamic -Xlinker --build-id=sha1 -Xlinker -z -Xlinker pack-relative-relocs \
	$(foreach f,$(RELEASE_LDFLAGS),-Xlinker $(f)) $(PLUGIN_OUTPUTS_MAP) -Xswiftc -file-prefix-map -Xswiftc $(CURDIR)=. \
	-Xswiftc -Xfrontend -Xswiftc -no-clang-module-breadcrumbs -Xswiftc -Xfrontend -Xswiftc -function-sections \
	-Xlinker --symbol-ordering-file=$(CURDIR)/tools/pokedexd.order -Xlinker --no-warn-symbol-ordering
# Swift writes a macro's expansion to $TMPDIR/swift-generated-sources and names it there in the
# debug info: inside the tree, the name is "./.build/tmp/…" wherever and by whomever the tree is
# built (under /tmp it was "/tmp/…", or a bare name where another user had made that folder
# first: two Debian builds in one root differed by it).
RELEASE_TMPDIR = $(CURDIR)/.build/tmp
RELEASE_SWIFT = mkdir -p "$(RELEASE_TMPDIR)" && TMPDIR="$(RELEASE_TMPDIR)" POKEDEX_CFLAGS="$(strip $(RELEASE_CFLAGS))" $(SWIFT) build $(RELEASE_FLAGS)
# release-objects-flags: the release objects deleted when the flags they were built with were
# others (.build/release-flags), so that new code generation flags reach them.
RELEASE_STAMP = $(RELEASE_FLAGS) TMPDIR=$(RELEASE_TMPDIR)
release: check-build-deps catalogues release-objects-flags
	$(RELEASE_SWIFT) --product pokedexd

release-objects-flags:
	@mkdir -p .build; if [ "$$(cat .build/release-flags 2>/dev/null)" != '$(RELEASE_STAMP)' ]; then \
	  find .build -path '*/release/*' -name '*.o' -delete; printf '%s' '$(RELEASE_STAMP)' > .build/release-flags; fi

# The benchmarks' own programs (bench/), with the same flags, so building them rebuilds nothing
# of the release build.
bench-tools: check-build-deps release-objects-flags
	$(RELEASE_SWIFT) --product pokedex-bench
	$(RELEASE_SWIFT) --product pokedex-graphics-fidelity

## locales: the locales the tests read pokectl in (German, Japanese), generated where missing.
TEST_LOCALES = de_DE ja_JP
locales:
	@for l in $(TEST_LOCALES); do \
	  locale -a 2>/dev/null | grep -qix "$$l.utf8" || { echo "generating $$l.UTF-8"; \
	    if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; $$SUDO localedef -i $$l -f UTF-8 $$l.UTF-8 || exit 1; }; \
	done

## catalogues: po/*.po checked and built into .build/locale (msgfmt -c), and the desktop
## entries translated from them into .build/desktop (msgfmt --desktop). A pokedexd run from the
## build tree finds them as an installed one does, beside its binary (BIN/../share/locale): the
## service's own words in a caller's language (a family's conditions in LocalizedDetail).
BUILD_SHARE = .build/$(shell uname -m)-unknown-linux-gnu/share
catalogues: $(CATALOGUES) $(DESKTOP_FILES)
	@mkdir -p $(BUILD_SHARE) && ln -sfn ../../locale $(BUILD_SHARE)/locale
# The same catalogues beside another build's binaries (the sanitizers' .build-asan, .build-tsan).
share_catalogues = mkdir -p $(1)/$(shell uname -m)-unknown-linux-gnu/share && ln -sfn ../../../.build/locale $(1)/$(shell uname -m)-unknown-linux-gnu/share/locale
.build/locale/%/LC_MESSAGES/pokedexd.mo: po/%.po
	@mkdir -p $(dir $@)
	msgfmt -c -o $@ $<
.build/desktop/%.desktop: desktop/%.desktop.in po/LINGUAS $(wildcard po/*.po)
	@mkdir -p $(dir $@)
	msgfmt --desktop --template=$< -d po -o $@

## check-generated: every generated table and the mock's data regenerated into a temporary
## directory and compared with the committed ones (tools/check-generated): Unicode's from
## Debian's unicode-data; PokeAPI's only with POKEAPI_DUMP=DIR_OR_api-data.tar.xz, not in the repo.
## The README's and pokedexd(1)'s sections made from the contract and the options' table
## (tools/pokedex-docs) are checked too; `make docs` writes them. So is po/pokedexd.pot, against
## the messages of the sources (tools/update-po --check).
check-generated: check-build-deps
	POKEAPI_DUMP="$(POKEAPI_DUMP)" python3 tools/check-generated
	tools/update-po --check
	$(SWIFT) build --product pokedex-docs
	$(SWIFT) build --product pokectl
	LC_ALL=C .build/debug/pokectl --experimental-dump-help > .build/pokectl-help.json
	.build/debug/pokedex-docs --check --pokectl-help .build/pokectl-help.json .

## docs: write the generated sections of README.md and man/pokedexd.1 (between their
## "generated: NAME" marker lines) from the contract and the options' table.
docs: check-build-deps
	$(SWIFT) build --product pokedex-docs
	$(SWIFT) build --product pokectl
	LC_ALL=C .build/debug/pokectl --experimental-dump-help > .build/pokectl-help.json
	.build/debug/pokedex-docs --pokectl-help .build/pokectl-help.json .

## test: every test, tier by tier (Tests/README.md): the generated files, the unit tier, the
## integration tier, the end-to-end tier, then the sanitizers. tools/test-steps runs them in
## turn, keeps each one's output in .build/test-logs and ends with what each cost, the tests
## each suite ran, and the 20 slowest tests.
TEST_STEPS = check-generated test-unit test-integration test-e2e check-sanitizers
test: deps
	@python3 tools/test-steps run $(TEST_STEPS)

# Each test run goes through Tests/support/lib/run-tests: one that writes nothing for so many seconds (an
# XCTest hang between two tests, swift-corelibs-xctest#504) is stopped and run once more. The
# limits are well above the longest quiet stretch of a sound run.
RUN_TESTS = bash Tests/support/lib/run-tests
# The XCTest targets of the unit tier: no daemon of their own (the bus server's and libcurl's
# start theirs in process, on a private bus and a local HTTP server).
UNIT_TESTS = PokedexNetworkTests|PokedexCurlTests|PokedexEventLoopTests|PokedexCoreTests|PokedexTerminalTests|PokedexProtocolTests|PokedexBusServerTests|PokedexBusClientTests|PokedexWidgetsTests|PokectlKitTests

# The one debug build every tier uses: the test bundle with pokedexd and pokectl beside it.
build-tests: check-build-deps
	$(SWIFT) build --build-tests

## test-unit: the unit tier: the XCTest targets above, the property tests (Swift Testing,
## x-sheep/swift-property-based: browse's model and view, the input decoder, the terminal's
## answers, search queries, names, paging, SpriteArt and the sanitiser, each its own number of
## random cases up to 10,000, PropertyCounts.swift; PROPERTY_CASES=N caps them) and the mock's
## answers, byte for byte, against Tests/support/mockapi/mock-golden.txt.
PROPERTY_CASES ?=
test-unit: build-tests catalogues locales
	$(MAKE) --no-print-directory -j2 --output-sync=target test-unit-xctest test-unit-properties
	@$(MAKE) --no-print-directory test-mock

# Debian's swiftlang 6.2 ships Swift Testing's overlay for Foundation as a module
# (_Testing_Foundation.swiftmodule) without its library, and the test runner SwiftPM 6.2 generates
# imports both, so the test bundle's link asked for -l_Testing_Foundation and failed in sid.
# No test uses the overlay: it is not loaded.
NO_CROSS_IMPORT_OVERLAYS = -Xswiftc -Xfrontend -Xswiftc -disable-cross-import-overlays
## test-unit-offline: the unit tier as the Debian build runs it (debian/rules, unless
## DEB_BUILD_OPTIONS has nocheck): the XCTest targets and the mock's answers, with no network,
## no root and no locale generated. The property tests are left out: their package
## (swift-property-based) is not vendored, so the vendored build has no such target.
test-unit-offline: check-build-deps catalogues
	$(SWIFT) build --build-tests --disable-swift-testing $(NO_CROSS_IMPORT_OVERLAYS)
	$(RUN_TESTS) 120 $(SWIFT) test --skip-build --disable-swift-testing --filter '$(UNIT_TESTS)'
	@$(MAKE) --no-print-directory test-mock

# The two halves of the unit tier run side by side: the XCTest targets are one serial process,
# and the property tests leave a core idle while their longest ones finish.
test-unit-xctest:
	$(RUN_TESTS) 120 $(SWIFT) test --skip-build --disable-swift-testing --filter '$(UNIT_TESTS)'

test-unit-properties:
	$(if $(PROPERTY_CASES),POKEDEX_PROPERTY_CASES=$(PROPERTY_CASES)) $(RUN_TESTS) 600 $(SWIFT) test --skip-build --disable-xctest --filter PokedexPropertyTests

## test-integration: the integration tier: pokedexd on a private bus against the mock PokeAPI,
## driven by its clients. Each test has its own bus, mock and daemon, so they run two at a time
## (INTEGRATION_WORKERS), each in a process of its own; the daemons' retry schedules run at a
## hundredth (POKEDEX_TEST_SCHEDULE_SCALE, Harness.swift).
INTEGRATION_WORKERS ?= 2
INTEGRATION_FILTER ?= PokedexIntegrationTests
test-integration: build-tests catalogues locales
	@mkdir -p .build/test-logs
	$(RUN_TESTS) 600 $(SWIFT) test --skip-build --disable-swift-testing --parallel --num-workers $(INTEGRATION_WORKERS) \
	  --xunit-output .build/test-logs/integration.xml --filter '$(INTEGRATION_FILTER)'

## test-e2e: the end-to-end tier: the shell suites that drive the real pokectl and pokedexd as a
## person and a script do (each on a private bus of its own, so two at a time), beside them the
## real users' installs at the lowest CPU priority, then the ones that need the machine to
## themselves: the systemd session and the Debian package.
E2E_SUITES = test-examples test-docs test-browse test-sound test-soak test-leaks test-names test-words test-graphics test-desktop-search test-function-order
E2E_SYSTEM = test-session test-package
test-e2e: build-tests catalogues locales release
	$(MAKE) --no-print-directory -j3 --output-sync=target test-desktop-user-beside $(E2E_SUITES)
	$(MAKE) --no-print-directory $(E2E_SYSTEM)

# The real users' installs build the release twice, about 190 s of both cores, and otherwise
# wait on systemd: at nice 19 beside the suites they take the CPU the suites leave idle, and
# slow the suites' own waits by nothing they would notice.
test-desktop-user-beside:
	nice -n 19 bash Tests/end-to-end/desktop-user/desktop-user-test.sh

## check: the fast tier, for each change (under 4 minutes on two cores from a warm build): what
## `make test` installs, the generated files, the unit tier with at most CHECK_PROPERTY_CASES
## random cases per property, and the integration tier.
CHECK_PROPERTY_CASES = 100
check: deps
	@python3 tools/test-steps run check-generated check-unit test-integration

check-unit:
	@$(MAKE) --no-print-directory test-unit PROPERTY_CASES=$(CHECK_PROPERTY_CASES)

# The sanitizers, where each finds things:
# - ThreadSanitizer over the unit tests of the targets with threads of their own (the core, the
#   event loop, the bus server, the network and libcurl's client), then a short run of the daemon
#   under it (SANITIZER_SMOKE: calls from many clients, deadlines, callers leaving, a sync);
# - AddressSanitizer and UndefinedBehaviorSanitizer in one build, over every unit test (the C
#   shims: PNG, terminal, curl, sd-bus) and the daemon's smoke run with the hostile inputs (fuzzed
#   calls, oversized arguments).
# The harness fails a test whose daemon log holds a sanitizer report; RSS limits are off there
# (ASan's quarantine holds freed memory on purpose). Leak checking is off: the curl multi handle,
# the sd-bus connections and the sd-event loop live until exit by design, and XCTest's own
# allocations would be reported too.
SANITIZER_ENV = POKEDEX_SANITIZER=1 POKEDEX_STORM_ROUNDS=25 POKEDEX_FUZZ_CALLS=2000 POKEDEX_FLOOD_CALLS=100
TSAN_UNIT = PokedexCoreTests|PokedexEventLoopTests|PokedexBusServerTests|PokedexNetworkTests|PokedexCurlTests
# ServiceManagerTests forks the notify relay from the test process; under ThreadSanitizer a later
# test then hung now and then (1 run in 2; none in 6 without it). The relay runs under
# AddressSanitizer, in the plain unit tier, and in every daemon the other tiers start.
TSAN_SKIP = ServiceManagerTests
SANITIZER_SMOKE = PokedexIntegrationTests.(BusAPITests|CallLifecycleTests|FloodTests|SyncOverTimeTests|LifecycleTests)
ASAN_SMOKE = PokedexIntegrationTests.(BusAPITests|FuzzTests|OversizeArgumentTests|HostileServerTests)
check-sanitizers: check-asan check-tsan

# Swift has no UndefinedBehaviorSanitizer of its own on Linux (its traps are its checks): clang's
# is compiled into the C shims and linked beside AddressSanitizer.
ASAN_FLAGS = --sanitize=address -Xcc -fsanitize=undefined -Xswiftc -Xclang-linker -Xswiftc -fsanitize=undefined

check-asan: check-build-deps catalogues locales
	$(SWIFT) build --build-tests $(ASAN_FLAGS) --build-path .build-asan
	@$(call share_catalogues,.build-asan)
	POKEDEX_SANITIZER=1 ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 $(RUN_TESTS) 300 $(SWIFT) test --skip-build \
	  $(ASAN_FLAGS) --build-path .build-asan --disable-swift-testing --filter '$(UNIT_TESTS)'
	$(SANITIZER_ENV) ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 $(RUN_TESTS) 900 $(SWIFT) test \
	  --skip-build $(ASAN_FLAGS) --build-path .build-asan --disable-swift-testing --parallel --num-workers 2 \
	  --xunit-output .build/test-logs/asan-smoke.xml --filter '$(ASAN_SMOKE)'

# Synchronization's Mutex is a raw futex ThreadSanitizer cannot see: every access under it would
# be reported as a race, now and then (PokedexLocks/Mutex.swift says more).
check-tsan: check-build-deps catalogues locales
	@for f in $$(grep -rl --include='*.swift' '^import Synchronization' Sources Tests); do \
	  if grep -q 'Mutex' "$$f" && ! grep -q '^import PokedexLocks' "$$f"; then \
	    echo "$$f: Synchronization's Mutex, which ThreadSanitizer cannot see; use PokedexLocks.Mutex"; exit 1; fi; done
	$(SWIFT) build --build-tests --sanitize=thread --build-path .build-tsan
	@$(call share_catalogues,.build-tsan)
	POKEDEX_SANITIZER=1 TSAN_OPTIONS=halt_on_error=1 $(RUN_TESTS) 300 $(SWIFT) test --skip-build --sanitize=thread \
	  --build-path .build-tsan --disable-swift-testing --filter '$(TSAN_UNIT)' --skip '$(TSAN_SKIP)'
	$(SANITIZER_ENV) TSAN_OPTIONS=halt_on_error=0 $(RUN_TESTS) 900 $(SWIFT) test --skip-build --sanitize=thread \
	  --build-path .build-tsan --disable-swift-testing --parallel --num-workers 2 \
	  --xunit-output .build/test-logs/tsan-smoke.xml --filter '$(SANITIZER_SMOKE)'

# Every script in examples/, pokectl watch, and the man pages, against the real service.
test-examples: check-build-deps catalogues
	$(SWIFT) build
	bash Tests/end-to-end/examples/examples-test.sh

## test-docs: every command, option, exit status, error name, JSON shape and D-Bus member the
## README, the man pages and each --help show, tried against the service (Tests/end-to-end/docs).
test-docs: check-build-deps catalogues
	$(SWIFT) build
	bash Tests/end-to-end/docs/docs-test.sh

# pokectl browse through tmux: keys, resize, search, detail, favorites, and the terminal restored.
## test-sound: the cries heard: played into a PulseAudio null sink of the test's own and
## recorded from its monitor (pokectl cry, and browse with the sound on, then off).
test-sound: check-build-deps
	$(SWIFT) build
	bash Tests/end-to-end/sound/cry-test.sh

# The mock's answers to every route and fault, byte for byte, against Tests/support/mockapi/mock-golden.txt
# (part of the unit tier).
test-mock:
	python3 Tests/support/mockapi/mock_test.py

test-browse: check-build-deps
	$(SWIFT) build
	$(MAKE) --no-print-directory catalogues
	desktop-file-validate $(DESKTOP_FILES)
	bash Tests/end-to-end/browse/browse-test.sh
	bash Tests/end-to-end/browse/signals-test.sh

# pokectl browse in a pty against the real service: random keys, mouse reports and resizes from
# 20 fixed seeds, 2,000 keys each; never dies, q exits 0 with stty -g unchanged (bench/soak: longer).
test-soak: check-build-deps
	$(SWIFT) build
	bash Tests/end-to-end/soak/soak-test.sh

# Every word pokectl prints through the catalogues (a pseudo-language made from the .pot), and
# no English in a German session, over every command, its errors and its help.
test-words: check-build-deps catalogues locales
	$(SWIFT) build
	bash Tests/end-to-end/words/words-test.sh

# Names as people type them ("Nidoran♀", "nidoran" with its candidates) through pokectl and
# busctl, and pages past the end for any Int.
# What each member keeps per call, on the release build (make release first: test-e2e does).
test-leaks: check-build-deps
	bash Tests/end-to-end/leaks/leaks-test.sh

test-names: check-build-deps
	$(SWIFT) build
	bash Tests/end-to-end/names/names-test.sh

# Real pixels: pokectl on a pty that answers as kitty, as a sixel terminal or not at all; the
# pictures decoded back and compared with the sprite; tmux's passthrough.
test-graphics: check-build-deps
	$(SWIFT) build
	bash Tests/end-to-end/graphics/graphics-test.sh

## test-desktop-shells: the real GNOME Shell 43 and KRunner (Plasma 5.27) on Xvfb, typing into
## them and activating a result; screenshots into docs/screenshots. Opt-in, not in `make test`:
## it installs Debian's gnome-shell and plasma-workspace (about 1 GB, no recommends).
SHELL_TEST_PACKAGES = gnome-shell plasma-workspace xvfb xdotool xclip xterm imagemagick dbus-bin libglib2.0-bin jq fontconfig fonts-vlgothic locales nginx-light curl
## test-function-order: the release binary's code laid out as tools/pokedexd.order lists it,
## and the list not stale (tools/function-order check).
test-function-order: release
	tools/function-order check

test-desktop-shells: release
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(SHELL_TEST_PACKAGES)" APT_FLAGS=--no-install-recommends
	@$(MAKE) --no-print-directory locales
	BUILD_DIR=$(CURDIR)/$(RELEASE_DIR) bash Tests/end-to-end/desktop-shells/desktop-shells-test.sh

## test-widgets: the examples in the real hosts, Waybar in a headless sway, Polybar and conky on
## Xvfb, over a service restart, its idle exit, an API outage, 31 favorites and five restarts of
## each bar, as a `useradd -m` user; screenshots into docs/screenshots. Opt-in, not in `make test`.
WIDGET_TEST_PACKAGES = waybar sway polybar conky-std xvfb grim imagemagick xdotool dbus-bin jq curl fonts-dejavu-core fonts-vlgothic locales
test-widgets: release catalogues
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(WIDGET_TEST_PACKAGES)" APT_FLAGS=--no-install-recommends
	@$(MAKE) --no-print-directory locales
	BUILD_DIR=$(CURDIR)/$(RELEASE_DIR) bash Tests/end-to-end/widgets/widgets-test.sh

# The desktop's search providers called as GNOME Shell (gdbus) and KRunner (python3-dbus) call them.
test-desktop-search: check-build-deps
	$(SWIFT) build
	bash Tests/end-to-end/desktop-search/desktop-search-test.sh

test-session: release
	bash Tests/end-to-end/session/session-test.sh

# make install as real users, each with its own systemd --user in a delegated cgroup: a
# useradd -m user (HOME in /home), the same where user namespaces are refused (seccomp), a unit
# that cannot start (pokectl says why in 5 s), a /var/home home with custom XDG dirs. As root.
test-desktop-user: release
	bash Tests/end-to-end/desktop-user/desktop-user-test.sh

## deb: pokedexd_VERSION_ARCH.deb (and its -dbgsym package) in this directory, from the same
## release build as `make install` (debian/rules). Install it with `sudo apt install ./pokedexd_*.deb`.
DEB_VERSION = $(shell dpkg-parsechangelog -S Version 2>/dev/null)
DEB_ARCH    = $(shell dpkg --print-architecture 2>/dev/null)
# -nc: the tree is not cleaned first (debian/rules clean removes .build); nocheck: the tests are
# make test's, which ran on this very build (debian/rules runs them otherwise); POKEDEX_VENDORED=0 and
# the profile: this machine's Swift and the packages SwiftPM resolved, not Debian's swiftlang
# and vendor/ (debian/rules says more). Where debhelper has no compat 14 (Debian 12's stops at
# 13), at 13 (DH_COMPAT=13, and -d: the Build-Depends name compat 14); debian/rules holds at both.
deb: deps-package release
	rm -f pokedexd_*.deb pokedexd-dbgsym_*.deb pokedexd_*.buildinfo pokedexd_*.changes
	if dpkg-query -W -f '$${Provides}' debhelper | grep -qF 'debhelper-compat (= 14)'; then compat=; \
	else compat=13; echo "make deb: this debhelper stops at compat 13: built at 13 (DH_COMPAT=13)"; fi; \
	DH_COMPAT=$$compat POKEDEX_VENDORED=0 POKEDEX_DEB_DIR=$(CURDIR) DEB_BUILD_OPTIONS="$(DEB_BUILD_OPTIONS) nocheck" \
	  dpkg-buildpackage -b -nc --no-sign --build-profiles=pkg.pokedexd.swift-toolchain,nocheck $${compat:+-d} \
	  --buildinfo-option=-u$(CURDIR) --changes-option=-u$(CURDIR) \
	  --buildinfo-file=$(CURDIR)/pokedexd_$(DEB_VERSION)_$(DEB_ARCH).buildinfo \
	  --changes-file=$(CURDIR)/pokedexd_$(DEB_VERSION)_$(DEB_ARCH).changes
	@ls -l pokedexd_$(DEB_VERSION)_$(DEB_ARCH).deb

## vendor: copies of the Swift packages the products need, at the versions Package.resolved
## pins, in vendor/ (not committed; tools/vendor): what the source package carries, so that a
## Debian build needs no network.
vendor:
	tools/vendor

## dsc: the source package, 3.0 (quilt), as Debian takes it, in DSC_DIR (by default ..): the
## upstream tarball from the commit HEAD (git archive), vendor/ (make vendor) as its component
## tarball, debian/ and the .dsc (dpkg-source -b; dpkg-dev installed if missing). The tree and
## its .build are left as they are (tools/source-package, debian/README.source).
DSC_DIR ?= ..
dsc: vendor
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="dpkg-dev xz-utils"
	tools/source-package "$(DSC_DIR)"

## test-package-build: the source package (make dsc) built as sbuild builds it, in debootstrapped
## trixie and sid (SUITES=…) with Debian's swiftlang and no network, its unit tier in the build;
## installed there, autopkgtest; built again by another user elsewhere, in another umask, time
## zone, locale, date and host name, and compared byte for byte (diffoscope's report kept);
## lintian from sid --pedantic --info --display-experimental with no tag; clean
## (Tests/end-to-end/package-build). Opt-in (not in make test): about 70 minutes on 2 cores; as root.
PACKAGE_BUILD_TEST_PACKAGES = debootstrap dpkg-dev diffoscope-minimal iproute2 xz-utils
test-package-build:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(PACKAGE_BUILD_TEST_PACKAGES)"
	bash Tests/end-to-end/package-build/package-build-test.sh

# The .deb in a debootstrapped Debian 12 with no Swift: installed with apt, activated on a
# private bus against the mock, every file checked, lintian, then remove and purge (as root).
test-package: deb
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(PACKAGE_TEST_PACKAGES)"
	bash Tests/end-to-end/package/package-test.sh

## install: build in release mode, install under PREFIX, then enable and start the user unit.
## install-files: only the files, from the release build as it is (what debian/rules runs).
install: deps-build release install-files
	@# The namespace drop-ins this user's manager applies (probed), then start it and say whether it runs.
	@if [ -z "$(DESTDIR)" ] && systemctl --user show-environment >/dev/null 2>&1; then \
	  systemctl --user daemon-reload && \
	  "$(BINDIR)/pokedex-sandbox-setup" "$(USERUNITDIR)" "$(BINDIR)" && \
	  systemctl --user daemon-reload && systemctl --user enable pokedex.service 2>&1 | grep -v '^Created symlink' ; \
	  systemctl --user reset-failed pokedex.service 2>/dev/null; \
	  if systemctl --user restart pokedex.service && systemctl --user -q is-active pokedex.service; then \
	    echo "pokedex.service is running: try 'pokectl list'"; \
	  else \
	    echo "make install: pokedex.service did not start: $$("$(BINDIR)/pokectl" status 2>&1 | head -1)" >&2; \
	    journalctl --user -u pokedex.service -n 5 --no-pager >&2 2>/dev/null || true; \
	    systemctl --user status pokedex.service --no-pager -n 0 >&2 || true; \
	    echo "see 'journalctl --user -u pokedex'" >&2; exit 1; \
	  fi; \
	else \
	  echo "installed$(if $(DESTDIR), into $(DESTDIR)); the unit was not started$(if $(DESTDIR),, (no user manager is running)); $(BINDIR)/pokedex-sandbox-setup adds the namespace sandbox this user's manager can apply"; \
	fi

# install.manifest lists every installed file, once; tools/install-manifest installs, removes and
# lists them with these directories (a value may hold a space).
MANIFEST_VARS = "DESTDIR=$(DESTDIR)" "RELEASE_DIR=$(RELEASE_DIR)" "BINDIR=$(BINDIR)" "DATADIR=$(DATADIR)" "LIBEXECDIR=$(LIBEXECDIR)" \
  "MANDIR=$(MANDIR)" "USERUNITDIR=$(USERUNITDIR)" "DBUSSERVICEDIR=$(DBUSSERVICEDIR)" \
  "DBUSINTERFACEDIR=$(DBUSINTERFACEDIR)" "BASHCOMPDIR=$(BASHCOMPDIR)" "ZSHCOMPDIR=$(ZSHCOMPDIR)" \
  "FISHCOMPDIR=$(FISHCOMPDIR)" "EXAMPLESDIR=$(EXAMPLESDIR)" "APPLICATIONSDIR=$(APPLICATIONSDIR)" \
  "SEARCHPROVIDERDIR=$(SEARCHPROVIDERDIR)" "KRUNNERDIR=$(KRUNNERDIR)" "ICONDIR=$(ICONDIR)" "LOCALEDIR=$(LOCALEDIR)"
INSTALL_MANIFEST = python3 tools/install-manifest

install-files: $(CATALOGUES) $(DESKTOP_FILES)
	$(INSTALL_MANIFEST) install $(MANIFEST_VARS)

## install-list: the paths install-files installs (PREFIX and the directories as given);
## DEB=1 the .deb's, as debhelper leaves them (what Tests/end-to-end/package/package-test.sh expects).
install-list:
	@$(INSTALL_MANIFEST) list $(if $(DEB),--deb) $(MANIFEST_VARS)

uninstall:
	@if [ -z "$(DESTDIR)" ] && systemctl --user show-environment >/dev/null 2>&1; then \
	  systemctl --user disable --now pokedex.service 2>/dev/null || true; \
	fi
	$(INSTALL_MANIFEST) uninstall $(MANIFEST_VARS)
	@# What pokedex-sandbox-setup added at install (make install), not a file of the manifest.
	rm -f "$(DESTDIR)$(USERUNITDIR)"/pokedex.service.d/sandbox-*.conf
	-rmdir "$(DESTDIR)$(USERUNITDIR)/pokedex.service.d" 2>/dev/null
	@if [ -z "$(DESTDIR)" ] && systemctl --user show-environment >/dev/null 2>&1; then systemctl --user daemon-reload; fi

clean:
	rm -rf .build
