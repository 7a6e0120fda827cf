#!/usr/bin/env bash
# The .deb (`make deb`) as a Debian 12 user meets it, on a system that has never seen Swift:
#   1. the package itself: its files against install.manifest's (`make install-list DEB=1`),
#      one stripped binary (pokectl a link to it), Depends: from dpkg-shlibdeps, neither ICU
#      nor FoundationInternationalization, lintian; debian/copyright against every file of the
#      source and its headers (tools/check-copyright), and no line lintian finds too long in it;
#   2. a minimal Debian 12 from debootstrap (cached as a tarball; a fresh copy each run), the
#      .deb installed with `apt-get install ./pokedexd_….deb`; no Swift anywhere in it;
#   3. a user `alice` on a private session bus (dbus-run-session, the package's service
#      directories): `pokectl list` D-Bus-activates the packaged pokedexd against the project's
#      mock API, and a favorite is saved;
#   4. the same user with her own `systemd --user` in a delegated cgroup: the unit in
#      /usr/lib/systemd/user starts through D-Bus activation; pokedex-sandbox-setup, run with
#      no arguments as a package user would, keeps what her manager applies (in a chroot the
#      kernel refuses user namespaces, so nothing), and the unit starts again after it;
#   5. debian/tests, as autopkgtest runs them (null runner, inside the root);
#   6. apt-get remove leaves none of the package's files; purge leaves nothing of it, and
#      alice's favorites stay in her home.
# As root (debootstrap, chroot, mounts), in its own mount and PID namespaces: its mounts and
# every process it starts (the mock, dbus, alice's manager) end with it, however it ends. Alice
# gets a UID no account and no cgroup of this machine uses.
set -uo pipefail
cd "$(dirname "$0")/../../.."
ROOT=$PWD
source Tests/support/lib/debian-root.sh
own_namespaces package "$ROOT/Tests/end-to-end/package/package-test.sh" "$@"

VERSION=$(dpkg-parsechangelog -S Version)
UPSTREAM=$(tools/changelog-version)  # what the programs report: the version without its revision
ARCH=$(dpkg --print-architecture)
DEB=$ROOT/pokedexd_${VERSION}_${ARCH}.deb
DIST=bookworm
CACHE=${POKEDEX_TEST_CACHE:-/var/cache/pokedexd-test}
# The real path: processes are told apart by their root, as /proc shows it.
TMP=$(realpath "$(mktemp -d -p /var/tmp pokedex-package.XXXXXX)")
R=$TMP/root
source Tests/support/lib/check.sh
MOCK_PID= MANAGER= CG= CGROUPS_MADE=()

CGROOT=/sys/fs/cgroup
[ -f $CGROOT/cgroup.controllers ] || CGROOT=/sys/fs/cgroup/unified

