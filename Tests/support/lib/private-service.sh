# Sourced by the shell tests (examples, browse, graphics, desktop-search) and bench/lib.sh: a
# private session bus, the project's mock PokeAPI, and pokedexd on them. The caller sets ROOT,
# TMP and PIDS (killed on exit) and puts pokedexd and pokectl on PATH.

# A private bus from Tests/support/dbus/test-bus.conf (no service directories: nothing is activated).
start_private_bus() {
    local out
    out=$(dbus-daemon --config-file="$ROOT/Tests/support/dbus/test-bus.conf" --fork --print-address=1 --print-pid=1)
    export DBUS_SESSION_BUS_ADDRESS=$(echo "$out" | sed -n 1p)
    PIDS+=("$(echo "$out" | sed -n 2p)")
}

# The mock PokeAPI (extra mock options in "$@"); sets MOCK to its URL.
start_mock() {
    python3 "$ROOT/Tests/support/mockapi/mock_pokeapi.py" --port 0 --port-file "$TMP/port" "$@" >/dev/null 2>&1 &
    PIDS+=($!)
    for _ in $(seq 100); do [ -s "$TMP/port" ] && break; sleep 0.1; done
    MOCK=http://127.0.0.1:$(cat "$TMP/port")
}

# pokedexd against the mock (extra options in "$@"), waited for until pokectl reaches it; sets
# DAEMON. Its log goes to $TMP/pokedexd.log, shown when it does not come up. DAEMON_ENV
# (an array of NAME=VALUE) changes its environment.
DAEMON_ENV=()
start_daemon() {
    env "${DAEMON_ENV[@]}" pokedexd --api-url "$MOCK/api/v2" --sprite-host 127.0.0.1 --idle-timeout 0 "$@" 2>>"$TMP/pokedexd.log" &
    DAEMON=$!
    PIDS+=($DAEMON)
    for _ in $(seq 100); do pokectl status >/dev/null 2>&1 && return 0; sleep 0.1; done
    cat "$TMP/pokedexd.log"; return 1
}
