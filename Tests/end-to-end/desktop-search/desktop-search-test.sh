#!/bin/bash
# The desktop asks pokedexd (issue 15): GNOME Shell's org.gnome.Shell.SearchProvider2 called with
# gdbus, KRunner's org.kde.krunner1 called with a Python D-Bus client (search_clients.py), both
# as the shells call them; Pokédex numbers as people write them (#025, No. 25, N°25, no25,
# full-width digits) through both providers and pokectl; and the file contracts (the app entry,
# the search provider's ini, the KRunner plugin). The daemon runs on a private bus against the
# project's mock PokeAPI, with a recording notification server. BUILD_DIR picks the binaries
# (default .build/debug). Prints "desktop-search: N passed, M failed".
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
SUITE=desktop-search
source "$ROOT/Tests/support/lib/suite.sh"
export NO_COLOR=1
PY=/usr/bin/python3  # Debian's, with python3-dbus and python3-gi
CLIENT=$ROOT/Tests/end-to-end/desktop-search/search_clients.py
DESKTOP=$ROOT/desktop
SERVICE=io.github.pokedexd.Pokedex1
GNOME_PATH=/io/github/pokedexd/SearchProvider GNOME_IFACE=org.gnome.Shell.SearchProvider2
KRUNNER_PATH=/io/github/pokedexd/KRunner KRUNNER_IFACE=org.kde.krunner1
# show [LINES]: the output of the last check when it passed, indented (the real gdbus and Match
# replies, for the note).
show() { [ "$last" = ok ] && sed 's/^/     | /' "$TMP/check.out" | head -"${1:-8}"; return 0; }
client() { timeout 30 "$PY" "$CLIENT" "$@"; }

source "$ROOT/Tests/end-to-end/desktop-search/files.sh"

# ---- A private bus, the mock PokeAPI, a notification recorder, the daemon ----------------------
source "$ROOT/Tests/support/lib/private-service.sh"
start_private_bus
start_mock
"$PY" "$ROOT/Tests/support/mocknotify/notification_recorder.py" --log "$TMP/notifications.jsonl" --ready "$TMP/notify.ready" >/dev/null 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do [ -e "$TMP/notify.ready" ] && break; sleep 0.1; done
touch "$TMP/notifications.jsonl"

# The daemon finds no terminal, launcher or clipboard tool on its PATH, whatever this machine
# has installed: activating a result shows the card.
DAEMON_ENV=(PATH="$BUILD_DIR")
start_daemon --sprite-url-template "$MOCK/sprites/{id}.png" --notify=yes || { summary desktop-search; exit 1; }

# gdbus, as GNOME Shell calls the provider: gn METHOD ARGS... prints the GVariant reply.
gn() { timeout 15 gdbus call --session --timeout 10 --dest "$SERVICE" --object-path "$GNOME_PATH" --method "$GNOME_IFACE.$1" "${@:2}"; }
# gids METHOD ARGS...: the result ids as a JSON array.
gids() {
    gn "$@" >"$TMP/gdbus.out" || return 1
    "$PY" "$CLIENT" gvariant --type '(as)' <"$TMP/gdbus.out" | jq -c '.[0]'
}
as_gvariant() { jq -r 'if length == 0 then "@as []" else "[" + (map("\u0027" + . + "\u0027") | join(", ")) + "]" end'; }
# first_is ID METHOD ARGS...: the first result is ID.
first_is() {
    local want=$1 got; shift
    got=$(gids "$@") || return 1
    echo "$got"; [ "$(echo "$got" | jq -r '.[0] // empty')" = "$want" ]
}
subset() {  # JSON arrays A B: every element of A is in B
    jq -e -n --argjson a "$1" --argjson b "$2" '$a - $b == []' >/dev/null || { echo "$1 is not within $2"; return 1; }
}

source "$ROOT/Tests/end-to-end/desktop-search/gnome-shell.sh"
source "$ROOT/Tests/end-to-end/desktop-search/krunner-and-numbers.sh"
source "$ROOT/Tests/end-to-end/desktop-search/launches.sh"
source "$ROOT/Tests/end-to-end/desktop-search/shown.sh"

summary desktop-search
