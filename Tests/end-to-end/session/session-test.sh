#!/usr/bin/env bash
# End-to-end test in a real desktop session: a private `systemd --user` with a throwaway
# HOME and runtime dir, the project's mock PokeAPI, and the installed service:
# make install, start, busctl, pokectl fav/favs, restart, stop + D-Bus activation, uninstall.
set -uo pipefail
cd "$(dirname "$0")/../../.."

# The unit's sandbox needs what a systemd-booted machine has: /run is a mount point (else the
# API file systems ProtectKernelTunables= brings put an empty tmpfs on /run, hiding the binary
# installed under it: 203/EXEC), and /run/systemd/inaccessible holds the nodes root's
# managers mount over hidden paths (else 226/NAMESPACE). In a container started without
# systemd, run in a private mount namespace that has both; the host is left as it is.
if [ -z "${POKEDEX_SESSION_NS:-}" ] && { ! mountpoint -q /run || [ ! -d /run/systemd/inaccessible ]; }; then
    exec env POKEDEX_SESSION_NS=1 unshare -m --propagation private \
        sh -c 'mountpoint -q /run || mount --bind /run /run
               [ -d /run/systemd/inaccessible ] || { mkdir -p /run/systemd && mount -t tmpfs -o mode=0755 tmpfs /run/systemd; }
               exec bash "$0" "$@"' "$PWD/Tests/end-to-end/session/session-test.sh" "$@"
fi
ROOT=$PWD
passed=0
failed=0

