#!/bin/bash
# Names as people type them, and pages as people ask for them, through pokectl and busctl
# against the real service on a private bus (the mock PokeAPI behind it): "Nidoran♀" and
# "NIDORAN ♂" resolve for show, fav, unfav, sprite and Detail; "nidoran" answers with its
# candidates (NotFound, exit 1); a page past the end says how many pages there are and exits
# non-zero, for any Int. BUILD_DIR picks the binaries (default .build/debug).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
SUITE=names
source "$ROOT/Tests/support/lib/suite.sh"
source "$ROOT/Tests/support/lib/private-service.sh"
start_private_bus
start_mock
start_daemon --sprite-url-template "$MOCK/sprites/{id}.png" --notify=no || { echo "names: 0 passed, 1 failed"; exit 1; }

check() {  # description, expected exit status, expected output (grep -E), command…
    local what=$1 code=$2 want=$3; shift 3
    out=$("$@" 2>&1); got=$?
    # A here-string, not a pipe: under pipefail, grep -q leaving at its first match could
    # make echo's SIGPIPE the pipeline's status (CI saw it once).
    if [ "$got" = "$code" ] && grep -qE -- "$want" <<<"$out"; then ok "$what"
    else fail "$what: exit $got, not $code; /$want/ in: $out"; fi
}
check 'show "Nidoran♀"' 0 '"name": ?"nidoran-f"' pokectl show "Nidoran♀" --json
check 'show "NIDORAN ♂"' 0 '"name": ?"nidoran-m"' pokectl show "NIDORAN ♂" --json
check 'show "nidoran f"' 0 '"name": ?"nidoran-f"' pokectl show "nidoran f" --json
check 'fav "Nidoran♀"' 0 '"name": ?"nidoran-f"' pokectl fav "Nidoran♀" --json
check 'unfav "Nidoran ♀"' 0 '"changed": ?true' pokectl unfav "Nidoran ♀" --json
check 'sprite "Nidoran♂"' 0 '\.png' pokectl sprite "Nidoran♂"
check 'Detail "Nidoran♀" on the bus' 0 'nidoran-f' busctl --user call io.github.pokedexd.Pokedex1 /io/github/pokedexd/Pokedex1 \
    io.github.pokedexd.Pokedex1 Detail s "Nidoran♀"
check 'show nidoran: the candidates' 1 'nidoran: did you mean nidoran-f or nidoran-m\?' pokectl show nidoran
check 'Detail nidoran: NotFound, with the candidates' 1 'Error.NotFound|did you mean nidoran-f or nidoran-m' \
    busctl --user call io.github.pokedexd.Pokedex1 /io/github/pokedexd/Pokedex1 io.github.pokedexd.Pokedex1 Detail s nidoran
check 'list --page 3 (the last)' 0 'page 3 of 3' pokectl list --page 3
check 'list --page 4: past the end' 1 'page 4 is past the end: there are 3 pages of 20 \(46 Pokémon\)' pokectl list --page 4
check 'list --page 99999999999' 1 'there are 3 pages' pokectl list --page 99999999999
check 'list --page Int.max' 1 'there are 3 pages' pokectl list --page 9223372036854775807
check 'list --page Int.max --per-page 100' 1 'there is 1 page' pokectl list --page 9223372036854775807 --per-page 100
check 'list --page Int.max --json' 1 'past the end' pokectl list --page 9223372036854775807 --json
check 'list --page Int.min' 2 'starts at 1' pokectl list --page=-9223372036854775808
check 'list --per-page Int.max' 2 'between 1 and 100' pokectl list --per-page 9223372036854775807
check 'list --page 2^64: not a number' 2 '.' pokectl list --page 18446744073709551616
check 'show --random --width Int.max' 2 'between 1 and 200' pokectl show --random --width 9223372036854775807
check 'search --limit Int.min' 2 'between 1 and 100' pokectl search pika --limit=-9223372036854775808
check 'search --gen Int.max: its range' 2 'between 1 and 9' pokectl search --gen 9223372036854775807
check 'watch --count Int.min' 2 'at least 1' pokectl watch --count=-9223372036854775808
echo "names: $passed passed, $failed failed"
[ "$failed" = 0 ]
