# Shared by the benchmarks: a private bus, a PokeAPI stand-in, and the release daemon.
# The stand-in is ../shared/pokeapi/serve.py when present (real data), else the project's mock.
set -euo pipefail
BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH_TMP=$(mktemp -d -p /run pokedex-bench.XXXXXX 2>/dev/null || mktemp -d)
export HOME=$BENCH_TMP/home XDG_CACHE_HOME=$BENCH_TMP/home/.cache XDG_DATA_HOME=$BENCH_TMP/home/.local/share
mkdir -p "$HOME"
# pokectl as installed: the release pokedexd started by that name (Sources/pokedexd/MultiCall.swift).
RELEASE_POKECTL=$BENCH_TMP/bin/pokectl
mkdir -p "$BENCH_TMP/bin" && ln -s "$BENCH_ROOT/.build/release/pokedexd" "$RELEASE_POKECTL"
# Processes killed on exit (the name Tests/support/lib/private-service.sh adds to).
PIDS=()
REAL_HOSTS_DOWN=
BENCH_MOUNT=
bench_cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    [ -n "$REAL_HOSTS_DOWN" ] && "$REAL_HOSTS_DOWN" down >/dev/null 2>&1
    wait 2>/dev/null || true
    [ -n "$BENCH_MOUNT" ] && umount "$BENCH_MOUNT" 2>/dev/null
    rm -rf "$BENCH_TMP"
}
trap bench_cleanup EXIT

# The tests' private bus (start_private_bus), as they start it.
ROOT=$BENCH_ROOT
source "$BENCH_ROOT/Tests/support/lib/private-service.sh"

# Sets BENCH_DISK: a directory for the daemon's caches on a filesystem like a user's. As root,
# a fresh 2 GiB ext4 image with its journal, mounted on a loop device: the machines these
# benches run on keep /tmp and /run on ext4 without a journal, where creating a file just after
# thousands were deleted walks the inode table ("recently deleted" inodes are skipped only
# there) and a sync's system time swung from 1.5 to 6 s between rounds. Else $BENCH_TMP, and
# BENCH_DISK_NOTE says so.
bench_disk() {
    BENCH_DISK=$BENCH_TMP BENCH_DISK_NOTE="caches in $BENCH_TMP"
    [ "$(id -u)" = 0 ] || return 0
    local img=$BENCH_TMP/disk.img mnt=$BENCH_TMP/disk
    mkdir -p "$mnt"
    if truncate -s 2G "$img" && mkfs.ext4 -q -F "$img" && mount -o loop "$img" "$mnt" 2>/dev/null; then
        BENCH_MOUNT=$mnt BENCH_DISK=$mnt BENCH_DISK_NOTE="caches on a fresh ext4 with a journal (loop device)"
    fi
}

# Starts a private session bus and exports its address.
bench_bus() { start_private_bus; }

# The network the figures are measured over, with serve.py's fault flags ("$@"):
#   real-hosts  ../shared/pokeapi/real-hosts: https://pokeapi.co and raw.githubusercontent.com,
#               HTTP/2 and TLS, the daemon with no network options (needs root; it installs nginx);
#   shared      serve.py on 127.0.0.1 (HTTP/1.1, one host), the daemon pointed at it;
#   mock        the project's own small mock, where ../shared is absent.
# Sets STANDIN, STANDIN_URL (the control and stats URL), API_URL and DAEMON_NET (the
# daemon's network options). BENCH_NETWORK=serve.py forces the second.
bench_network() {
    local rh=$BENCH_ROOT/../shared/pokeapi/real-hosts
    if [ "${BENCH_NETWORK:-}" != serve.py ] && [ -x "$rh" ] && [ "$(id -u)" = 0 ]; then
        if ! "$rh" status | grep -q '^up'; then
            "$rh" up "$@" >&2 || { echo "real-hosts did not come up; measuring over serve.py" >&2; bench_standin "$@"; return; }
            REAL_HOSTS_DOWN=$rh
        fi
        STANDIN=real-hosts
        STANDIN_URL=http://127.0.0.1:$(cat "${REAL_HOSTS_STATE:-/run/pokeapi-real-hosts}/port")
        API_URL=https://pokeapi.co/api/v2
        DAEMON_NET=()
        curl -s -X POST -d "{\"latency_ms\": ${BENCH_LATENCY_MS:-50}}" "$STANDIN_URL/__control" >/dev/null
        return
    fi
    bench_standin "$@"
}

# Starts the stand-in; sets API_URL and STANDIN (shared|mock). Extra args go to serve.py.
bench_standin() {
    local shared=$BENCH_ROOT/../shared/pokeapi/serve.py
    if [ -f "$shared" ]; then
        STANDIN=shared
        POKEAPI_EMU_CACHE=${POKEAPI_EMU_CACHE:-/tmp/pokeapi-emulator} python3 "$shared" --port 0 --port-file "$BENCH_TMP/port" "$@" >/dev/null 2>&1 &
    else
        STANDIN=mock
        python3 "$BENCH_ROOT/Tests/support/mockapi/mock_pokeapi.py" --port 0 --port-file "$BENCH_TMP/port" >/dev/null 2>&1 &
    fi
    PIDS+=($!)
    for _ in $(seq 600); do [ -s "$BENCH_TMP/port" ] && break; sleep 0.1; done
    STANDIN_URL=http://127.0.0.1:$(cat "$BENCH_TMP/port")
    API_URL=$STANDIN_URL/api/v2
    DAEMON_NET=(--api-url "$API_URL" --sprite-host 127.0.0.1
                --sprite-url-template "$STANDIN_URL/raw/PokeAPI/sprites/master/sprites/pokemon/{id}.png")
}

# Starts the release pokedexd on the network bench_network chose and waits for its name.
bench_daemon() {
    "$BENCH_ROOT/.build/release/pokedexd" "${DAEMON_NET[@]}" --idle-timeout 0 --notify=no "$@" 2>>"$BENCH_TMP/pokedexd.log" &
    DAEMON_PID=$!
    PIDS+=($DAEMON_PID)
    for _ in $(seq 200); do
        busctl --user status io.github.pokedexd.Pokedex1 >/dev/null 2>&1 && return 0
        sleep 0.05
    done
    echo "pokedexd did not start:"; cat "$BENCH_TMP/pokedexd.log"; return 1
}

# Nanoseconds, monotonic.
now_ns() { date +%s%N; }

# median of numbers on stdin
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