ok()   { passed=$((passed + 1)); echo "ok   $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }

# A runtime dir outside /tmp, so a unit with PrivateTmp= still sees the bus socket.
mkdir -p /run/systemd/system
BASE=$(mktemp -d -p /run pokedex-session.XXXXXX)
chmod 0700 "$BASE"
export XDG_RUNTIME_DIR=$BASE/runtime HOME=$BASE/home
mkdir -m 0700 -p "$XDG_RUNTIME_DIR" "$HOME"
unset DBUS_SESSION_BUS_ADDRESS POKEDEX_API_URL
# A real session's bus finds ~/.local/share/dbus-1/services through the passwd home; this
# throwaway HOME is not root's passwd home, so name the XDG dirs for the manager and the bus.
export XDG_DATA_HOME=$HOME/.local/share XDG_CACHE_HOME=$HOME/.cache XDG_CONFIG_HOME=$HOME/.config

cleanup() {
    systemctl --user stop pokedex.service >/dev/null 2>&1
    [ -n "${SYSTEMD_PID:-}" ] && kill "$SYSTEMD_PID" 2>/dev/null && wait "$SYSTEMD_PID" 2>/dev/null
    [ -n "${MOCK_PID:-}" ] && kill "$MOCK_PID" 2>/dev/null
    rm -rf "$BASE"
}
trap cleanup EXIT

systemd --user >"$BASE/systemd.log" 2>&1 &
SYSTEMD_PID=$!
for _ in $(seq 100); do [ -S "$XDG_RUNTIME_DIR/bus" ] && break; sleep 0.1; done
if [ ! -S "$XDG_RUNTIME_DIR/bus" ]; then
    echo "no user bus at $XDG_RUNTIME_DIR/bus; systemd --user said:"; cat "$BASE/systemd.log"
    echo "session: 0 passed, 1 failed"; exit 1
fi
# The nodes PID 1 makes at boot, as this manager made them for itself.
[ -d /run/systemd/inaccessible ] || cp -a "$XDG_RUNTIME_DIR/systemd/inaccessible" /run/systemd/
export DBUS_SESSION_BUS_ADDRESS=unix:path=$XDG_RUNTIME_DIR/bus

python3 Tests/support/mockapi/mock_pokeapi.py --port 0 --port-file "$BASE/mock.port" >/dev/null &
MOCK_PID=$!
for _ in $(seq 100); do [ -s "$BASE/mock.port" ] && break; sleep 0.05; done
API=http://127.0.0.1:$(cat "$BASE/mock.port")/api/v2
# The unit and activated services inherit the manager's environment.
systemctl --user set-environment POKEDEX_API_URL="$API" POKEDEX_SPRITE_HOSTS=127.0.0.1

BUSCALL=(busctl --user call io.github.pokedexd.Pokedex1 /io/github/pokedexd/Pokedex1 io.github.pokedexd.Pokedex1)
POKECTL=$HOME/.local/bin/pokectl

# 1. make install (builds in release mode, installs under ~/.local, enables and starts the unit)
if make -s install >"$BASE/install.log" 2>&1; then ok "make install"; else fail "make install:"; cat "$BASE/install.log"; fi
for f in .local/bin/pokedexd .local/bin/pokectl .config/systemd/user/pokedex.service \
         .local/share/dbus-1/services/io.github.pokedexd.Pokedex1.service .local/share/dbus-1/services/io.github.pokedexd.Launcher1.service \
         .local/share/dbus-1/interfaces/io.github.pokedexd.Pokedex1.xml \
         .local/share/bash-completion/completions/pokectl .local/share/zsh/site-functions/_pokectl \
         .local/share/fish/vendor_completions.d/pokectl.fish \
         .local/share/man/man1/pokectl.1 .local/share/man/man1/pokedexd.1 \
         .local/share/doc/pokedexd/examples/waybar/pokedex-favorite .local/share/doc/pokedexd/examples/conky/pokedex-conky \
         .local/share/doc/pokedexd/examples/rofi/pokedex-pick .local/share/doc/pokedexd/examples/fastfetch/pokedex-fetch; do
    check "installed $f" test -e "$HOME/$f"
done

# 2. start, is-active
systemctl --user start pokedex
check "systemctl --user is-active pokedex" systemctl --user -q is-active pokedex

# The sandbox takes effect on the running service (read from /proc, not from the unit file).
pid=$(systemctl --user show -p MainPID --value pokedex)
mgr=$SYSTEMD_PID
status() { awk -v k="$1:" '$1==k {print $2}' /proc/$pid/status; }
# The mount the service sees at a path: the deepest mount point above it, the last one stacked
# there. Prints "options root fstype".
mnt() {
    awk -v p="$1" '{ m = $5; if (p == m || m == "/" || index(p, m "/") == 1) if (length(m) >= best) {
                         best = length(m); for (i = 7; $i != "-"; i++) ; line = $6 " " $4 " " $(i + 1) } }
                   END { print line }' /proc/$pid/mountinfo
}
ro()     { case ",$(mnt "$1" | cut -d' ' -f1)," in *,ro,*) return 0;; *) return 1;; esac; }
rw()     { case ",$(mnt "$1" | cut -d' ' -f1)," in *,rw,*) return 0;; *) return 1;; esac; }
fstype() { [ "$(mnt "$1" | cut -d' ' -f3)" = "$2" ]; }
from()   { [[ "$(mnt "$1" | cut -d' ' -f2)" == $2 ]]; }  # the mount's source matches a pattern
# No file under $1, as the service sees it, but in its own directories (mounted back in).
empty()  { [ -z "$(find "/proc/$pid/root$1" -mindepth 1 \( -path "*$XDG_CACHE_HOME/pokedex" -o -path "*$XDG_DATA_HOME/pokedex" \) -prune -o ! -type d -print)" ]; }
devices_ok() { fstype /dev tmpfs && [ -c "/proc/$pid/root/dev/null" ] && [ -z "$(find "/proc/$pid/root/dev" -type b)" ]; }
check "NoNewPrivileges: NoNewPrivs=$(status NoNewPrivs)" test "$(status NoNewPrivs)" = 1
check "seccomp filters (SystemCallFilter, RestrictAddressFamilies, ProtectClock, …): $(status Seccomp_filters)" test "$(status Seccomp)" = 2
check "UMask=0077: $(status Umask)" test "$(status Umask)" = 0077
check "PrivateUsers: own user namespace" test "$(readlink /proc/$pid/ns/user)" != "$(readlink /proc/$mgr/ns/user)"
check "PrivateUsers: one id mapped: $(tr -s ' ' <"/proc/$pid/uid_map")" test "$(wc -l <"/proc/$pid/uid_map")" = 1 -a "$(awk '{print $3}' "/proc/$pid/uid_map")" = 1
check "ProtectHostname: own UTS namespace" test "$(readlink /proc/$pid/ns/uts)" != "$(readlink /proc/$mgr/ns/uts)"
check "PrivateIPC: own IPC namespace" test "$(readlink /proc/$pid/ns/ipc)" != "$(readlink /proc/$mgr/ns/ipc)"
check "PrivateMounts: own mount namespace" test "$(readlink /proc/$pid/ns/mnt)" != "$(readlink /proc/$mgr/ns/mnt)"
check "CapabilityBoundingSet=: CapBnd=$(status CapBnd) CapEff=$(status CapEff)" test "$(status CapBnd)" = 0000000000000000 -a "$(status CapEff)" = 0000000000000000
check "ProtectSystem=strict: / read-only" ro /
check "ProtectSystem=strict: /usr read-only" ro /usr/bin
check "ReadOnlyPaths=/run: /run read-only" ro /run
home_protected() { ro "$HOME" || fstype "$HOME" tmpfs; }  # read-only, or (under /home) an empty tmpfs
check "home outside its own directories read-only or hidden: $(mnt "$HOME")" home_protected
check "ProtectHome=tmpfs: /root is an empty tmpfs (but for its own directories)" eval 'fstype /root tmpfs && empty /root'
check "ProtectHome=tmpfs: /home is an empty tmpfs (but for its own directories)" eval 'fstype /home tmpfs && empty /home'
check "CacheDirectory=: $XDG_CACHE_HOME/pokedex writable" rw "$XDG_CACHE_HOME/pokedex"
check "BindPaths=: $XDG_DATA_HOME/pokedex writable" rw "$XDG_DATA_HOME/pokedex"
check "BindReadOnlyPaths=: the bus socket, read-only" ro "$XDG_RUNTIME_DIR/bus"
check "PrivateTmp: own /tmp: $(mnt /tmp | cut -d' ' -f2)" from /tmp '*systemd-private-*-pokedex.service-*'
check "PrivateTmp: own /var/tmp" from /var/tmp '*systemd-private-*-pokedex.service-*'
check "InaccessiblePaths=/dev/shm: $(mnt /dev/shm | cut -d' ' -f2)" from /dev/shm '*inaccessible/dir'
check "PrivateDevices: /dev is a tmpfs with /dev/null and no block device" devices_ok
check "ProtectKernelTunables: /proc/sys read-only" ro /proc/sys
check "ProtectKernelTunables: /sys read-only" ro /sys
check "ProtectControlGroups: /sys/fs/cgroup read-only" ro /sys/fs/cgroup
check "ProtectKernelLogs: /proc/kmsg hidden: $(mnt /proc/kmsg | cut -d' ' -f2)" from /proc/kmsg '*inaccessible/reg'
for d in /usr/lib/modules /lib/modules; do
    [ -d "$d" ] && { check "ProtectKernelModules: $d hidden" from "$d" '*inaccessible*'; break; }
