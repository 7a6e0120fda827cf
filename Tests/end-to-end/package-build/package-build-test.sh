#!/usr/bin/env bash
# make test-package-build: the source package as Debian builds it, in each suite (SUITES,
# default "trixie sid"), with Debian's own Swift (swiftlang), as sbuild would:
#   1. the source package `make dsc` makes (3.0 quilt: the upstream tarball from the commit
#      HEAD, vendor/ as its component tarball, debian.tar.xz);
#   2. per suite, a minbase root with build-essential and the Build-Depends from Debian alone
#      (debian/control, parsed; cached by the list; trixie's debhelper from trixie-backports, for
#      compat 14); the .dsc unpacked by dpkg-source -x into
#      pokedexd-UPSTREAM and built there as sbuild builds: a user of its own, HOME a path that
#      does not exist, the network cut but loopback up (unshare -n), its own host name; the
#      unit tier runs in the build (dh_auto_test), and its summary is printed;
#   3. the .deb's Depends: in that suite's names (the t64 libraries); installed with apt in a
#      fresh root of the suite; its version; debian/tests run there by autopkgtest (null runner);
#   4. a second build in the same root that differs in everything a build may not depend on:
#      the folder's name and path, the user, the umask, the time zone, the locale, the date
#      (faketime, three days on) and the host name (nocheck: the tests change no byte of a
#      package); its .debs, the main one and the dbgsym, must be the first's byte for byte, or
#      diffoscope's report is kept beside them;
#   5. in the last suite: lintian --pedantic --info --display-experimental on the source and the
#      binaries: any tag fails but an override, each of which says why; the tree after
#      `debian/rules clean` is the unpacked source again.
# Logs, packages and reports stay in .build/package-build/ for a closer look. As root
# (debootstrap, chroot), in its own mount and PID namespaces; about 70 minutes warm on 2 cores.
set -uo pipefail
cd "$(dirname "$0")/../../.."
ROOT=$PWD
source Tests/support/lib/debian-root.sh
own_namespaces package-build "$ROOT/Tests/end-to-end/package-build/package-build-test.sh" "$@"

SUITES=${SUITES:-trixie sid}
VERSION=$(dpkg-parsechangelog -S Version)
UPSTREAM=$(tools/changelog-version)
DSC=pokedexd_$VERSION.dsc
CACHE=${POKEDEX_TEST_CACHE:-/var/cache/pokedexd-test}
TMP=$(realpath "$(mktemp -d -p /var/tmp pokedex-package-build.XXXXXX)")
OUT=$ROOT/.build/package-build
source Tests/support/lib/check.sh
cleanup() {
    for m in $(awk -v r="$TMP/" 'index($2, r) == 1 {print $2}' /proc/self/mounts | sort -r); do umount -l "$m"; done
    rm -rf --one-file-system "$TMP"
}
trap cleanup EXIT
rm -rf "$OUT" && mkdir -p "$OUT/source"

# Build-Depends, one name each (the first of alternatives, no versions; every profile's).
build_depends() {
    python3 - <<'PY'
import re
text = open("debian/control", encoding="utf-8").read().split("\n\n")[0]
field = re.search(r"^Build-Depends:(.*(?:\n[ \t].*)*)", text, re.M).group(1)
names = (re.split(r"[\s(\[<]", dep.split("|")[0].strip())[0] for dep in field.split(",") if dep.strip())
# debhelper-compat is debhelper's virtual package.
print(" ".join("debhelper" if n == "debhelper-compat" else n for n in names))
PY
}

echo "== the source package (pokedexd $VERSION): make dsc"
make -s dsc DSC_DIR="$OUT/source" >"$TMP/dsc.log" 2>&1 || { cat "$TMP/dsc.log"; fail "make dsc"; summary package-build; exit 1; }
check "make dsc: $DSC, 3.0 (quilt)" grep -qx 'Format: 3.0 (quilt)' "$OUT/source/$DSC"
ls -l "$OUT/source" | tail -n +2 | sed 's/^/   /'

# COMMAND as USER in the root, the way sbuild runs a build: a clean environment, HOME a path that
# does not exist, the network cut with loopback up, the host name given, and what else is given
# as NAME=VALUE before the command (umask with UMASK=). An hour at most: SwiftPM has been seen
# to hang, once, at start (CFSocket's wakeup pair).
as_user_offline() {  # ROOT USER HOSTNAME [NAME=VALUE…] COMMAND
    local root=$1 user=$2 host=$3; shift 3
    local env=(HOME=/sbuild-nonexistent PATH=/usr/bin:/bin LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC) umask=022
    while [[ ${1:-} == *=* ]]; do
        case $1 in UMASK=*) umask=${1#UMASK=} ;; *) env+=("$1") ;; esac
        shift
    done
    timeout 3600 unshare -n -u sh -c 'ip link set lo up && hostname "$1" && shift && umask "$1" && shift && exec "$@"' sh "$host" "$umask" \
        chroot --userspec="$user:$user" "$root" env -i "${env[@]}" "$@"
}
# COMMAND as USER in the root, a clean environment, HOME theirs (the network as the host's).
as_user() {  # ROOT USER COMMAND
    local root=$1 user=$2; shift 2
    chroot --userspec="$user:$user" "$root" env -i HOME="/home/$user" PATH=/usr/bin:/bin LANG=C.UTF-8 "$@"
}
# The source package copied into DIR (made USER's) and unpacked there by USER into FOLDER.
unpack_as() {  # ROOT USER DIR FOLDER
    chroot_run "$1" install -d -o "$2" -g "$2" "$3"
    cp "$OUT/source/"* "$1$3/" && chroot_run "$1" chown -R "$2:$2" "$3"
    as_user "$1" "$2" sh -c "cd '$3' && dpkg-source -x $DSC '$4'" >/dev/null 2>&1
}
# What the unit tier said in a build log: XCTest's whole run and its totals, and the mock's.
test_summary() {  # LOG
    awk "/^Test Suite '(All|Selected) tests' (passed|failed)/ {print; getline; print} /^mock_test: / {print}" "$1" | sed 's/^\s*/   | /'
}

