#!/usr/bin/env bash
# The README's `make install` as real users do it, each with its own `systemd --user` in a
# delegated cgroup (as root, like the session test):
#   (a) a desktop user from `useradd -m`, HOME in /home, installing from a clone in its home;
#   (b) the same user's manager where the kernel refuses user namespaces (no-userns.c, seccomp);
#   (c) a unit that cannot start (ExecStart=/bin/false): pokectl says why within 5 s;
#   (d) a Silverblue-style home: HOME=/var/home/NAME (with a /home/NAME link), custom XDG dirs.
# Each running service is checked by behaviour: it answers `pokectl list`, and its test-only
# self-check (POKEDEX_SANDBOX_SELFCHECK) cannot read a file planted in ~/.ssh, cannot write
# ~/.bashrc and cannot connect to a listening port on 127.0.0.1 that is not its API's. Each
# prints the exposure figure and the sandbox it ran with.
set -uo pipefail
cd "$(dirname "$0")/../../.."
ROOT=$PWD
[ "$(id -u)" = 0 ] || { echo "desktop-user: needs root (it creates users); 0 passed, 1 failed"; exit 1; }
# What PID 1 makes at boot and every manager's namespace setup needs: the directory where a
# unit's root is assembled (without it, every mount option fails with 226/NAMESPACE). A
# container started without systemd lacks it; an empty directory, left in place.
mkdir -p /run/systemd/system /run/systemd/unit-root
TMP=$(mktemp -d -p /run pokedex-desktop.XXXXXX)
chmod 0755 "$TMP"
source Tests/support/lib/check.sh

CGROOT=/sys/fs/cgroup
[ -f $CGROOT/cgroup.controllers ] || CGROOT=/sys/fs/cgroup/unified
SWIFTBIN=$(dirname "$(command -v swift)")
MANAGERS=() USERS=() LISTENER= MOCK= DOORS=

