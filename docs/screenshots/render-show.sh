#!/usr/bin/env bash
# Screenshots of `pokectl show pikachu` in a real terminal: Debian's xterm, started as a VT340
# (sixel graphics), under Xvfb. Takes two pictures of the same terminal:
#   docs/pokectl-show-pikachu-sixel.png         --image-protocol auto (xterm answers DA1 with 4: sixel)
#   docs/pokectl-show-pikachu-xterm-blocks.png  --image-protocol blocks, COLORTERM=truecolor
#
# Everything runs privately and is stopped on exit: a PokeAPI stand-in (on 127.0.0.1), a
# session bus of its own, pokedexd with throwaway XDG dirs, Xvfb and xterm. No network and no
# /etc/hosts change. The stand-in is the project's mock (Tests/support/mockapi), whose sprites are
# coloured squares: the pictures in docs/ ship with the source under its licence, and a real
# sprite is Nintendo's artwork (--serve ../shared/pokeapi/serve.py draws those, for a look only).
#
# Usage: docs/screenshots/render-show.sh [--pokectl PATH] [--pokedexd PATH] [--serve PATH/serve.py]
#                                        [--out DIR] [--geometry COLSxROWS] [--font-size PT]
#   --pokectl, --pokedexd  default: from PATH
#   --serve                default: $POKEAPI_SERVE, else the mock, Tests/support/mockapi/mock_pokeapi.py
#   --out                  default: the docs/ folder this script is in
#   --geometry             default: 100x28, the whole card with its family and matchups
# Needs: Xvfb, xterm (with sixel, as Debian builds it), ImageMagick's import, dbus-daemon,
# python3, the DejaVu Sans Mono font. On Debian:
#   apt-get install xvfb xterm imagemagick dbus fonts-dejavu-core
# POKEAPI_EMU_CACHE is passed to serve.py (where it unpacks its data once).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
pokectl=""; pokedexd=""; serve="${POKEAPI_SERVE:-$repo/Tests/support/mockapi/mock_pokeapi.py}"
out=$(cd "$here/.." && pwd); geometry=100x28; font_size=11

die() { echo "render-show: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
    case "$1" in
        --pokectl) pokectl=${2:?}; shift 2 ;;
        --pokedexd) pokedexd=${2:?}; shift 2 ;;
        --serve) serve=${2:?}; shift 2 ;;
        --out) out=${2:?}; shift 2 ;;
        --geometry) geometry=${2:?}; shift 2 ;;
        --font-size) font_size=${2:?}; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument: $1 (see --help)" ;;
    esac
done