LAST=${SUITES##* }
for suite in $SUITES; do
    echo "== $suite: build-essential and the Build-Depends, from Debian alone"
    R=$TMP/$suite-build
    # locales and faketime: the second build's locale and clock; lintian: the last step.
    deps="build-essential fakeroot $(build_depends) lintian faketime locales"
    # debhelper-compat (= 14): trixie's debhelper stops at 13; its backport is 14, which a
    # build for trixie takes as a backport's build does (sbuild --extra-repository), with the
    # library of the same version it needs.
    backports=
    case $suite in
    trixie) backports=1 deps=${deps/ debhelper / debhelper\/$suite-backports libdebhelper-perl\/$suite-backports } ;;
    esac
    DEBIAN_BACKPORTS=$backports debian_root "$suite" "$R" $deps || { fail "$suite: a root with $deps"; continue; }
    chroot_run "$R" dpkg-query -W -f '   debhelper ${Version}\n' debhelper
    mount -t proc proc "$R/proc"
    mkdir -p "$R/dev/shm" && mount -t tmpfs tmpfs "$R/dev/shm"  # faketime's semaphores
    chroot_run "$R" sh -c 'swift --version 2>&1 | head -1' | sed 's/^/   /'
    chroot_run "$R" localedef -i fr_FR -f UTF-8 fr_FR.UTF-8
    chroot_run "$R" useradd -m builder
    chroot_run "$R" useradd -m -u 2345 rebuilder
    unpack_as "$R" builder /build "pokedexd-$UPSTREAM"
    check "$suite: dpkg-source -x unpacks it into pokedexd-$UPSTREAM" test -f "$R/build/pokedexd-$UPSTREAM/vendor/PINS"

    echo "-- dpkg-buildpackage -b in /build/pokedexd-$UPSTREAM, as sbuild builds (user builder, no network)"
    start=$(date +%s)
    as_user_offline "$R" builder "$suite-builder" \
        sh -c "cd /build/pokedexd-$UPSTREAM && dpkg-buildpackage -b --no-sign" >"$OUT/build-$suite.log" 2>&1
    code=$?
    took=$(( $(date +%s) - start ))
    grep -E '^(dpkg-|Build of|\[[0-9]+/[0-9]+\] (Linking|Compiling pokedexd)|   dh_auto)' "$OUT/build-$suite.log" | head -30 | sed 's/^/   | /'
    echo "   the unit tier during the build (dh_auto_test):"
    test_summary "$OUT/build-$suite.log"
    check "$suite: dpkg-buildpackage -b with no network (exit $code, $took s; log in .build/package-build)" test "$code" = 0
    [ "$code" = 0 ] || { tail -40 "$OUT/build-$suite.log"; continue; }
    check "$suite: the unit tier ran during the build, and passed" bash -c \
        "grep -qE \"^Test Suite '(All|Selected) tests' passed\" '$OUT/build-$suite.log' && grep -q '^mock_test: .* as recorded' '$OUT/build-$suite.log' &&
         ! grep -qE \"^Test Suite '(All|Selected) tests' failed\" '$OUT/build-$suite.log'"
    ARCH=$(chroot_run "$R" dpkg --print-architecture)
    DEB=pokedexd_${VERSION}_$ARCH.deb
    mkdir -p "$OUT/$suite" && cp "$R"/build/*.deb "$R"/build/*.buildinfo "$R"/build/*.changes "$OUT/$suite/"
    depends=$(dpkg-deb -f "$OUT/$suite/$DEB" Depends)
    echo "   Depends: $depends"
    echo "   Static-Built-Using: $(dpkg-deb -f "$OUT/$suite/$DEB" Static-Built-Using)"
    echo "   Installed-Size: $(dpkg-deb -f "$OUT/$suite/$DEB" Installed-Size) KiB; $(du -k "$OUT/$suite/$DEB" | cut -f1) KiB"
    check "$suite: Static-Built-Using: names the suite's swiftlang" bash -c \
        "[ \"\$(dpkg-deb -f '$OUT/$suite/$DEB' Static-Built-Using)\" = \"\$(chroot '$R' dpkg-query -W -f '\${source:Package} (= \${source:Version})' swiftlang)\" ]"
    # The suite's own library packages: what dpkg-shlibdeps read in the suite's symbols files.
    for lib in $(chroot_run "$R" dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' libcurl4 libcurl4t64 libpng16-16 libpng16-16t64 libsystemd0 2>/dev/null |
                 awk '$1 == "ii" && $2 !~ /-(dev|doc)$/ {print $2}'); do
        check "$suite: Depends: names $lib, the suite's name" bash -c "echo '$depends' | grep -qE '(^|, )$lib \\(>= '"
    done

    echo "== $suite: the package installs in a fresh $suite, and debian/tests pass there"
    I=$TMP/$suite-install
    if debian_root "$suite" "$I"; then
        mount -t proc proc "$I/proc"
        cp "$OUT/$suite/$DEB" "$I/tmp/"
        { chroot_run "$I" apt-get update -qq && chroot_run "$I" apt-get install -y --no-install-recommends "/tmp/$DEB"; } >"$TMP/install-$suite.log" 2>&1
        check "$suite: apt-get install ./$DEB" chroot_run "$I" dpkg-query -W pokedexd
        if [ "$last" = ok ]; then
            check "$suite: pokedexd --version is the upstream version ($UPSTREAM)" bash -c "[ \"\$(chroot '$I' pokedexd --version)\" = '$UPSTREAM' ]"
            check "$suite: autopkgtest (debian/tests, null runner in the root)" autopkgtest_in_root "$I"
        else
            tail -20 "$TMP/install-$suite.log"
        fi
        umount "$I/proc"; rm -rf --one-file-system "$I"
    else
        fail "$suite: a minbase root"
    fi

    echo "== $suite: built again by another user, elsewhere, later: the same .debs"
    # Another folder name and path, user, umask, time zone, locale, date and host name.
    again=/home/rebuilder/src/elsewhere
    unpack_as "$R" rebuilder "$again" rebuilt-here
    start=$(date +%s)
    as_user_offline "$R" rebuilder "another-host-$suite" UMASK=002 TZ=Pacific/Kiritimati \
        LANG=fr_FR.UTF-8 LC_ALL=fr_FR.UTF-8 DEB_BUILD_OPTIONS=nocheck \
        faketime -f +3d sh -c "cd $again/rebuilt-here && dpkg-buildpackage -b --no-sign" >"$OUT/build-$suite-again.log" 2>&1
    code=$?
    check "$suite: the second build (exit $code, $(( $(date +%s) - start )) s; umask 002, UTC+14, fr_FR.UTF-8, +3 days, user rebuilder, its own host name)" test "$code" = 0
    for deb in "$OUT/$suite"/*.deb; do
        name=$(basename "$deb")
        if cmp -s "$deb" "$R$again/$name"; then
            ok "$suite: $name: byte-identical ($(sha256sum <"$deb" | cut -c1-16)…)"
        else
            fail "$suite: $name differs between the two builds"
            cp "$R$again/$name" "$OUT/$suite/again-$name" 2>/dev/null
            if command -v diffoscope >/dev/null; then
                diffoscope --text "$OUT/diffoscope-$suite-$name.txt" "$deb" "$OUT/$suite/again-$name" >/dev/null 2>&1
                echo "   diffoscope's report: .build/package-build/diffoscope-$suite-$name.txt"
                head -40 "$OUT/diffoscope-$suite-$name.txt" 2>/dev/null | sed 's/^/   | /'
            fi
        fi
    done

    [ "$suite" = "$LAST" ] || { umount "$R/proc" "$R/dev/shm"; rm -rf --one-file-system "$R"; continue; }
    echo "== $suite: lintian $(chroot_run "$R" dpkg-query -W -f '${Version}' lintian) --pedantic --info --display-experimental, source and binaries"
    as_user "$R" builder sh -c "cd /build && lintian --pedantic --info --display-experimental --show-overrides \
               --fail-on error,warning,info,pedantic,experimental $DSC *.deb" >"$OUT/lintian.log" 2>&1
    code=$?
    sed 's/^/   | /' "$OUT/lintian.log"
    check "lintian: no tag but those overridden, each with its reason (exit $code)" test "$code" = 0

    echo "== $suite: debian/rules clean leaves the source as it was"
    as_user "$R" builder sh -c "cd /build/pokedexd-$UPSTREAM && fakeroot debian/rules clean" >"$TMP/clean.log" 2>&1 || tail -5 "$TMP/clean.log"
    mkdir -p "$TMP/unpacked" && cp "$OUT/source/"* "$TMP/unpacked/"
    (cd "$TMP/unpacked" && dpkg-source -x "$DSC" fresh) >/dev/null 2>&1
    check "the tree after clean is the unpacked source, file for file (diff -r)" diff -r "$TMP/unpacked/fresh" "$R/build/pokedexd-$UPSTREAM"
    umount "$R/proc" "$R/dev/shm"
done
summary package-build
