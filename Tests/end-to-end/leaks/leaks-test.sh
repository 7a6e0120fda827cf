#!/bin/bash
# What each member keeps per call (issue 60): the release pokedexd on a private bus against the
# project's mock, every member called CALLS times (default 20,000) after a tenth as many to warm
# up, the service's RssAnon read before and after. A member that keeps more than BOUND bytes a
# call (default 64: 1.25 MiB over 20,000 calls; the allocator's noise is a few bytes) fails.
# Before the fix, a favorites change kept 360 bytes. bench/leaks prints the same table.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
SUITE=leaks
BUILD_DIR=${BUILD_DIR:-$ROOT/.build/release}
source "$ROOT/Tests/support/lib/suite.sh"
source "$ROOT/Tests/support/lib/private-service.sh"
# The one binary is pokectl under that name.
mkdir -p "$TMP/bin" && ln -sf "$BUILD_DIR/pokedexd" "$TMP/bin/pokectl" && export PATH=$TMP/bin:$PATH
start_private_bus
start_mock
start_daemon --sprite-url-template "$MOCK/sprites/{id}.png" --notify=no --no-prefetch || { echo "leaks: the service did not start"; exit 1; }
/usr/bin/python3 "$ROOT/bench/leaks.py" "$DAEMON" "${CALLS:-20000}" --bound "${BOUND:-64}"
code=$?
kill -0 "$DAEMON" 2>/dev/null || { echo "leaks: pokedexd died meanwhile"; tail -20 "$TMP/pokedexd.log"; code=1; }
[ $code = 0 ] && echo "leaks: no member keeps more than ${BOUND:-64} bytes a call"
exit $code
