#!/bin/bash
# Every command, option, exit status, D-Bus member, key, file and path that README.md,
# man/pokectl.1 and man/pokedexd.1 show, tried against the real service (pokedexd on a private
# bus with the project's mock PokeAPI) and the binaries' own help. extract.py reads them out of
# the documents, so a new line there is checked with no edit here; the only lists kept by hand
# are what a test cannot run (extract.py's NOT_HERE), sample values for placeholders
# (placeholders.py) and how to provoke each exit status and error (below).
# BUILD_DIR picks the binaries (default .build/debug). Prints "docs: N passed, M failed".
set -uo pipefail
shopt -s lastpipe  # `… | count_lines` counts in this shell
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
SUITE=docs
source "$ROOT/Tests/support/lib/suite.sh"
export NO_COLOR=1 TEXTDOMAINDIR=$ROOT/.build/locale PYTHONDONTWRITEBYTECODE=1
HERE=$ROOT/Tests/end-to-end/docs

source "$ROOT/Tests/support/lib/private-service.sh"
start_private_bus
start_mock
start_daemon --sprite-url-template "$MOCK/sprites/{id}.png" --notify=no || exit 1
# A sound server and a player that plays nothing, so `pokectl cry` can succeed here.
mkdir -p "$TMP/bin"
printf '#!/bin/sh\nexit 0\n' >"$TMP/bin/paplay"; chmod +x "$TMP/bin/paplay"
BUILD_DIR=$(cd "$BUILD_DIR" && pwd)  # the runs below change directory
export PATH=$BUILD_DIR:$TMP/bin:$PATH PULSE_SERVER=unix:$TMP/no-pulse
pokectl fav bulbasaur >/dev/null  # `--favorite` draws need one the runs below leave alone

python3 "$HERE/extract.py" >"$TMP/records" || { fail "extract.py could not read the docs"; echo "(took $SECONDS s)"
summary docs; exit; }
records() { grep -P "^$1\t" "$TMP/records"; }
# An argument parser's own refusal, not a command's answer.
PARSE_ERROR='Unknown option|Unexpected argument|is not a valid subcommand|Missing value for|Unknown subcommand'

source "$HERE/runs.sh"

echo "== commands the docs show"
run_documented
echo "== make targets"
targets=$(cd "$ROOT" && make -qp 2>/dev/null | awk -F: '/^[a-zA-Z0-9][^$#\/\t=]*:([^=]|$)/ {print $1}' | sort -u)
records make | sort -t$'\t' -k3,3 -u | while IFS=$'\t' read -r _ src target; do
    grep -qx -- "$target" <<<"$targets" && echo "ok   $src: make $target exists" || echo "FAIL $src: make $target: no such target"
done | count_lines
echo "== options every pokectl command takes (SYNOPSIS, OPTIONS)"
every_command_options
echo "== --json shapes"
json_shapes
echo "== options named in prose"
prose_options
echo "== exit statuses"
exit_statuses
echo "== D-Bus members, errors and keys"
busctl --user introspect --xml-interface io.github.pokedexd.Pokedex1 /io/github/pokedexd/Pokedex1 >"$TMP/introspection.xml"
python3 "$HERE/compare.py" members "$TMP/introspection.xml" <"$TMP/records" | count_lines
dbus_errors
live_replies >"$TMP/replies.json"
python3 "$HERE/compare.py" keys "$TMP/replies.json" <"$TMP/records" | count_lines
echo "== pokedexd's options, variables and defaults"
pokedexd --help >"$TMP/pokedexd-help.txt"
pokectl status --json >"$TMP/status.json"
python3 "$HERE/compare.py" daemon "$TMP/pokedexd-help.txt" "$TMP/status.json" <"$TMP/records" | count_lines
daemon_variables
echo "== files and paths"
files_and_paths
echo "== what the service does when it goes away"
browse_outlives_service

echo "(took $SECONDS s)"
summary docs
