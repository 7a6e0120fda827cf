#!/usr/bin/env bash
# make test-package-build: the source package as Debian builds it, in each suite (SUITES,
# default "trixie sid"), with Debian's own Swift (swiftlang) and no network:
#   1. the source package from the tree as git tracks it (a fresh clone) with vendor/
#      (`make vendor`): dpkg-source -b; nothing built in it (.build, .deb);
#   2. per suite, a minbase root with build-essential and the Build-Depends from Debian alone
#      (debian/control, parsed; cached by the list); the .dsc unpacked and built as a user,
#      `dpkg-buildpackage -b` with the network cut (unshare -n: no route, not even loopback up);
#   3. the .deb's Depends: in that suite's names (the t64 libraries); installed with apt in a
#      fresh root of the suite; its version; debian/tests run there by autopkgtest (null runner);
#   4. in the last suite: lintian --pedantic on the source and the binaries (no E, no W); the
#      tree after `debian/rules clean` gives the same source as before the build; a second
#      build in another folder, two days later by the clock (faketime), gives byte-identical
#      .debs (diffoscope says where they differ, if they do).
# Logs and the packages stay in .build/package-build/SUITE/ for a closer look. As root
# (debootstrap, chroot), in its own mount and PID namespaces; about 15 minutes warm on 2 cores.
set -uo pipefail
cd "$(dirname "$0")/../../.."
ROOT=$PWD
source Tests/support/lib/debian-root.sh
own_namespaces package-build "$ROOT/Tests/end-to-end/package-build/package-build-test.sh" "$@"

SUITES=${SUITES:-trixie sid}
VERSION=$(tools/changelog-version)
CACHE=${POKEDEX_TEST_CACHE:-/var/cache/pokedexd-test}
TMP=$(realpath "$(mktemp -d -p /var/tmp pokedex-package-build.XXXXXX)")
OUT=$ROOT/.build/package-build
source Tests/support/lib/check.sh
cleanup() {
    for m in $(awk -v r="$TMP/" 'index($2, r) == 1 {print $2}' /proc/self/mounts | sort -r); do umount -l "$m"; done
    rm -rf --one-file-system "$TMP"
}
trap cleanup EXIT
rm -rf "$OUT" && mkdir -p "$OUT"

# Build-Depends, one name each (the first of alternatives, no versions; the profile is not set).
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

echo "== the source package (pokedexd $VERSION): a fresh clone, with vendor/"
make -s vendor >"$TMP/vendor.log" 2>&1 || { cat "$TMP/vendor.log"; fail "make vendor"; summary package-build; exit 1; }
# What a fresh clone of this tree holds: the files git tracks, as they are now.
mkdir -p "$TMP/clone/pokedexd" && git ls-files -z | xargs -0 cp --parents -t "$TMP/clone/pokedexd"
cp -a vendor "$TMP/clone/pokedexd/"
(cd "$TMP/clone" && dpkg-source -b pokedexd) >"$TMP/source.log" 2>&1
check "dpkg-source -b (3.0 native)" test -f "$TMP/clone/pokedexd_$VERSION.dsc"
TARBALL=$TMP/clone/pokedexd_$VERSION.tar.xz
tar -tJf "$TARBALL" | sed 's|^pokedexd/||' | sort >"$TMP/source-files"
echo "   $(wc -l <"$TMP/source-files") entries, $(du -k "$TARBALL" | cut -f1) KB"
check "the source holds vendor/ at Package.resolved's pins" grep -qx 'vendor/PINS' "$TMP/source-files"
check "the source holds no build (.build*, *.deb) and no screenshots of Nintendo's sprites" \
    bash -c "! grep -E '^(\\.build|docs/screenshots/)|\\.deb\$' '$TMP/source-files'"
cp "$TMP/clone/pokedexd_$VERSION".{dsc,tar.xz} "$OUT/"

