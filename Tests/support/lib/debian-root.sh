# Sourced by the package tests: minimal Debian roots from debootstrap, cached as tarballs.
#   debian_mirror                     the first Debian mirror this machine's apt uses
#   debian_root SUITE DIR [PACKAGES…] DIR: a fresh minbase SUITE, with PACKAGES installed; the
#                                     root (with them) is cached in $CACHE, keyed by the list;
#                                     with DEBIAN_BACKPORTS=1, SUITE-backports in its sources
#   chroot_run DIR COMMAND…           COMMAND in DIR as root, with a clean environment
#   own_namespaces NAME SCRIPT ARGS…  refuses to go on but as root; else runs SCRIPT again in
#                                     mount and PID namespaces of its own (once: it returns there)
# A sid index is often past its Valid-Until by this machine's clock: apt is told not to mind.
# Needs root, $TMP (scratch) and $CACHE; says what it did on stdout.

debian_mirror() {
    local m
    m=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
        grep -oE 'https?://[^ ]+/debian/?( |$)' | grep -v security | head -1 | tr -d ' ')
    echo "${POKEDEX_DEBIAN_MIRROR:-${m:-http://deb.debian.org/debian}}"
}

# A test's mounts and every process it starts (a mock, dbus, a user's manager) end with it,
# however it ends.
own_namespaces() {
    local name=$1 script=$2; shift 2
    [ "$(id -u)" = 0 ] || { echo "$name: needs root (debootstrap, chroot); 0 passed, 1 failed"; exit 1; }
    [ -n "${POKEDEX_PACKAGE_NS:-}" ] || POKEDEX_PACKAGE_NS=1 exec unshare --mount --propagation private --pid --fork \
        --kill-child --mount-proc bash "$script" "$@"
}

chroot_run() {
    local dir=$1; shift
    chroot "$dir" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive HOME=/root "$@"
}

# The host's name resolution and its own apt settings (mirror proxies: the files no package
# owns; a package's would meet its own in the root at a conffile prompt), the suite's sources.
debian_root_apt() {  # DIR SUITE
    local f
    cp /etc/hosts /etc/resolv.conf "$1/etc/" 2>/dev/null
    for f in /etc/apt/apt.conf.d/*; do
        dpkg -S "$f" >/dev/null 2>&1 || cp "$f" "$1/etc/apt/apt.conf.d/"
    done
    echo 'Acquire::Check-Valid-Until "false";' >"$1/etc/apt/apt.conf.d/10pokedex-no-valid-until"
    echo "deb $(debian_mirror) $2 main" >"$1/etc/apt/sources.list"
    # SUITE-backports too, when asked (DEBIAN_BACKPORTS=1): apt takes nothing from it unless
    # told (PACKAGE/SUITE-backports).
    [ -z "${DEBIAN_BACKPORTS:-}" ] || echo "deb $(debian_mirror) $2-backports main" >>"$1/etc/apt/sources.list"
}

debian_root() {  # SUITE DIR [PACKAGES…]
    local suite=$1 dir=$2; shift 2
    local key tarball start
    key=$(echo "$*" | md5sum | cut -c1-12)
    tarball=$CACHE/$suite-minbase${1:+-$key}.tar
    mkdir -p "$CACHE" "$dir"
    if [ -s "$tarball" ]; then
        echo "from the cached root $tarball ($(date -r "$tarball" '+%F %T'))"
    else
        start=$(date +%s)
        if [ -n "${1:-}" ]; then
            debian_root "$suite" "$dir" || return 1
        else
            debootstrap --variant=minbase "$suite" "$dir" "$(debian_mirror)" >"$TMP/debootstrap-$suite.log" 2>&1 \
                || { tail -20 "$TMP/debootstrap-$suite.log"; return 1; }
        fi
        debian_root_apt "$dir" "$suite"
        if [ -n "${1:-}" ]; then
            # Some maintainer scripts need /proc (appstream's, lintian pulls it in).
            mount -t proc proc "$dir/proc"
            { chroot_run "$dir" apt-get update -qq && chroot_run "$dir" apt-get install -y --no-install-recommends \
                -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "$@"; } \
                >"$TMP/apt-$suite.log" 2>&1
            local code=$?
            chroot_run "$dir" apt-get clean
            umount "$dir/proc"
            [ "$code" = 0 ] || { tail -20 "$TMP/apt-$suite.log"; return 1; }
        fi
        tar -C "$dir" -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
        echo "debootstrap --variant=minbase $suite${1:+ + $*}: $(( $(date +%s) - start )) s, cached in $tarball"
        return 0
    fi
    tar -C "$dir" -xf "$tarball"
    debian_root_apt "$dir" "$suite"
}

# debian/tests as autopkgtest runs them, in DIR with the package already installed: the
# source tree (what git tracks) in DIR/src, autopkgtest installed from the suite, run with the
# null runner inside the root (-B: the installed binaries, nothing built). Prints its summary.
autopkgtest_in_root() {  # DIR
    local dir=$1
    rm -rf "$dir/src" && mkdir -p "$dir/src"
    (cd "$ROOT" && git ls-files -z | xargs -0 cp --parents -t "$dir/src")
    chroot_run "$dir" apt-get install -y --no-install-recommends autopkgtest >"$TMP/autopkgtest-install.log" 2>&1 \
        || { tail -5 "$TMP/autopkgtest-install.log"; return 1; }
    chroot_run "$dir" sh -c 'cd /src && autopkgtest -B --summary-file=/tmp/autopkgtest.summary /src -- null' \
        >"$TMP/autopkgtest.log" 2>&1
    local code=$?
    rm -rf "$dir/src"
    if [ "$code" = 0 ]; then
        grep -E '^(--|cli|autopkgtest \[)' "$TMP/autopkgtest.log" | tail -25 | sed 's/^/   | /'
    else
        tail -60 "$TMP/autopkgtest.log" | sed 's/^/   | /'
    fi
    cat "$dir/tmp/autopkgtest.summary" 2>/dev/null | sed 's/^/   summary: /'
    return "$code"
}
