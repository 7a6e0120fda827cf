#!/bin/bash
# The pty soak test: the real `pokectl browse` against the real pokedexd on a private bus (the
# project's mock PokeAPI behind it), random keys, mouse reports and resizes from fixed seeds
# (Tests/end-to-end/soak/browse_soak.py). SEEDS (default 1-20) and KEYS (default 2000) change the run;
# bench/soak runs longer. BUILD_DIR picks the binaries (default .build/debug).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
SUITE=soak
source "$ROOT/Tests/support/lib/suite.sh"
as_colour_terminal
source "$ROOT/Tests/support/lib/private-service.sh"
start_private_bus
start_mock
start_daemon --sprite-url-template "$MOCK/sprites/{id}.png" --notify=no || { echo "soak: the service did not start"; exit 1; }
python3 "$ROOT/Tests/end-to-end/soak/browse_soak.py" "$BUILD_DIR/pokectl" --seeds "${SEEDS:-1-20}" --keys "${KEYS:-2000}" --workdir "$TMP"
code=$?
# A seed that did not end left its threads' stacks: the first lines of each say where it stood.
for stacks in "$TMP"/soak*.stacks; do
  [ -e "$stacks" ] && { echo "--- $(basename "$stacks")"; grep -E '^(Thread|#[0-9] )' "$stacks" | head -60; }
done
# Killed with kitty pictures on screen: every image it sent is freed before it dies.
python3 "$ROOT/Tests/end-to-end/soak/kitty_on_signal.py" "$BUILD_DIR/pokectl" ILL TRAP SEGV BUS ABRT TERM HUP QUIT || code=1
kill -0 "$DAEMON" 2>/dev/null || { echo "soak: pokedexd died meanwhile"; tail -20 "$TMP/pokedexd.log"; code=1; }
exit $code