done
check "KeyringMode=private: its own session keyring (invocation_id key)" grep -q ' invocation_id: ' /proc/keys
# Bounded work: the manager holds the limits (enforced where the memory and pids controllers
# are delegated to the user manager; read back here either way).
check "MemoryMax=192M: $(systemctl --user show -p MemoryMax --value pokedex)" test "$(systemctl --user show -p MemoryMax --value pokedex)" = $((192 << 20))
check "TasksMax=256: $(systemctl --user show -p TasksMax --value pokedex)" test "$(systemctl --user show -p TasksMax --value pokedex)" = 256
check "threads well under TasksMax: $(status Threads)" test "$(status Threads)" -lt 64

# 3. busctl ListPage
out=$("${BUSCALL[@]}" ListPage uu 0 20 2>&1)
check "busctl ListPage uu 0 20: $(echo "$out" | cut -c1-60)…" grep -q '^ua(ussb) 46 20 1 "bulbasaur"' <<<"$out"
check "busctl ListPage ends with raticate" grep -q '20 "raticate"' <<<"$out"

# 4. pokectl fav, favs --json
out=$("$POKECTL" fav pikachu 2>&1)
check "pokectl fav pikachu: $out" grep -qi "pikachu added to favorites" <<<"$out"
out=$("$POKECTL" favs --json)
check "pokectl favs --json shows pikachu" grep -q '"name":"pikachu"' <<<"$out"

# 5. restart keeps the favorite
systemctl --user restart pokedex
check "active after restart" systemctl --user -q is-active pokedex
out=$("$POKECTL" favs --json)
check "favorite survives restart" grep -q '"name":"pikachu"' <<<"$out"

# 6. stop; pokectl list activates it again through D-Bus
systemctl --user stop pokedex
check "inactive after stop" bash -c '! systemctl --user -q is-active pokedex'
out=$("$POKECTL" list 2>&1)
check "pokectl list after stop (D-Bus activation)" grep -qi "bulbasaur" <<<"$out" || { echo "$out"; journalctl --user -u pokedex --no-pager 2>/dev/null | tail -5; systemctl --user status pokedex --no-pager | tail -5; }
check "activation started pokedex.service" systemctl --user -q is-active pokedex
"$POKECTL" status >/dev/null
check "pokectl status exits 0 while running" test $? -eq 0

# Idle exit: it releases its name and exits cleanly (not a failure), and the next call brings it back.
systemctl --user set-environment POKEDEX_IDLE_TIMEOUT=1
systemctl --user restart pokedex
sleep 2.5
check "exits after 1 s idle" bash -c '! systemctl --user -q is-active pokedex'
check "idle exit is not a failure" bash -c '! systemctl --user -q is-failed pokedex'
out=$("$POKECTL" search pika --json 2>&1)
check "next call after idle exit activates it" grep -q '"name":"pikachu"' <<<"$out"
systemctl --user unset-environment POKEDEX_IDLE_TIMEOUT

