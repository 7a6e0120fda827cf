#!/bin/bash
# Real pixels in the terminal: pokectl on a pty that answers as kitty, as a sixel terminal, or
# not at all (Tests/graphics/fake_terminal.py); the pictures decoded back and compared with the
# sprite (pokedex-graphics-fidelity); tmux's passthrough; and when the terminal is not asked.
# Against pokedexd on a private bus with the project's mock PokeAPI.
# BUILD_DIR picks the binaries (default .build/debug). Prints "graphics: N passed, M failed".
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/.build/debug}
TMP=$(mktemp -d -p /run pokedex-graphics.XXXXXX 2>/dev/null || mktemp -d)
export HOME=$TMP/home XDG_CACHE_HOME=$TMP/home/.cache XDG_DATA_HOME=$TMP/home/.local/share
export PATH=$BUILD_DIR:$PATH LC_ALL=C.UTF-8
unset NO_COLOR TMUX
mkdir -p "$HOME"
PIDS=()
cleanup() { tmux -L pokedex-graphics kill-server 2>/dev/null; for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT
source "$ROOT/Tests/lib/check.sh"
FAKE=$ROOT/Tests/graphics/fake_terminal.py
# run KIND [fake options] -- command...: the JSON report in $TMP/run.json, the output in $TMP/run.out
run() { python3 "$FAKE" "$@" >"$TMP/run.json" && jq -j .output "$TMP/run.json" | iconv -f utf-8 -t latin1 >"$TMP/run.out"; }
field() { jq -r ".$1" "$TMP/run.json"; }
has() { grep -qaF -- "$1" "$TMP/run.out"; }
count() { grep -aoF -- "$1" "$TMP/run.out" | wc -l; }
# The checks run in `bash -c`: these are theirs too.
export -f run field has count
export TMP FAKE

source "$ROOT/Tests/lib/private-service.sh"
start_private_bus
start_mock
start_daemon --notify=no || exit 1
pokectl list >/dev/null && pokectl show pikachu >/dev/null
SPRITE=$(pokectl show pikachu --json | jq -r .sprite_path)

# --- detection -------------------------------------------------------------------------------
check "kitty: the terminal is asked (kitty query, cell size, DA1) and the card is drawn with kitty graphics" bash -c "
    run kitty -- pokectl show pikachu --verbose && [ \$(field queried) = true ] && [ \$(field exit) = 0 ] &&
    has \$'\e_Gi=31,s=1,v=1,a=q' && has \$'\e[16t' && has \$'\e_Ga=T,f=100,' && has 'sprite drawn with kitty: the terminal answered' &&
    [ \$(grep -aoE '▀|▄|█' $TMP/run.out | wc -l) = \$(pokectl show pikachu --no-image --color always | grep -aoE '▀|▄|█' | wc -l) ] ||
    { cat -v $TMP/run.out | head -5; false; }"
check "sixel: DA1 with 4 draws a sixel image, transparent background (P2=1)" bash -c "
    run sixel -- pokectl show pikachu --verbose && [ \$(field queried) = true ] && has \$'\eP0;1;0q' &&
    has 'sprite drawn with sixel' && ! has \$'\e_Ga=T'"
check "silent: half blocks after the 100 ms timeout, within 120 ms of the forced half blocks" bash -c "
    a=(); b=()
    for i in 1 2 3; do
        run silent -- pokectl show pikachu --verbose && a+=(\$(field seconds)) && has 'did not answer within 100 ms' && grep -qaE '▀|█' $TMP/run.out || exit 1
        run silent -- pokectl show pikachu --image-protocol blocks && b+=(\$(field seconds)) || exit 1
    done
    python3 -c 'import statistics, sys; a, b = [statistics.median(map(float, x.split())) for x in sys.argv[1:]]; print(f\"auto {a:.3f} s, blocks {b:.3f} s\"); sys.exit(a - b > 0.12)' \"\${a[*]}\" \"\${b[*]}\""
check "not asked when TERM is dumb, under NO_COLOR, or when stdout is not a terminal" bash -c "
    run kitty --env TERM=dumb -- pokectl show pikachu && [ \$(field queried) = false ] &&
    run kitty --env NO_COLOR=1 -- pokectl show pikachu && [ \$(field queried) = false ] && ! has \$'\e[' &&
    run kitty -- bash -c 'pokectl show pikachu | cat' && [ \$(field queried) = false ] && ! has \$'\e_G'"
check "forced kitty or sixel is emitted into a pipe, without asking anything" bash -c "
    pokectl show pikachu --image-protocol kitty | grep -qaF \$'\e_Ga=T,f=100' &&
    pokectl show pikachu --image-protocol sixel | grep -qaF \$'\eP0;1;0q' &&
    ! pokectl show pikachu --image-protocol kitty | grep -qaF \$'\e[c'"

# --- the pictures are the sprite -------------------------------------------------------------
check "kitty: the payload decodes to the sprite exactly (mean difference 0)" bash -c "
    pokectl show pikachu --image-protocol kitty > $TMP/k.out && pokedex-graphics-fidelity $TMP/k.out '$SPRITE' | tee /dev/stderr |
    awk '\$1 == \"kitty\" && \$3 == 0 && \$4 == 0 { ok = 1 } END { exit !ok }'"
check "sixel: the stream decodes to the sprite (mean difference at most 24, nothing lost)" bash -c "
    pokectl show pikachu --image-protocol sixel > $TMP/s.out && pokedex-graphics-fidelity $TMP/s.out '$SPRITE' | tee /dev/stderr |
    awk '\$1 == \"sixel\" && \$3 <= 24 && \$4 == 0 { ok = 1 } END { exit !ok }'"
cat >"$TMP/room.py" <<'PY'
# The card with a picture: room made first (newlines, then back up), the picture drawn between
# save and restore cursor, and the text on the picture's lines stepping over it (CSI n C).
import re, sys
out = open(sys.argv[1], encoding='utf-8').read()
m = re.match(r'(\n*)\x1b\[(\d+)A\x1b7\x1bP[^\x1b]*\x1b\\\x1b8(.*)', out, re.S)
assert m and len(m.group(1)) == int(m.group(2)), repr(out[:80])
rows = int(m.group(2)) + 1
lines = m.group(3).split('\n')[:rows]
assert 'Pikachu' in lines[0], repr(lines[0])
for line in lines:
    assert not line.startswith(' '), repr(line)  # spaces would erase the picture under them
    assert line == '' or re.match(r'\x1b\[\d+C', line), repr(line)
PY
check "the card's text steps over the picture (no spaces written on it) and room is made first" bash -c "
    pokectl show pikachu --image-protocol sixel > $TMP/s.out && python3 $TMP/room.py $TMP/s.out"

# --- list --images and browse ----------------------------------------------------------------
check "list --images: one kitty picture per row, none with an id a later one would replace" bash -c "
    run kitty -- pokectl list --images --per-page 5 && [ \$(count \$'\e_Ga=T,f=100') = 5 ] && ! grep -qaP '\e_G[^;]*,i=\d' $TMP/run.out &&
    grep -qa 'bulbasaur' $TMP/run.out"
check "list --images: sixel rows, the labels stepping over the pictures (no spaces written on them)" bash -c "
    run sixel -- pokectl list --images --per-page 4 && [ \$(count \$'\eP0;1;0q') = 4 ] &&
    ! grep -aP '^ ' $TMP/run.out | grep -av 'page 1 of' && [ \$(grep -acP '^\e\[12C.*#\d' $TMP/run.out) = 4 ]"
check "a background job does not ask the terminal (it may not change its modes)" bash -c "
    run kitty -- bash -c 'set -m; pokectl show pikachu --verbose & wait' && [ \$(field queried) = false ] && [ \$(field exit) = 0 ]"
check "show --random on a kitty terminal: pixels; with --color never: the silhouette" bash -c "
    run kitty -- pokectl show --random --hide-name && has \$'\e_Ga=T,f=100' && ! grep -aP '\e_G[^;]*[,]c=' $TMP/run.out &&
    run kitty -- pokectl show --random --hide-name --color never && ! has \$'\e_Ga=' && grep -qa '█' $TMP/run.out && ! grep -qaP '\e\[[0-9;]*m' $TMP/run.out"
check "browse, kitty: sprites sent once, placed per tile, taken off when scrolled away, freed on leaving" bash -c "
    run kitty --keys '1.5:\x1b[6~' --keys '2.5:\x1b[5~' --keys '3.2:q' -- pokectl browse && [ \$(field exit) = 0 ] &&
    sent=\$(grep -aoP '\e_Ga=t,f=100,i=\d+' $TMP/run.out | sort | uniq -d | wc -l) && [ \$sent = 0 ] &&
    [ \$(count \$'\e_Ga=t,f=100,i=') -ge 15 ] && [ \$(count \$'\e_Ga=p,i=') -ge 30 ] && [ \$(count \$'\e_Ga=d,d=i,') -ge 15 ] &&
    [ \$(count \$'\e_Ga=d,d=I,') = \$(count \$'\e_Ga=t,f=100,i=') ] && has \$'\e[?1049l' &&
    ! grep -qaP '\e_Ga=T' $TMP/run.out || { echo sent \$sent; grep -aoP '\e_Ga=[tpdT][^;\e]*' $TMP/run.out | sort | uniq -c | head; false; }"
check "browse, sixel: the tiles' pictures, repainted when the page changes" bash -c "
    run sixel --keys '1.5:\x1b[6~' --keys '2.5:q' -- pokectl browse && [ \$(field exit) = 0 ] && [ \$(count \$'\eP0;1;0q') -ge 30 ] &&
    has \$'\e[?1049l'"
check "browse, silent terminal: half-block tiles" bash -c "
    run silent --keys '1.5:q' -- pokectl browse && [ \$(field exit) = 0 ] && ! has \$'\e_Ga=' && ! has \$'\eP0;' && grep -qaE '▀|█' $TMP/run.out"

# --- tmux ------------------------------------------------------------------------------------
T="tmux -L pokedex-graphics -f /dev/null"
$T new-session -d -x 100 -y 30 "env PATH=$PATH DBUS_SESSION_BUS_ADDRESS=$DBUS_SESSION_BUS_ADDRESS HOME=$HOME bash --norc"
sleep 0.3
in_tmux() {  # command line: typed into the pane, waited for
    rm -f "$TMP/tmux.done"
    $T send-keys "$1; touch $TMP/tmux.done" Enter
    for _ in $(seq 50); do [ -e "$TMP/tmux.done" ] && return 0; sleep 0.1; done; return 1
}
export -f in_tmux
export T
check "tmux without allow-passthrough: half blocks, and --verbose says why" bash -c "
    $T set -g allow-passthrough off &&
    in_tmux 'pokectl show pikachu --verbose 2> $TMP/tmux.err' && cat $TMP/tmux.err &&
    grep -q 'blocks: inside tmux without allow-passthrough' $TMP/tmux.err && $T capture-pane -p | grep -q '█'"
check "tmux with allow-passthrough, no client terminal: tmux is asked, not the pane, and it says why" bash -c "
    $T set -g allow-passthrough on &&
    in_tmux 'pokectl show pikachu --verbose 2> $TMP/tmux.err' && cat $TMP/tmux.err &&
    grep -q 'blocks: inside tmux: no client terminal (kitty no, sixel no)' $TMP/tmux.err"
check "tmux with allow-passthrough: a forced picture goes through tmux's DCS passthrough" bash -c "
    $T set -g allow-passthrough on &&
    in_tmux 'pokectl show pikachu --image-protocol kitty > $TMP/tmux.out' && grep -qaF \$'\ePtmux;\e\e_Ga=T' $TMP/tmux.out"

summary graphics