# Stops a user's manager by PID, kills what is left in its cgroup by PID, removes the cgroups.
stop_manager() {  # uid pid
    local uid=$1 pid=$2 cg=$CGROOT/user.slice/user-$1.slice
    # The manager is runuser's child: stopped first, so runuser reaps it (no zombie left in
    # the cgroup), then runuser ends by itself.
    local mgr; mgr=$(pgrep -P "$pid" 2>/dev/null)
    [ -n "$mgr" ] && kill "$mgr" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    if [ -d "$cg" ]; then
        for p in $(find "$cg" -name cgroup.procs -exec cat {} + 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
        sleep 0.2
        find "$cg" -depth -type d -exec rmdir {} + 2>/dev/null
    fi
}
cleanup() {
    for m in "${MANAGERS[@]-}"; do [ -n "$m" ] && stop_manager ${m%:*} ${m#*:}; done
    for u in "${USERS[@]-}"; do
        [ -n "$u" ] || continue
        local uid; uid=$(id -u "$u" 2>/dev/null) || continue
        for p in $(ps -o pid= -u "$uid" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done  # the throwaway user's, by PID
        find /tmp /var/tmp -maxdepth 1 -user "$uid" -exec rm -rf {} + 2>/dev/null  # SwiftPM's locks, say
        userdel -r "$u" >/dev/null 2>&1
        rm -rf "/run/user/$uid"
    done
    rm -f /home/21dsilver
    rm -rf /var/lib/pokedex-desktop-test
    rm -f /usr/local/bin/pokedex-test-terminal
    rm -rf /var/home/21dsilver
    rmdir /var/home 2>/dev/null
    [ -n "$LISTENER" ] && kill "$LISTENER" 2>/dev/null
    [ -n "$MOCK" ] && kill "$MOCK" 2>/dev/null
    [ -n "$DOORS" ] && kill "$DOORS" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT

# The API stand-in, and a listening port that is not the API's.
python3 Tests/support/mockapi/mock_pokeapi.py --port 0 --port-file "$TMP/mock.port" >/dev/null 2>&1 &
MOCK=$!
python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
while True: c, _ = s.accept(); c.close()' "$TMP/other.port" &
LISTENER=$!
for _ in $(seq 100); do [ -s "$TMP/mock.port" ] && [ -s "$TMP/other.port" ] && break; sleep 0.05; done
API=http://127.0.0.1:$(cat "$TMP/mock.port")/api/v2
VISIBLE=/var/lib/pokedex-desktop-test/visible
mkdir -p "${VISIBLE%/*}" && echo "readable by anyone" >"$VISIBLE" && chmod 0755 "${VISIBLE%/*}" && chmod 0644 "$VISIBLE"
OTHER=$(cat "$TMP/other.port")
# Doors a confined service must find shut: a Unix socket anyone may connect to (an agent's,
# say), a Unix datagram socket anyone may send to (a logger's), and a well-known TCP port that
# is not its API's, all listening. Whatever reaches one is written to doors.log: the probes'
# own word is checked against it.
AGENT=${VISIBLE%/*}/agent.sock DGRAM=${VISIBLE%/*}/dgram.sock
python3 -c 'import os, select, socket, sys
u = socket.socket(socket.AF_UNIX); u.bind(sys.argv[1]); os.chmod(sys.argv[1], 0o666); u.listen(16)
d = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); d.bind(sys.argv[2]); os.chmod(sys.argv[2], 0o666)
t = socket.socket(); t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); t.bind(("127.0.0.1", 443)); t.listen(16)
log = open(sys.argv[4], "a", buffering=1)
open(sys.argv[3], "w").write("up")
while True:
    for s in select.select([u, d, t], [], [])[0]:
        if s is d: log.write("datagram of %d bytes at %s\n" % (len(d.recv(65536)), sys.argv[2]))
        else: c, _ = s.accept(); c.close(); log.write("connection to %s\n" % (sys.argv[1] if s is u else "127.0.0.1:443"))' \
    "$AGENT" "$DGRAM" "$TMP/doors.up" "$TMP/doors.log" &
DOORS=$!
for _ in $(seq 100); do [ -s "$TMP/doors.up" ] && break; sleep 0.05; done
cc -O2 -o "$TMP/no-userns" Tests/end-to-end/desktop-user/no-userns.c -lseccomp || { echo "cannot build no-userns (libseccomp-dev)"; exit 1; }

source Tests/end-to-end/desktop-user/users.sh

# ---- (a) a desktop user: HOME in /home, make install from a clone in its home -------------
UA=21adesk HA=/home/21adesk
make_user "$UA" "$HA" && start_manager "$UA" "$HA" || { summary desktop-user; exit 1; }
service_env "$UA" "$HA"
t0=$(date +%s)
if LOCKED=1 as_user "$UA" "$HA" make -C "$HA/pokedexd" -s install >"$TMP/install-a.log" 2>&1; then
    ok_install=0; else ok_install=1; fi
check "(a) make install as $UA from ~/pokedexd ($(( $(date +%s) - t0 )) s)" test $ok_install = 0
grep '^sandbox:' "$TMP/install-a.log" | sed 's/^/     /'
[ $ok_install = 0 ] || tail -30 "$TMP/install-a.log"
check "(a) every namespace group applied" test "$(grep -c ': applied' "$TMP/install-a.log")" = 3
verify "(a)" "$UA" "$HA" "$HA/.cache/pokedex" yes

# ---- (c) a unit that cannot start: pokectl says why within 5 s ------------------------------
dropin=$HA/.config/systemd/user/pokedex.service.d/zz-test-false.conf
printf '[Service]\nExecStart=\nExecStart=/bin/false\n' >"$dropin"; chown "$UA:" "$dropin"
as_user "$UA" "$HA" systemctl --user daemon-reload
as_user "$UA" "$HA" systemctl --user stop pokedex.service
t0=$(date +%s%N)
out=$(as_user "$UA" "$HA" pokectl list 2>&1); code=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
echo "     (c) pokectl list: exit $code after $ms ms: $out"
check "(c) pokectl list fails (exit $code)" test $code -ne 0
check "(c) within 5 s ($ms ms)" test $ms -le 5000
check "(c) names the unit and the failure" grep -q "pokedex.service failed to start (exit 1" <<<"$out"
check "(c) points at the journal" grep -q "journalctl --user -u pokedex" <<<"$out"
out=$(as_user "$UA" "$HA" pokectl status 2>&1)
check "(c) pokectl status says the same: $out" grep -q "pokedex.service failed to start" <<<"$out"
# pokectl browse, in tmux as the user: its status line says the same.
as_user "$UA" "$HA" tmux -L 21c-browse new-session -d -x 220 -y 24 "$HA/.local/bin/pokectl browse"
screen=
for _ in $(seq 50); do
    screen=$(as_user "$UA" "$HA" tmux -L 21c-browse capture-pane -p 2>/dev/null)
    grep -q "pokedex.service failed to start" <<<"$screen" && break
    sleep 0.2
done
check "(c) pokectl browse's status line: $(grep -o 'pokedex.service failed[^;]*' <<<"$screen" | head -1)" \
    grep -q "pokedex.service failed to start (exit 1" <<<"$screen"
as_user "$UA" "$HA" tmux -L 21c-browse kill-server 2>/dev/null
rm -f "$dropin"
as_user "$UA" "$HA" systemctl --user daemon-reload
as_user "$UA" "$HA" systemctl --user reset-failed pokedex.service
# make install also refuses to report success over a unit that does not start.
printf '[Service]\nExecStart=\nExecStart=/bin/false\n' >"$dropin"; chown "$UA:" "$dropin"
LOCKED=1 as_user "$UA" "$HA" make -C "$HA/pokedexd" -s install >"$TMP/install-c.log" 2>&1; code=$?
check "(c) make install exits non-zero when the unit does not start (exit $code)" test $code -ne 0
check "(c) ... with the unit's reason: $(grep 'did not start' "$TMP/install-c.log")" grep -q "did not start: pokedex.service failed to start (exit 1" "$TMP/install-c.log"
rm -f "$dropin"

# ---- (b0) the kernel changes under the installed service: namespaces refused from now on ------
# The manager restarts where user namespaces are refused, with the namespace drop-ins of (a)
# still installed: pokedex.service fails (217/USER) and pokedex-fallback.service takes over,
# Landlock-confined, and says so. Nothing is installed again.
stop_manager "$(id -u "$UA")" "$MGR"
rm -f "$HA/.cache/pokedex/sandbox-self-check"
start_manager "$UA" "$HA" "$TMP/no-userns" || { summary desktop-user; exit 1; }
out=$(as_user "$UA" "$HA" timeout 30 pokectl list 2>&1)
check "(b0) pokectl list answers after the kernel stopped allowing user namespaces" grep -qi bulbasaur <<<"$out"
[ "$last" = ok ] || echo "$out" | head -3
main=$(as_user "$UA" "$HA" systemctl --user show -p ActiveState,Result,ExecMainStatus --value pokedex.service | paste -sd' ')
echo "     (b0) pokedex.service: $main"
check "(b0) the namespace drop-ins are still installed" test -f "$HA/.config/systemd/user/pokedex.service.d/sandbox-10-user-namespace.conf"
status=$(as_user "$UA" "$HA" pokectl status 2>&1 | grep '^sandbox')
check "(b0) pokectl status says it runs without them: $status" grep -q "could not start with them" <<<"$status"
verify "(b0)" "$UA" "$HA" "$HA/.cache/pokedex" no pokedex-fallback.service
check "(b0) it stays as the fallback while this manager runs (no idle exit)" \
    bash -c "[ \"\$(runuser -u $UA -- env XDG_RUNTIME_DIR=/run/user/$(id -u "$UA") systemctl --user show -p ExecStart --value pokedex-fallback.service | grep -c 'idle-timeout 0')\" = 1 ]"
# The fallback's [Service] is pokedex.service's own (systemd/fallback-unit): every option that
# needs no namespace, as the manager reads them, the same in both.
hardening() {  # unit
    as_user "$UA" "$HA" systemctl --user show "$1" -p NoNewPrivileges,UMask,KeyringMode,LockPersonality,MemoryDenyWriteExecute \
        -p RestrictNamespaces,RestrictRealtime,RestrictSUIDSGID,RestrictAddressFamilies,SystemCallArchitectures,SystemCallFilter \
        -p SystemCallErrorNumber,MemoryHigh,MemoryMax,TasksMax,WatchdogUSec,TimeoutAbortUSec,RestartPreventExitStatus,Type
}
check "(b0) the fallback has pokedex.service's hardening, option for option ($(hardening pokedex-fallback.service | wc -l) options)" \
    diff <(hardening pokedex.service) <(hardening pokedex-fallback.service)

# ---- (b) the same user where the kernel refuses user namespaces: installed again ----------------
service_env "$UA" "$HA"
check "(b) under no-userns, unshare -U is refused" bash -c "! runuser -u $UA -- $TMP/no-userns unshare -U true 2>/dev/null"
rm -f "$HA/.cache/pokedex/sandbox-self-check"
if LOCKED=1 as_user "$UA" "$HA" make -C "$HA/pokedexd" -s install >"$TMP/install-b.log" 2>&1; then ok_install=0; else ok_install=1; fi
check "(b) make install" test $ok_install = 0
grep '^sandbox:' "$TMP/install-b.log" | sed 's/^/     /'
[ $ok_install = 0 ] || tail -30 "$TMP/install-b.log"
check "(b) no namespace group installed" test "$(grep -c ': applied' "$TMP/install-b.log")" = 0
verify "(b)" "$UA" "$HA" "$HA/.cache/pokedex" no
stop_manager "$(id -u "$UA")" "$MGR"

# ---- (d) a Silverblue-style home: /var/home/NAME, custom XDG_DATA_HOME and XDG_CACHE_HOME ----
# whose names hold a space, &, %, $ and a quote: the drop-ins must bind them as they are
# (systemd's quoting, % as %%), or favorites would land on the tmpfs over the homes.
UD=21dsilver HD=/var/home/21dsilver
mkdir -p /var/home
make_user "$UD" "$HD" && ln -sfn "$HD" /home/$UD && start_manager "$UD" "$HD" || { summary desktop-user; exit 1; }
service_env "$UD" "$HD"
DD="$HD/My Data & 100% 'q'" DC="$HD/Caches \$HOME %h \"x\""
as_user "$UD" "$HD" systemctl --user set-environment XDG_DATA_HOME="$DD" XDG_CACHE_HOME="$DC"
EXTRA_ENV=(XDG_DATA_HOME="$DD" XDG_CACHE_HOME="$DC")
if LOCKED=1 as_user "$UD" "$HD" make -C "$HD/pokedexd" -s install >"$TMP/install-d.log" 2>&1; then ok_install=0; else ok_install=1; fi
check "(d) make install with HOME=$HD and custom XDG dirs" test $ok_install = 0
grep '^sandbox:' "$TMP/install-d.log" | sed 's/^/     /'
[ $ok_install = 0 ] || tail -30 "$TMP/install-d.log"
check "(d) make install says what it did about the home and the XDG dirs" \
    grep -q "under /var/home, not /home" "$TMP/install-d.log"
verify "(d)" "$UD" "$HD" "$DC/pokedex" yes
check "(d) every namespace group applied, with those folders" test "$(grep -c ': applied' "$TMP/install-d.log")" = 3
check "(d) favorites in the custom XDG_DATA_HOME ($DD)" test -s "$DD/pokedex/favorites.json"
dropin=$HD/.config/systemd/user/pokedex.service.d/sandbox-20-mounts.conf
echo "     (d) $(grep '^BindPaths=' "$dropin")"
check "(d) the drop-in quotes the folders for systemd (% as %%)" grep -qF '"'"$HD/My Data & 100%% 'q'/pokedex"'"' "$dropin"
as_user "$UD" "$HD" systemctl --user restart pokedex.service
check "(d) favorites survive a restart (they were on disk, not on a tmpfs)" \
    bash -c "runuser -u $UD -- env XDG_RUNTIME_DIR=/run/user/$(id -u "$UD") DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/$(id -u "$UD")/bus $HD/.local/bin/pokectl favs | grep -qi pikachu"
pid=$(as_user "$UD" "$HD" systemctl --user show -p MainPID --value pokedex.service)
check "(d) /var/home hidden in the mount namespace (but for its own directories)" \
    bash -c "[ ! -e /proc/$pid/root$HD/.ssh/id_planted ] && [ -d \"/proc/$pid/root$DD/pokedex\" ]"
EXTRA_ENV=()

summary desktop-user