# Every process whose root is the chroot, by PID.
chroot_pids() {
    local p
    for p in /proc/[0-9]*; do
        [ "$(readlink "$p/root" 2>/dev/null)" = "$R" ] && echo "${p#/proc/}"
    done
}
cleanup() {
    [ -n "$MANAGER" ] && kill "$MANAGER" 2>/dev/null
    for p in $(chroot_pids); do kill -9 "$p" 2>/dev/null; done
    [ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null
    sleep 0.2
    # The cgroups this test made, once empty, deepest first (what the manager made inside too).
    for _ in $(seq 50); do [ -n "$CG" ] && grep -qs 'populated 1' "$CG/cgroup.events" || break; sleep 0.1; done
    [ -n "$CG" ] && [ -d "$CG" ] && find "$CG" -mindepth 1 -depth -type d -exec rmdir {} + 2>/dev/null
    for ((i = ${#CGROUPS_MADE[@]} - 1; i >= 0; i--)); do rmdir "${CGROUPS_MADE[i]}" 2>/dev/null; done
    # Unmounted before anything is removed, and rm never leaves the chroot's filesystem.
    for m in $(awk -v r="$R/" 'index($2, r) == 1 {print $2}' /proc/self/mounts | sort -r); do umount -l "$m"; done
    rm -rf --one-file-system "$TMP"
}
trap cleanup EXIT

# Runs COMMAND in the chroot as root, with a clean environment (nothing of the host's PATH).
in_root() { chroot_run "$R" "$@"; }
# Runs COMMAND in the chroot as alice (extra NAME=VALUE pairs in ALICE_ENV).
ALICE_ENV=()
as_alice() {
    chroot --userspec=alice:alice "$R" env -i HOME=/home/alice USER=alice LOGNAME=alice SHELL=/bin/bash \
        PATH=/usr/bin:/bin LANG=C.UTF-8 TERM=dumb ${ALICE_ENV[@]+"${ALICE_ENV[@]}"} "$@"
}
# Every path under the root, directories marked with a trailing slash, but not what is mounted.
snapshot() {
    (cd "$R" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./run -o -path ./dev -o -path ./tmp \) -prune -o \
        \( -type d -printf '%p/\n' -o -printf '%p\n' \)) | sed 's|^\.||' | sort
}

echo "== the package: $DEB"
[ -f "$DEB" ] || { echo "no $DEB: run make deb"; exit 1; }
ls -l "$DEB" "$ROOT"/pokedexd-dbgsym_*.deb 2>/dev/null
dpkg-deb -c "$DEB" | awk '{print $1, $3, $6}' | sed 's|\./|/|' >"$TMP/contents"
cat "$TMP/contents"
awk '$1 !~ /^d/ {print $3}' "$TMP/contents" | sort >"$TMP/files"
# Every file the .deb installs (directories aside), from install.manifest: what install-files puts
# in place for debian/rules, and what debhelper adds (changelog, copyright, the man pages gzipped).
make -s --no-print-directory install-list DEB=1 >"$TMP/expected" || { fail "make install-list DEB=1"; summary package; exit 1; }
check "the package holds exactly install.manifest's files (make install-list DEB=1)" diff -u "$TMP/expected" "$TMP/files"
dpkg-deb -x "$DEB" "$TMP/x"
B=$TMP/x/usr/bin
check "/usr/bin/pokectl is a link to pokedexd (one binary, one Swift runtime)" test "$(readlink "$B/pokectl")" = pokedexd
check "/usr/bin/pokedexd is stripped (no .symtab, no .debug_*)" bash -c "! readelf -SW '$B/pokedexd' | grep -E '\.symtab|\.debug_'"
check "/usr/bin/pokedexd is bound at start (full RELRO)" bash -c "readelf -d '$B/pokedexd' | grep -q BIND_NOW && readelf -lW '$B/pokedexd' | grep -q GNU_RELRO"
check "/usr/bin/pokedexd does not link libcurl (the service loads it; pokectl never maps it)" \
    bash -c "! readelf -d '$B/pokedexd' | grep -E 'NEEDED.*(libcurl|libssl|libcrypto)'"
check "/usr/bin/pokedexd exports no symbols (--no-export-dynamic)" bash -c "[ \"\$(nm -D --defined-only '$B/pokedexd' | wc -l)\" = 0 ]"
# The unstripped build: ICU's data and library symbols, Foundation's ICU-backed half.
check "pokedexd (unstripped) links neither ICU nor FoundationInternationalization" \
    bash -c "! nm '$ROOT/.build/release/pokedexd' | grep -E 'FoundationInternationalization|icudt[0-9]|[^a-z_](u_|ucol_|ubrk_|unorm2_|udat_|uloc_)[a-zA-Z]+_[0-9]+\$'"
echo "Installed-Size: $(dpkg-deb -f "$DEB" Installed-Size) KiB; the .deb: $(du -k "$DEB" | cut -f1) KiB"
DEPENDS=$(dpkg-deb -f "$DEB" Depends)
echo "Depends: $DEPENDS"
# dpkg-shlibdeps writes the versions from each library's symbols file.
for lib in libc6 libcurl4 libsystemd0 libpng16-16; do
    check "Depends: names $lib with a version (dpkg-shlibdeps)" bash -c "echo '$DEPENDS' | grep -qE '(^|, )$lib \(>= '"
done
check "Depends: a session bus" bash -c "echo '$DEPENDS' | grep -q 'default-dbus-session-bus | dbus-session-bus'"
echo "-- lintian $(dpkg-query -W -f '${Version}' lintian) (errors and warnings fail; overrides in debian/ say why)"
lintian --info --show-overrides --fail-on none "$DEB" 2>&1 | grep -v '^running with root privileges' | tee "$TMP/lintian.out"
code=${PIPESTATUS[0]}
check "lintian ran (exit $code)" test "$code" = 0
# Warnings expected here, and no other:
# - debian/control sets no Priority: dpkg 1.22.13 (Debian 13) makes it optional, and sid's
#   lintian calls the field redundant. Debian 12's dpkg leaves it out of the .deb, and its
#   lintian asks for it (on a dpkg that old only);
# - the first upload's changelog entry closes its ITP bug, whose number only bugs.debian.org
#   gives (initial-upload-closes-no-bugs): none yet;
# - debian/pokedexd.lintian-overrides names the spelling finds of the binary Debian's swiftlang
#   builds; this toolchain's code holds other byte sequences, so some of its entries match
#   nothing here (mismatched-override).
no_unexplained_tags() {
    local tags; tags=$(grep -E '^[EW]: ' "$TMP/lintian.out" |
        grep -vE '^W: pokedexd: (initial-upload-closes-no-bugs|mismatched-override spelling-error-in-binary) ')
    if dpkg --compare-versions "$(dpkg-query -W -f '${Version}' dpkg)" lt 1.22.13; then
        tags=$(grep -vE '^W: pokedexd: recommended-field pokedexd_[^ ]+\.deb Priority$' <<<"$tags")
    fi
    [ -z "$tags" ] || { echo "$tags"; return 1; }
}
check "lintian: no errors, no warnings that debian/ does not explain" no_unexplained_tags
echo "-- debian/copyright against every file of the source, vendor/ included (tools/check-copyright)"
make -s vendor >"$TMP/vendor.log" 2>&1 || cat "$TMP/vendor.log"
check "vendor/ is the pinned commits' trees, proved offline (tools/vendor --check)" tools/vendor --check
# The same proof, on a copy with one byte added to a vendored file, must fail.
mkdir -p "$TMP/tampered" && cp -a vendor "$TMP/tampered/" && echo >>"$TMP/tampered/vendor/swift-argument-parser/Package.swift"
check "tools/vendor-verify refuses a vendored file with a byte more" \
    bash -c "cd '$TMP/tampered' && ! python3 '$ROOT/tools/vendor-verify' swift-argument-parser \$(cut -d' ' -f3 vendor/PINS)"
check "debian/copyright licenses every file as its header does (licensecheck $(dpkg-query -W -f '${Version}' licensecheck))" \
    tools/check-copyright
echo "-- the source package (make dsc, 3.0 quilt), unpacked as Debian unpacks it"
touch .build/.dsc-leaves-this
make -s dsc DSC_DIR="$TMP/dsc" >"$TMP/dsc.log" 2>&1 || cat "$TMP/dsc.log"
ORIG=$TMP/dsc/pokedexd_$UPSTREAM.orig.tar.xz
COMPONENT=$TMP/dsc/pokedexd_$UPSTREAM.orig-vendor.tar.xz
# Each tarball's entries, read once: names (ORIG_LIST, COMPONENT_LIST), and the component's
# owners and dates (tar -v).
ORIG_LIST=$TMP/orig.list COMPONENT_LIST=$TMP/component.list
tar -tJf "$ORIG" >"$ORIG_LIST"
tar -tvJf "$COMPONENT" >"$COMPONENT_LIST.v" && sed -E 's/^([^ ]+ +){5}//' "$COMPONENT_LIST.v" >"$COMPONENT_LIST"
check "make dsc: pokedexd_$VERSION.dsc, 3.0 (quilt)" grep -qx 'Format: 3.0 (quilt)' "$TMP/dsc/pokedexd_$VERSION.dsc"
check "the .dsc lists the upstream tarball, the vendor component and debian.tar.xz" bash -c \
    "for f in '$(basename "$ORIG")' '$(basename "$COMPONENT")' 'pokedexd_$VERSION.debian.tar.xz'; do grep -q \" \$f\$\" '$TMP/dsc/pokedexd_$VERSION.dsc' || exit 1; done"
check "the upstream tarball's one folder is pokedexd-$UPSTREAM" \
    bash -c "[ \"\$(cut -d/ -f1 '$ORIG_LIST' | sort -u)\" = 'pokedexd-$UPSTREAM' ]"
check "the upstream tarball is the commit (git archive): no debian/, no build, no vendor/, no screenshots of Nintendo's sprites" \
    bash -c "[ \"\$(grep -cE '^pokedexd-[^/]+/(debian|\\.build|vendor|docs/screenshots)(/|\$)' '$ORIG_LIST')\" = 0 ] &&
             [ \"\$(grep -cv '/\$' '$ORIG_LIST')\" = \"\$(git ls-files ':(exclude)debian' | git check-attr --stdin export-ignore | grep -vc ': set\$')\" ]"
check "the component holds vendor/ alone: PINS and the vendored packages" \
    bash -c "grep -qx 'vendor/PINS' '$COMPONENT_LIST' && [ \"\$(cut -d/ -f1 '$COMPONENT_LIST' | sort -u)\" = vendor ]"
check "the component's entries: root's (0/0, no names), all dated alike" bash -c \
    "awk '{print \$2, \$4, \$5}' '$COMPONENT_LIST.v' | sort -u | awk '\$1 != \"0/0\" {exit 1} {d[\$2 \" \" \$3]} END {exit length(d) != 1}'"
check "make dsc leaves the tree's .build as it was" test -f .build/.dsc-leaves-this -a -x .build/release/pokedexd
rm -f .build/.dsc-leaves-this
# Made again under another umask and time zone: the same four files.
(umask 002; TZ=Pacific/Kiritimati make -s dsc DSC_DIR="$TMP/dsc-again") >"$TMP/dsc-again.log" 2>&1 || cat "$TMP/dsc-again.log"
check "make dsc again (umask 002, another time zone): the same tarballs and .dsc, byte for byte" bash -c \
    "cd '$TMP/dsc' && for f in *; do cmp \"\$f\" '$TMP/dsc-again/'\"\$f\" || exit 1; done"
(cd "$TMP/dsc" && dpkg-source -x "pokedexd_$VERSION.dsc") >"$TMP/dsc-x.log" 2>&1
check "dpkg-source -x unpacks it into pokedexd-$UPSTREAM, vendor/ from the component" \
    test -f "$TMP/dsc/pokedexd-$UPSTREAM/debian/rules" -a -f "$TMP/dsc/pokedexd-$UPSTREAM/vendor/PINS"
check "the unpacked source: vendor/ is the pinned commits' trees (tools/vendor --check)" \
    bash -c "cd '$TMP/dsc/pokedexd-$UPSTREAM' && tools/vendor --check"
check "the unpacked source: debian/copyright licenses every file (tools/check-copyright)" \
    tools/check-copyright "$TMP/dsc/pokedexd-$UPSTREAM"
check "the unpacked source: no line of 512 characters or more, as lintian counts (tools/check-line-length)" \
    tools/check-line-length "$TMP/dsc/pokedexd-$UPSTREAM"

echo "== a clean Debian 12 ($DIST, $(debian_mirror))"
debian_root "$DIST" "$R" || { fail "debootstrap $DIST"; summary package; exit 1; }
mount -t proc proc "$R/proc"
mount -t tmpfs -o mode=0755 tmpfs "$R/run"
mkdir -p "$R/run/systemd/system" "$R/run/systemd/unit-root"
no_swift() {
    ! in_root sh -c 'command -v swift || command -v swiftc' &&
        [ -z "$(find "$R" -xdev \( -name 'libswift*' -o -name 'libFoundation*' -o -path "$R/usr/lib/swift" \) -print -quit)" ]
}
check "no Swift in the root (no swift, no libswift*, no libFoundation*, no /usr/lib/swift)" no_swift
snapshot >"$TMP/before-install"

echo "-- apt-get install ./$(basename "$DEB")"
cp "$DEB" "$R/tmp/"
in_root apt-get update -qq >"$TMP/apt-update.log" 2>&1 || tail -5 "$TMP/apt-update.log"
in_root apt-get install -y --no-install-recommends "./tmp/$(basename "$DEB")" >"$TMP/install.log" 2>&1
code=$?
grep -E '^(Note|The following|  |Setting up pokedexd|Unpacking pokedexd)' "$TMP/install.log" | head -30
check "apt-get install ./$(basename "$DEB") in the clean root (exit $code)" test "$code" = 0
[ "$code" = 0 ] || { tail -30 "$TMP/install.log"; summary package; exit 1; }
in_root dpkg -L pokedexd | sort >"$TMP/owned"
expected() { cat "$TMP/expected"; }
all_owned() { ! comm -23 <(expected) "$TMP/owned" | grep .; }
all_in_place() { local f; for f in $(expected); do [ -f "$R$f" ] || { echo "missing $f"; return 1; }; done; }
check "dpkg -L pokedexd lists every expected file" all_owned
check "every expected file is in place in the root" all_in_place
check "still no Swift once installed" no_swift
version_is() { in_root pokedexd --version | tee /dev/stderr | grep -qx "$UPSTREAM"; }
check "pokedexd --version" version_is
check "pokectl --help" bash -c "chroot '$R' /usr/bin/pokectl --help | grep -q 'USAGE: pokectl'"
man_pages() { zcat "$R/usr/share/man/man1/pokectl.1.gz" | grep -q '^\.TH' && zcat "$R/usr/share/man/man1/pokedexd.1.gz" | grep -q '^\.TH'; }
check "man pokectl and man pokedexd are there (gzip, as dh_compress left them)" man_pages
nothing_runs() { [ -z "$(chroot_pids)" ] && ! ls "$R"/etc/systemd/user/*/pokedex.service 2>/dev/null; }
check "nothing of the package runs or is enabled after install" nothing_runs

echo "== alice on a private session bus: pokectl activates the packaged pokedexd"
# A UID that is nobody's on this machine and has no cgroup here: her manager's cgroup is new.
UID_A=
for u in $(seq 59000 59999); do
    getent passwd "$u" >/dev/null || [ -e "$CGROOT/user.slice/user-$u.slice" ] || { UID_A=$u; break; }
done
[ -n "$UID_A" ] || { fail "no free UID in 59000-59999"; summary package; exit 1; }
in_root useradd -m -u "$UID_A" -s /bin/bash alice
python3 Tests/support/mockapi/mock_pokeapi.py --port 0 --port-file "$TMP/mock.port" >/dev/null 2>&1 &
MOCK_PID=$!
for _ in $(seq 100); do [ -s "$TMP/mock.port" ] && break; sleep 0.05; done
API=http://127.0.0.1:$(cat "$TMP/mock.port")/api/v2
# The service inherits the bus's environment: the mock instead of pokeapi.co.
ALICE_ENV=(POKEDEX_API_URL="$API" POKEDEX_SPRITE_HOSTS=127.0.0.1)
as_alice dbus-run-session -- sh -c 'pokectl list --per-page 5 && pokectl fav pikachu && pokectl favs --json && pokectl show 25 --color never' \
    >"$TMP/session.out" 2>&1
code=$?
sed 's/^/   | /' "$TMP/session.out" | head -40
check "pokectl list answers through D-Bus activation (exit $code)" test "$code" = 0
check "the list holds bulbasaur" grep -qi bulbasaur "$TMP/session.out"
favorite_kept() { grep -qs 25 "$R/home/alice/.local/share/pokedex/favorites.json"; }
check "alice's favorite is saved in her home (~/.local/share/pokedex/favorites.json)" favorite_kept
check "the cache is in her home (~/.cache/pokedex)" test -d "$R/home/alice/.cache/pokedex"
for _ in $(seq 50); do [ -z "$(chroot_pids)" ] && break; sleep 0.1; done
no_process() { [ -z "$(chroot_pids)" ]; }
check "the activated pokedexd ends with its bus" no_process

echo "== alice's own systemd --user: the unit in /usr/lib/systemd/user, activated by D-Bus"
GID_A=$(in_root id -g alice)
RT=/run/user/$UID_A
mkdir -p "$R$RT" && chown "$UID_A:$GID_A" "$R$RT" && chmod 0700 "$R$RT"
mount -t sysfs sysfs "$R/sys" && mount --bind "$CGROOT" "$R/sys/fs/cgroup"
CG=$CGROOT/user.slice/user-$UID_A.slice/user@$UID_A.service
for d in "$CGROOT/user.slice" "$CGROOT/user.slice/user-$UID_A.slice" "$CG"; do
    [ -d "$d" ] || { mkdir "$d" && CGROUPS_MADE+=("$d"); }
done
chown "$UID_A:$GID_A" "$CG" "$CG"/cgroup.procs "$CG"/cgroup.subtree_control "$CG"/cgroup.threads
ALICE_ENV=(XDG_RUNTIME_DIR="$RT" DBUS_SESSION_BUS_ADDRESS="unix:path=$RT/bus")
bash -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CG" chroot --userspec=alice:alice "$R" env -i HOME=/home/alice \
    USER=alice LOGNAME=alice SHELL=/bin/bash XDG_RUNTIME_DIR="$RT" PATH=/usr/bin:/bin systemd --user >"$TMP/manager.log" 2>&1 &
MANAGER=$!
for _ in $(seq 150); do [ -S "$R$RT/bus" ] && break; sleep 0.1; done
for _ in $(seq 100); do as_alice systemctl --user show-environment >/dev/null 2>&1 && break; sleep 0.1; done
check "alice's manager runs, with the user bus" test -S "$R$RT/bus"
[ "$last" = ok ] || tail -20 "$TMP/manager.log"
as_alice systemctl --user set-environment POKEDEX_API_URL="$API" POKEDEX_SPRITE_HOSTS=127.0.0.1
# apt while she is logged in: nothing of hers is started or enabled by it.
in_root apt-get install -y --reinstall "./tmp/$(basename "$DEB")" >"$TMP/reinstall.log" 2>&1 || tail -5 "$TMP/reinstall.log"
rm -f "$R/tmp/$(basename "$DEB")"
untouched() {
    [ "$(as_alice systemctl --user show -P ActiveState pokedex.service)" = inactive ] && ! pgrep -x pokedexd >/dev/null
}
check "apt-get install --reinstall with her manager running starts nothing of hers" untouched
not_enabled() { [ "$(as_alice systemctl --user is-enabled pokedex.service 2>&1)" = disabled ]; }
check "pokedex.service is not enabled for her (the package enables nothing)" not_enabled
unit_active() {
    [ "$(as_alice systemctl --user show -P ActiveState pokedex.service)" = active ] &&
        [ "$(as_alice systemctl --user show -P FragmentPath pokedex.service)" = /usr/lib/systemd/user/pokedex.service ]
}
try_unit() {  # what
    as_alice pokectl list --per-page 3 >"$TMP/unit.out" 2>&1
    local code=$?
    sed 's/^/   | /' "$TMP/unit.out" | head -6
    check "$1: pokectl list answers (exit $code)" test "$code" = 0
    check "$1: pokedex.service is active, from /usr/lib/systemd/user" unit_active
    [ "$last" = ok ] || { as_alice systemctl --user status pokedex.service --no-pager -n 20; tail -20 "$TMP/manager.log"; }
    as_alice pokectl status 2>&1 | grep -iE 'sandbox|landlock' | head -3 | sed 's/^/   | /'
}
try_unit "activated"
echo "-- pokedex-sandbox-setup, as a package user runs it (on PATH, no arguments)"
# The kernel refuses a new user namespace to a chrooted process, so here the probe leaves every
# group out, as on a kernel that refuses user namespaces; the unit must start all the same.
as_alice pokedex-sandbox-setup >"$TMP/sandbox.out" 2>&1
sed 's/^/   | /' "$TMP/sandbox.out"
said_each() {
    local t; for t in "$R"/usr/share/pokedexd/sandbox/*.conf; do
        grep -qE "^sandbox: $(basename "$t" .conf): (applied|left out)" "$TMP/sandbox.out" || { echo "nothing said of $t"; return 1; }
    done
    # What it kept, it wrote where the user's manager reads drop-ins for the /usr unit.
    local kept; kept=$(grep -c ': applied' "$TMP/sandbox.out")
    [ "$(ls "$R"/home/alice/.config/systemd/user/pokedex.service.d/sandbox-*.conf 2>/dev/null | wc -l)" = "$kept" ]
}
check "pokedex-sandbox-setup (no arguments) probes each group and keeps what applies in ~/.config" said_each
as_alice systemctl --user daemon-reload
as_alice systemctl --user stop pokedex.service
try_unit "with the drop-ins kept"
as_alice systemctl --user stop pokedex.service
as_alice systemctl --user exit 2>/dev/null
for _ in $(seq 100); do kill -0 "$MANAGER" 2>/dev/null || break; sleep 0.1; done
kill "$MANAGER" 2>/dev/null; wait "$MANAGER" 2>/dev/null; MANAGER=
for p in $(chroot_pids); do kill -9 "$p" 2>/dev/null; done
umount "$R/sys/fs/cgroup" "$R/sys"

echo "== debian/tests, as autopkgtest runs them (null runner, in the root)"
check "autopkgtest: debian/tests pass against the installed package" autopkgtest_in_root "$R"

echo "== apt-get remove, then purge"
in_root apt-get remove -y pokedexd >"$TMP/remove.log" 2>&1
check "apt-get remove pokedexd" grep -q 'Removing pokedexd' "$TMP/remove.log"
left() {  # paths of the package still in the root, but for directories another package owns
    while read -r p; do
        [ "$p" = /. ] && continue
        [ -e "$R$p" ] || continue
        [ -d "$R$p" ] && in_root dpkg-query -S "$p" >/dev/null 2>&1 && continue
        echo "$p"
    done <"$TMP/owned"
}
nothing_left() { ! left | grep .; }
check "remove leaves none of the package's files or directories" nothing_left
in_root apt-get purge -y pokedexd >"$TMP/purge.log" 2>&1
unknown() { ! in_root dpkg-query -W -f '${db:Status-Abbrev}' pokedexd 2>/dev/null | grep -q '[a-z]'; }
check "purge: dpkg no longer knows pokedexd" unknown
snapshot >"$TMP/after-purge"
# New since before the install: what the dependencies brought, apt's and dpkg's own records,
# and alice (her home, her account). Nothing may name pokedex or pokectl but her data.
comm -13 "$TMP/before-install" "$TMP/after-purge" | grep -iE 'pokedex|pokectl' | grep -v '^/home/alice/' >"$TMP/leftover"
check "purge leaves nothing of pokedexd outside alice's home" bash -c "! grep . '$TMP/leftover'"
check "alice's favorites survive purge (user data)" favorite_kept
summary package