# The watchdog: the loop pings the manager (WatchdogSec=), so an idle service lives on, and a
# stopped one (SIGSTOP: its loop cannot ping) is killed and restarted with its favorites. A
# drop-in shortens the interval to 3 s for the test.
check "the unit asks for a watchdog: WatchdogUSec=$(systemctl --user show -p WatchdogUSec --value pokedex)" \
    test "$(systemctl --user show -p WatchdogUSec --value pokedex)" = 30s
wd=$HOME/.config/systemd/user/pokedex.service.d/zz-watchdog-test.conf
mkdir -p "$(dirname "$wd")"
printf '[Service]\nWatchdogSec=3\nTimeoutAbortSec=2\n' >"$wd"
systemctl --user daemon-reload
systemctl --user restart pokedex
pid=$(systemctl --user show -p MainPID --value pokedex)
sleep 8
check "idle for 8 s under a 3 s watchdog: the same process (the loop pings)" \
    test "$(systemctl --user show -p MainPID --value pokedex)" = "$pid"
restarts=$(systemctl --user show -p NRestarts --value pokedex)
kill -STOP "$pid"
t0=$(date +%s%N)
new=$pid
# WatchdogSec + TimeoutAbortSec + RestartSec, and a few seconds for the start.
for _ in $(seq 150); do
    new=$(systemctl --user show -p MainPID --value pokedex)
    [ "$new" != "$pid" ] && [ "$new" != 0 ] && systemctl --user -q is-active pokedex && break
    sleep 0.1
done
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check "a stopped service is restarted by its manager in $ms ms (3 s + 2 s + 2 s allowed, and the start)" \
    bash -c "[ '$new' != '$pid' ] && [ '$new' != 0 ] && [ $ms -lt 11000 ]"
check "the restart is counted: NRestarts $restarts -> $(systemctl --user show -p NRestarts --value pokedex)" \
    test "$(systemctl --user show -p NRestarts --value pokedex)" -gt "$restarts"
out=$("$POKECTL" favs --json 2>&1)
check "favorites intact after the watchdog's restart" grep -q '"name":"pikachu"' <<<"$out"
kill -CONT "$pid" 2>/dev/null
rm -f "$wd"
systemctl --user daemon-reload
systemctl --user restart pokedex

# pokectl sync: everything for offline use, plain progress lines when not on a terminal
out=$("$POKECTL" sync 2>&1)
check "pokectl sync: $(echo "$out" | tail -1)" grep -q "46 Pokémon ready offline" <<<"$out"
out=$("$POKECTL" sync --json 2>&1)
check "pokectl sync --json: $out" grep -q '"complete":46,"failed":0' <<<"$out"
out=$("$POKECTL" status --json)
check "pokectl status shows online" grep -q '"online":true' <<<"$out"

# Man pages and an installed example, against the service systemd runs
out=$(MANPATH=$HOME/.local/share/man man -w pokectl pokedexd 2>&1 | tr '\n' ' ')
check "man finds pokectl(1) and pokedexd(1) under the prefix: $out" grep -q "man1/pokectl.1 .*man1/pokedexd.1" <<<"$out"
out=$(PATH=$HOME/.local/bin:$PATH "$HOME/.local/share/doc/pokedexd/examples/waybar/pokedex-favorite" 2>&1)
check "installed waybar example: $out" grep -q '"alt":"pikachu"' <<<"$out"
out=$("$POKECTL" show --random --favorite --json 2>&1)
check "a fetch tool's sprite through the installed pokectl: $out" grep -q '"name":"pikachu"' <<<"$out"
desktop=$HOME/.local/share/applications/io.github.pokedexd.Pokedex1.desktop
check "the desktop entry is installed and valid" desktop-file-validate "$desktop"
check "the desktop entry runs pokectl browse in a terminal" grep -qx 'Exec=pokectl browse' "$desktop"

# Errors and exit codes through the installed pokectl
"$POKECTL" show pikachuu >/dev/null 2>&1; code=$?
check "pokectl show pikachuu exits 1 (got $code)" test $code -eq 1
"$POKECTL" list --per-page 0 >/dev/null 2>&1; code=$?
check "pokectl list --per-page 0 exits 2 (got $code)" test $code -eq 2

# 7. make uninstall leaves nothing behind
if make -s uninstall >"$BASE/uninstall.log" 2>&1; then ok "make uninstall"; else fail "make uninstall:"; cat "$BASE/uninstall.log"; fi
left=$(cd "$HOME" && find .local .config -type f 2>/dev/null | grep -v '^.local/share/pokedex/' | grep -E 'pokedex|pokectl|Pokedex1' || true)
check "nothing left after uninstall: ${left:-none}" test -z "$left"
check "unit gone from the manager" bash -c '! systemctl --user cat pokedex.service >/dev/null 2>&1'
"$POKECTL" status >/dev/null 2>&1
check "favorites data kept (user data is not the package's)" test -s "$HOME/.local/share/pokedex/favorites.json"

echo "session: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
