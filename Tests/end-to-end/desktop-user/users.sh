# The users, their managers and the checks on each running service (sourced by
# desktop-user-test.sh, where it was: it shares TMP, CGROOT, SWIFTBIN, MANAGERS, USERS and check.sh).

# A user with a home, the project cloned into it (the working tree as it is, and the release
# build's dependencies, so it builds offline), a planted key and root's git mirror settings.
make_user() {  # name home
    local u=$1 h=$2
    userdel -r "$u" >/dev/null 2>&1
    # SwiftPM locks "$h/pokedexd/.build" in /tmp/_home_<name>_…; one left by an earlier user of
    # this name belongs to an old uid, and the new user's build would stop on it.
    rm -rf "/tmp/$(tr / _ <<<"$h")"_* "/var/tmp/$(tr / _ <<<"$h")"_*
    useradd -m -d "$h" -s /bin/bash "$u" || return 1
    USERS+=("$u")
    git config --global --get-regexp '^url\.' 2>/dev/null | while read -r k v; do runuser -u "$u" -- git config --global --add "$k" "$v"; done
    git clone -q "$ROOT" "$h/pokedexd"
    git -C "$ROOT" ls-files -co --exclude-standard -z | tar -C "$ROOT" --null -T - -cf - | tar -C "$h/pokedexd" -xf -
    mkdir -p "$h/pokedexd/.build"
    for f in checkouts repositories workspace-state.json; do
        [ -e "$ROOT/.build/$f" ] && cp -a "$ROOT/.build/$f" "$h/pokedexd/.build/"
    done
    [ -f "$ROOT/Package.resolved" ] && cp "$ROOT/Package.resolved" "$h/pokedexd/"
    mkdir -p -m 0700 "$h/.ssh"
    echo "planted-secret-$RANDOM" >"$h/.ssh/id_planted"
    chmod 0600 "$h/.ssh/id_planted"
    [ -f "$h/.bashrc" ] || echo "# ~/.bashrc" >"$h/.bashrc"
    # The terminal the service's $TERMINAL names, where terminals are (visible in the mount
    # namespace too): says which unit ran it, and with what.
    printf '#!/bin/sh\nunit=$(sed -n "s|.*/\\([^/]*\\.service\\)$|\\1|p" /proc/self/cgroup)\necho "unit $unit: $*" >"$HOME/launched-terminal"\necho "token ${XDG_ACTIVATION_TOKEN:-none}" >>"$HOME/launched-terminal"\n' \
        >/usr/local/bin/pokedex-test-terminal
    chmod 0755 /usr/local/bin/pokedex-test-terminal
    chown -R "$u:" "$h"
    # A process of the user's, outside the service: its environ is what the service must not read.
    setpriv --reuid="$u" --regid="$u" --init-groups sleep infinity </dev/null >/dev/null 2>&1 &
    echo $! >"$TMP/sentinel-$u"
    disown $!
}

# Starts the user's own manager in a delegated cgroup: the launching shell moves itself into
# user@UID.service, then becomes the manager as the user. Extra args wrap the manager.
start_manager() {  # name home [wrapper…]
    local u=$1 h=$2; shift 2
    local uid; uid=$(id -u "$u")
    local rt=/run/user/$uid cg=$CGROOT/user.slice/user-$uid.slice/user@$uid.service
    rm -rf "$rt"; mkdir -p -m 0700 "$rt"; chown "$u:" "$rt"   # no stale bus socket from a manager before
    mkdir -p "$cg"; chown -R "$u:" "$cg"
    bash -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" runuser -u "$u" -- "$@" env -i HOME="$h" USER="$u" LOGNAME="$u" \
        SHELL=/bin/bash XDG_RUNTIME_DIR="$rt" PATH=/usr/local/bin:/usr/bin:/bin systemd --user >"$TMP/manager-$u.log" 2>&1 &
    MGR=$!
    MANAGERS+=("$uid:$MGR")
    for _ in $(seq 150); do [ -S "$rt/bus" ] && break; sleep 0.1; done
    [ -S "$rt/bus" ] || { echo "no user bus for $u:"; cat "$TMP/manager-$u.log"; return 1; }
    for _ in $(seq 100); do as_user "$u" "$h" systemctl --user show-environment >/dev/null 2>&1 && break; sleep 0.1; done
}

