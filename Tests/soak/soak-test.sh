#!/bin/bash
# The pty soak test: the real `pokectl browse` against the real pokedexd on a private bus (the
# project's mock PokeAPI behind it), random keys, mouse reports and resizes from fixed seeds
# (Tests/soak/browse_soak.py). SEEDS (default 1-20) and KEYS (default 2000) change the run;
# bench/soak runs longer. BUILD_DIR picks the binaries (default .build/debug).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/.build/debug}
TMP=$(mktemp -d -p /run pokedex-soak.XXXXXX 2>/dev/null || mktemp -d)
export HOME=$TMP/home XDG_CACHE_HOME=$TMP/home/.cache XDG_DATA_HOME=$TMP/home/.local/share
export PATH=$BUILD_DIR:$PATH LC_ALL=C.UTF-8 TERM=xterm-256color COLORTERM=truecolor
unset NO_COLOR TMUX
mkdir -p "$HOME"
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$TMP" 2>/dev/null || { sleep 1; rm -rf "$TMP"; }
}
trap cleanup EXIT
source "$ROOT/Tests/lib/private-service.sh"
start_private_bus
start_mock
start_daemon --sprite-url-template "$MOCK/sprites/{id}.png" --notify=no || { echo "soak: the service did not start"; exit 1; }
python3 "$ROOT/Tests/soak/browse_soak.py" "$BUILD_DIR/pokectl" --seeds "${SEEDS:-1-20}" --keys "${KEYS:-2000}" --workdir "$TMP"
code=$?
# Killed with kitty pictures on screen: every image it sent is freed before it dies.
python3 "$ROOT/Tests/soak/kitty_on_signal.py" "$BUILD_DIR/pokectl" ILL TRAP SEGV BUS ABRT TERM HUP QUIT || code=1
kill -0 "$DAEMON" 2>/dev/null || { echo "soak: pokedexd died meanwhile"; tail -20 "$TMP/pokedexd.log"; code=1; }
exit $code
