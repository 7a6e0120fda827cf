#!/bin/bash
# Runs every script in examples/ against the real service (pokedexd on a private bus with the
# project's mock PokeAPI), checks `pokectl watch`, and lints the man pages.
# BUILD_DIR picks the binaries (default .build/debug). Prints "examples: N passed, M failed".
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
SUITE=examples
source "$ROOT/Tests/support/lib/suite.sh"
export NO_COLOR=1

source "$ROOT/Tests/support/lib/private-service.sh"
start_private_bus
start_mock
start_daemon --sprite-url-template "$MOCK/sprites/{id}.png" --notify=no || exit 1

W=$ROOT/examples/waybar/pokedex-favorite
C=$ROOT/examples/conky/pokedex-conky
R=$ROOT/examples/rofi/pokedex-pick

source "$ROOT/Tests/end-to-end/examples/widgets.sh"
source "$ROOT/Tests/end-to-end/examples/commands.sh"
source "$ROOT/Tests/end-to-end/examples/hostile.sh"
source "$ROOT/Tests/end-to-end/examples/fetch-and-man.sh"

summary examples