# --- what is needed ----------------------------------------------------------------------
[ -n "$pokectl" ] || pokectl=$(command -v pokectl) || die "pokectl not found: put it on PATH or pass --pokectl PATH"
[ -n "$pokedexd" ] || pokedexd=$(command -v pokedexd) || die "pokedexd not found: put it on PATH or pass --pokedexd PATH"
[ -x "$pokectl" ] || die "not an executable: $pokectl"
[ -x "$pokedexd" ] || die "not an executable: $pokedexd"
[ -f "$serve" ] || die "the PokeAPI stand-in is missing: $serve (pass --serve PATH/serve.py)"
missing=()
for tool in Xvfb xterm import dbus-daemon python3 fc-match; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
[ ${#missing[@]} -eq 0 ] || die "missing: ${missing[*]} (Debian: apt-get install xvfb xterm imagemagick dbus fontconfig)"
import -version 2>/dev/null | grep -q ImageMagick || die "'import' is not ImageMagick's (apt-get install imagemagick)"
fc-match 'DejaVu Sans Mono' family | grep -q 'DejaVu Sans Mono' || die "font DejaVu Sans Mono missing (apt-get install fonts-dejavu-core)"
[ -d "$out" ] || die "no output folder: $out"; out=$(cd "$out" && pwd)
pokectl=$(cd "$(dirname "$pokectl")" && pwd)/$(basename "$pokectl")
pokedexd=$(cd "$(dirname "$pokedexd")" && pwd)/$(basename "$pokedexd")

# --- cleanup: only the processes started here, by pid --------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/render-show.XXXXXX")
pids=()
cleanup() {
    local i
    for (( i=${#pids[@]}-1; i>=0; i-- )); do kill "${pids[$i]}" 2>/dev/null || true; done
    for (( i=${#pids[@]}-1; i>=0; i-- )); do
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "${pids[$i]}" 2>/dev/null || break; sleep 0.1; done
        kill -9 "${pids[$i]}" 2>/dev/null || true
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
wait_for() { # seconds, description, test command...
    local t=$1 what=$2; shift 2
    for (( n=0; n < t*10; n++ )); do "$@" && return 0; sleep 0.1; done
    die "timed out after ${t}s waiting for $what"
}

# --- the PokeAPI stand-in --------------------------------------------------------------------
python3 "$serve" --port 0 --port-file "$tmp/port" >"$tmp/serve.log" 2>&1 &
pids+=($!); serve_pid=$!
alive_with_port() { kill -0 "$serve_pid" 2>/dev/null || die "serve.py exited: $(cat "$tmp/serve.log")"; [ -s "$tmp/port" ]; }
wait_for 120 "serve.py to listen" alive_with_port
port=$(cat "$tmp/port")

# --- a private session bus and the service ---------------------------------------------------
dbus-daemon --session --fork --print-address=1 --print-pid=1 >"$tmp/bus" || die "dbus-daemon failed"
export DBUS_SESSION_BUS_ADDRESS=$(sed -n 1p "$tmp/bus"); pids+=("$(sed -n 2p "$tmp/bus")")
export XDG_CACHE_HOME="$tmp/cache" XDG_DATA_HOME="$tmp/data" XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config"
mkdir -p "$XDG_CACHE_HOME" "$XDG_DATA_HOME" "$XDG_STATE_HOME" "$XDG_CONFIG_HOME"
unset NO_COLOR COLUMNS LINES TMUX
"$pokedexd" --api-url "http://127.0.0.1:$port/api/v2" --sprite-host 127.0.0.1 --idle-timeout 0 >"$tmp/pokedexd.log" 2>&1 &
pids+=($!); daemon_pid=$!
daemon_up() { kill -0 "$daemon_pid" 2>/dev/null || die "pokedexd exited: $(cat "$tmp/pokedexd.log")"; "$pokectl" status >/dev/null 2>&1; }
wait_for 30 "pokedexd on the private bus" daemon_up
"$pokectl" sprite pikachu >/dev/null || die "pokectl sprite pikachu failed (see the stand-in)"

# --- X and the terminal -----------------------------------------------------------------------
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$tmp/display" >"$tmp/xvfb.log" 2>&1 &
pids+=($!); xvfb_pid=$!
x_up() { kill -0 "$xvfb_pid" 2>/dev/null || die "Xvfb exited: $(cat "$tmp/xvfb.log")"; [ -s "$tmp/display" ]; }
wait_for 20 "Xvfb" x_up
export DISPLAY=":$(head -1 "$tmp/display")"
mkdir -p "$tmp/bin"; ln -s "$pokectl" "$tmp/bin/pokectl"
echo "render-show: $(xterm -v) on $DISPLAY, stand-in on 127.0.0.1:$port"

# shot NAME SHOWN COMMAND [ENV=VALUE...]: in a fresh xterm, clear, print "$ SHOWN", run
# COMMAND (its stderr to NAME.err), print a prompt, then grab the xterm window to NAME.png.
# COMMAND adds --verbose to SHOWN: it only writes to stderr, which goes to the file.
shot() {
    local name=$1 shown=$2 cmd=$3; shift 3
    cat >"$tmp/$name.sh" <<EOF
#!/usr/bin/env bash
export PATH="$tmp/bin:\$PATH"
unset COLORTERM NO_COLOR COLUMNS LINES
$(for kv in "$@"; do printf 'export %q\n' "$kv"; done)
echo "\$WINDOWID" >"$tmp/$name.wid"
printf '\033[H\033[2J\033[3J\$ %s\n' $(printf %q "$shown")
$cmd 2>"$tmp/$name.err"
echo \$? >"$tmp/$name.rc"
printf '\$ '
exec sleep 600
EOF
    chmod +x "$tmp/$name.sh"
    xterm -ti vt340 -geometry "$geometry+0+0" -fa 'DejaVu Sans Mono' -fs "$font_size" \
        -bg '#1e1e2e' -fg '#cdd6f4' -cr '#f5e0dc' \
        -xrm 'XTerm*decTerminalID: vt340' -xrm 'XTerm*numColorRegisters: 256' \
        -xrm 'XTerm*sixelScrolling: true' -xrm 'XTerm*directColor: true' \
        -xrm 'XTerm*cursorBlink: false' -xrm 'XTerm*scrollBar: false' \
        -title "pokectl" -e "$tmp/$name.sh" >"$tmp/$name.xterm.log" 2>&1 &
    local xterm_pid=$!; pids+=($xterm_pid)
    done_running() { kill -0 "$xterm_pid" 2>/dev/null || die "xterm exited: $(cat "$tmp/$name.xterm.log")"; [ -s "$tmp/$name.rc" ]; }
    wait_for 30 "'$shown' in xterm" done_running
    [ "$(cat "$tmp/$name.rc")" = 0 ] || die "'$shown' failed in xterm: $(cat "$tmp/$name.err")"
    sleep 1   # let xterm paint
    import -display "$DISPLAY" -window "$(cat "$tmp/$name.wid")" "$tmp/$name.png" || die "import failed"
    kill "$xterm_pid" 2>/dev/null || true
}

shot sixel "pokectl show pikachu" "pokectl show pikachu --verbose"
grep -q 'drawn with sixel' "$tmp/sixel.err" || die "under xterm -ti vt340, auto did not choose sixel: $(cat "$tmp/sixel.err")"
echo "render-show: auto in xterm: $(cat "$tmp/sixel.err")"
shot blocks "pokectl show pikachu --image-protocol blocks" "pokectl show pikachu --image-protocol blocks --verbose" COLORTERM=truecolor
echo "render-show: blocks: $(cat "$tmp/blocks.err")"

cp "$tmp/sixel.png" "$out/pokectl-show-pikachu-sixel.png"
cp "$tmp/blocks.png" "$out/pokectl-show-pikachu-xterm-blocks.png"
for f in "$out/pokectl-show-pikachu-sixel.png" "$out/pokectl-show-pikachu-xterm-blocks.png"; do
    echo "render-show: wrote $f ($(identify -format '%wx%h' "$f"), $(wc -c <"$f") bytes)"
done