# POKEDEX_BUILD_LOCK: a lock file the builds (make install) take, on a machine shared by builds.
LOCK=()
[ -n "${POKEDEX_BUILD_LOCK:-}" ] && LOCK=(flock "$POKEDEX_BUILD_LOCK")
as_user() {  # name home command…
    local u=$1 h=$2; shift 2
    local uid; uid=$(id -u "$u")
    ${LOCKED:+"${LOCK[@]}"} runuser -u "$u" -- env -i HOME="$h" USER="$u" LOGNAME="$u" SHELL=/bin/bash LANG=C.UTF-8 TERM=dumb \
        XDG_RUNTIME_DIR=/run/user/$uid DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/$uid/bus \
        PATH="$h/.local/bin:$SWIFTBIN:/usr/local/bin:/usr/bin:/bin" ${EXTRA_ENV[@]+"${EXTRA_ENV[@]}"} "$@"
}
EXTRA_ENV=()

# The last doors' probes (sandbox_probes.h), each given the socket it tries to reach: every way
# to a new Unix socket, to a datagram one, and to a socket family the service has no use for.
STREAM_PROBES="unix-high unix-type-high"
DGRAM_PROBES="dgram-high pair-dgram pair-high pair-seqpacket pair-sendmsg pair-sendto held-dgram"
SOCKET_PROBES="io-uring raw packet netlink vsock"
door_probes() {
    local k
    for k in $STREAM_PROBES; do printf '%s:%s ' "$k" "$AGENT"; done
    for k in $DGRAM_PROBES; do printf '%s:%s ' "$k" "$DGRAM"; done
    for k in $SOCKET_PROBES; do printf '%s:- ' "$k"; done
}

# The service's environment, from the user's manager: now, and in environment.d for the next
# manager (a restart of the manager starts the enabled unit before anyone could set it).
service_env() {  # name home
    local vars=(POKEDEX_API_URL="$API" POKEDEX_SPRITE_HOSTS=127.0.0.1 TERMINAL=/usr/local/bin/pokedex-test-terminal
                POKEDEX_SANDBOX_SELFCHECK="read:$2/.ssh/id_planted write:$2/.bashrc connect:$OTHER connect:443 read:$VISIBLE read:/proc/1/cmdline read:/proc/$(cat "$TMP/sentinel-$1")/environ read:/proc/$(cat "$TMP/sentinel-$1")/maps unix:$AGENT unix:/run/user/$(id -u "$1")/bus $(door_probes)")
    as_user "$1" "$2" systemctl --user set-environment "${vars[@]}"
    as_user "$1" "$2" mkdir -p "$2/.config/environment.d"
    printf '%s\n' "${vars[@]}" | sed 's/=\(.*\)/="\1"/' | as_user "$1" "$2" tee "$2/.config/environment.d/50-pokedex-test.conf" >/dev/null
}