LAST=${SUITES##* }
for suite in $SUITES; do
    echo "== $suite: build-essential and the Build-Depends, from Debian alone"
    R=$TMP/$suite-build
    deps="build-essential fakeroot $(build_depends) lintian faketime"
    debian_root "$suite" "$R" $deps || { fail "$suite: a root with $deps"; continue; }
    mount -t proc proc "$R/proc"
    mkdir -p "$R/dev/shm" && mount -t tmpfs tmpfs "$R/dev/shm"  # faketime's semaphores
    chroot_run "$R" sh -c 'swift --version 2>&1 | head -1' | sed 's/^/   /'
    chroot_run "$R" useradd -m builder
    mkdir -p "$R/build" && cp "$OUT/pokedexd_$VERSION".{dsc,tar.xz} "$R/build/" && chroot_run "$R" chown -R builder:builder /build
    as_builder() { chroot --userspec=builder:builder "$R" env -i HOME=/home/builder PATH=/usr/bin:/bin LANG=C.UTF-8 "$@"; }
    as_builder sh -c "cd /build && dpkg-source -x pokedexd_$VERSION.dsc pokedexd" >/dev/null
    echo "-- dpkg-buildpackage -b, no network (unshare -n), as a user"
    start=$(date +%s)
    # A bound: SwiftPM has been seen to hang, once, at start (CFSocket's wakeup pair).
    timeout 1800 unshare -n chroot --userspec=builder:builder "$R" env -i HOME=/home/builder PATH=/usr/bin:/bin LANG=C.UTF-8 \
        sh -c 'cd /build/pokedexd && dpkg-buildpackage -b --no-sign' >"$OUT/build-$suite.log" 2>&1
    code=$?
    took=$(( $(date +%s) - start ))
    grep -E '^(dpkg-|Build of|\[[0-9]+/[0-9]+\] (Linking|Compiling pokedexd)|dh |   dh_auto)' "$OUT/build-$suite.log" | head -30 | sed 's/^/   | /'
    check "$suite: dpkg-buildpackage -b with no network (exit $code, $took s; log in .build/package-build)" test "$code" = 0
    [ "$code" = 0 ] || { tail -30 "$OUT/build-$suite.log"; continue; }
    DEB=pokedexd_${VERSION}_$(chroot_run "$R" dpkg --print-architecture).deb
    mkdir -p "$OUT/$suite" && cp "$R"/build/*.deb "$R"/build/*.buildinfo "$R"/build/*.changes "$OUT/$suite/"
    depends=$(dpkg-deb -f "$OUT/$suite/$DEB" Depends)
    echo "   Depends: $depends"
    echo "   Installed-Size: $(dpkg-deb -f "$OUT/$suite/$DEB" Installed-Size) KiB; $(du -k "$OUT/$suite/$DEB" | cut -f1) KiB"
    # The suite's own library packages: what dpkg-shlibdeps read in the suite's symbols files.
    for lib in $(chroot_run "$R" dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' libcurl4 libcurl4t64 libpng16-16 libpng16-16t64 libsystemd0 2>/dev/null |
                 awk '$1 == "ii" && $2 !~ /-(dev|doc)$/ {print $2}'); do
        check "$suite: Depends: names $lib, the suite's name" bash -c "echo '$depends' | grep -qE '(^|, )$lib \\(>= '"
    done

    echo "== $suite: the package installs in a fresh $suite, and debian/tests pass there"
    I=$TMP/$suite-install
    debian_root "$suite" "$I" || { fail "$suite: a minbase root"; continue; }
    mount -t proc proc "$I/proc"
    cp "$OUT/$suite/$DEB" "$I/tmp/"
    { chroot_run "$I" apt-get update -qq && chroot_run "$I" apt-get install -y --no-install-recommends "/tmp/$DEB"; } >"$TMP/install-$suite.log" 2>&1
    check "$suite: apt-get install ./$DEB" chroot_run "$I" dpkg-query -W pokedexd
    [ "$last" = ok ] || { tail -20 "$TMP/install-$suite.log"; continue; }
    check "$suite: pokedexd --version is the changelog's ($VERSION)" bash -c "[ \"\$(chroot '$I' pokedexd --version)\" = '$VERSION' ]"
    check "$suite: autopkgtest (debian/tests, null runner in the root)" autopkgtest_in_root "$I"

    [ "$suite" = "$LAST" ] || continue
    echo "== $suite: lintian $(chroot_run "$R" dpkg-query -W -f '${Version}' lintian) --pedantic, source and binaries"
    as_builder sh -c "cd /build && lintian --pedantic --info --show-overrides --fail-on error,warning pokedexd_$VERSION.dsc *.deb" \
        >"$OUT/lintian.log" 2>&1
    code=$?
    sed 's/^/   | /' "$OUT/lintian.log"
    check "lintian --pedantic: no errors, no warnings (exit $code)" test "$code" = 0

    echo "== $suite: debian/rules clean leaves the source as it was"
    as_builder sh -c 'cd /build/pokedexd && fakeroot debian/rules clean' >"$TMP/clean.log" 2>&1 || tail -5 "$TMP/clean.log"
    mkdir -p "$TMP/unpacked" && tar -xJf "$OUT/pokedexd_$VERSION.tar.xz" -C "$TMP/unpacked"
    check "the tree after clean is the source package, file for file (diff -r)" diff -r "$TMP/unpacked/pokedexd" "$R/build/pokedexd"

    echo "== $suite: reproducible: another folder, two days later (faketime), the same .debs"
    mkdir -p "$R/build/elsewhere/deeper" && cp "$R/build/pokedexd_$VERSION".{dsc,tar.xz} "$R/build/elsewhere/deeper/"
    chroot_run "$R" chown -R builder:builder /build/elsewhere
    as_builder sh -c "cd /build/elsewhere/deeper && dpkg-source -x pokedexd_$VERSION.dsc pokedexd" >/dev/null
    start=$(date +%s)
    timeout 1800 unshare -n chroot --userspec=builder:builder "$R" env -i HOME=/home/builder PATH=/usr/bin:/bin LANG=C.UTF-8 \
        faketime -f +2d sh -c 'cd /build/elsewhere/deeper/pokedexd && dpkg-buildpackage -b --no-sign' >"$OUT/build-$suite-again.log" 2>&1
    code=$?
    check "the second build (exit $code, $(( $(date +%s) - start )) s)" test "$code" = 0
    for deb in "$R"/build/elsewhere/deeper/*.deb; do
        name=$(basename "$deb")
        if cmp -s "$deb" "$OUT/$suite/$name"; then
            ok "$name: byte-identical ($(sha256sum <"$deb" | cut -c1-16)…)"
        else
            fail "$name differs between the two builds"
            cp "$deb" "$OUT/$suite/again-$name"
            command -v diffoscope >/dev/null && diffoscope --text "$OUT/diffoscope-$name.txt" "$OUT/$suite/$name" "$deb" >/dev/null 2>&1
            head -40 "$OUT/diffoscope-$name.txt" 2>/dev/null | sed 's/^/   | /'
        fi
    done
done
summary package-build