# What each environment reports, and the behaviour checks on the running service.
verify() {  # label name home cachedir [namespaces yes|no] [unit]
    local label=$1 u=$2 h=$3 cache=$4 ns=$5 unit=${6:-pokedex.service}
    local state; state=$(as_user "$u" "$h" systemctl --user show -p ActiveState,SubState,Result,ExecMainStatus --value "$unit" | paste -sd' ')
    check "$label: $unit is active ($state)" as_user "$u" "$h" systemctl --user -q is-active "$unit"
    local exposure; exposure=$(as_user "$u" "$h" systemd-analyze --user security "$unit" 2>/dev/null | grep -o "exposure level for $unit: [0-9.]* [A-Z]*")
    echo "     $label: unit $state; ${exposure:-exposure not reported}"
    local out; out=$(as_user "$u" "$h" timeout 20 pokectl list 2>&1)
    check "$label: pokectl list answers" grep -qi bulbasaur <<<"$out"
    [ "$last" = ok ] || echo "$out" | head -3
    local status; status=$(as_user "$u" "$h" pokectl status 2>&1 | grep '^sandbox')
    echo "     $label: $status"
    check "$label: Landlock in effect: ${status#sandbox }" grep -q 'landlock ABI [0-9]* (files, tcp, scopes)' <<<"$status"
    check "$label: namespaces: $ns" grep -q "namespaces: $ns" <<<"$status"
    local report=$cache/sandbox-self-check
    for _ in $(seq 20); do [ -s "$report" ] && break; sleep 0.1; done
    sed 's/^/     /' "$report" 2>/dev/null
    check "$label: cannot read the key planted in ~/.ssh" grep -q "read $h/.ssh/id_planted: denied" "$report"
    check "$label: cannot write ~/.bashrc" grep -q "write $h/.bashrc: denied" "$report"
    check "$label: cannot connect to 127.0.0.1:$OTHER (not its API's)" grep -q "connect $OTHER: denied" "$report"
    check "$label: cannot connect to 127.0.0.1:443, listening (not its API's port)" grep -q "connect 443: denied (Permission denied)" "$report"
    check "$label: no new Unix socket: not to a listening agent's ($AGENT)" \
        grep -q "unix $AGENT: denied (Address family not supported by protocol)" "$report"
    check "$label: no new Unix socket: not even a second connection to its own bus" \
        grep -q "unix /run/user/$(id -u "$u")/bus: denied (Address family not supported by protocol)" "$report"
    check "$label: pokectl status says so: no new unix sockets" grep -q "no new unix sockets" <<<"$status"
    local k
    for k in $STREAM_PROBES $DGRAM_PROBES $SOCKET_PROBES; do
        check "$label: last door shut: $(grep -o "self-check: $k .*" "$report" | cut -d' ' -f2-)" \
            grep -q "self-check: $k [^ ]*: denied" "$report"
    done
    check "$label: ... and nothing reached the doors' sockets: $(paste -sd';' "$TMP/doors.log" 2>/dev/null)" \
        test ! -s "$TMP/doors.log"
    local sentinel; sentinel=$(cat "$TMP/sentinel-$u")
    check "$label: cannot read the environment of the user's other processes (/proc/$sentinel/environ)" \
        grep -q "read /proc/$sentinel/environ: denied (Permission denied)" "$report"
    check "$label: ... nor their memory maps (/proc/$sentinel/maps)" \
        grep -q "read /proc/$sentinel/maps: denied (Permission denied)" "$report"
    # What it starts for the desktop, the user manager starts, outside the sandbox: this
    # terminal writes in the home, which the service itself cannot.
    # KRunner's way: an activation token, then Run on a result, on one connection.
    rm -f "$h/launched-terminal"
    as_user "$u" "$h" python3 -c 'import dbus, sys
k = dbus.Interface(dbus.SessionBus().get_object("io.github.pokedexd.Pokedex1", "/io/github/pokedexd/KRunner"), "org.kde.krunner1")
k.SetActivationToken(sys.argv[1]); k.Run("25", "")' "token-$u"
    for _ in $(seq 50); do [ "$(wc -l 2>/dev/null <"$h/launched-terminal")" = 2 ] && break; sleep 0.1; done
    echo "     $label: the terminal KRunner's Run opened: $(paste -sd' ' "$h/launched-terminal" 2>/dev/null)"
    check "$label: KRunner's Run opens that card, outside the sandbox, as a unit of the user manager" \
        grep -q "^unit app-pokedexd-[0-9a-f]*\.service: -e /.*/pokectl browse --open 25$" "$h/launched-terminal"
    check "$label: ... with the caller's activation token" grep -qx "token token-$u" "$h/launched-terminal"
    # Where the mount namespace already hides ~/.ssh, this one shows Landlock itself at work:
    # a world-readable file the namespace leaves visible, refused with EACCES.
    check "$label: Landlock refuses a world-readable file outside its rules ($VISIBLE)" \
        grep -q "read $VISIBLE: denied (Permission denied)" "$report"
    local fav; fav=$(as_user "$u" "$h" pokectl fav pikachu 2>&1)
    check "$label: favorites are writable: $fav" grep -qi "pikachu" <<<"$fav"
}
