#!/bin/bash
# Real pixels in the terminal: pokectl on a pty that answers as kitty, as a sixel terminal, or
# not at all (Tests/end-to-end/graphics/fake_terminal.py); the pictures decoded back and compared with the
# sprite (pokedex-graphics-fidelity); tmux's passthrough; and when the terminal is not asked.
# Against pokedexd on a private bus with the project's mock PokeAPI.
# BUILD_DIR picks the binaries (default .build/debug). Prints "graphics: N passed, M failed".
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
SUITE=graphics
source "$ROOT/Tests/support/lib/suite.sh"
unset NO_COLOR TMUX
on_cleanup() { tmux -L pokedex-graphics kill-server 2>/dev/null; }
FAKE=$ROOT/Tests/end-to-end/graphics/fake_terminal.py
# run KIND [fake options] -- command...: the JSON report in $TMP/run.json, the output in $TMP/run.out
run() { python3 "$FAKE" "$@" >"$TMP/run.json" && jq -j .output "$TMP/run.json" | iconv -f utf-8 -t latin1 >"$TMP/run.out"; }
field() { jq -r ".$1" "$TMP/run.json"; }
has() { grep -qaF -- "$1" "$TMP/run.out"; }
count() { grep -aoF -- "$1" "$TMP/run.out" | wc -l; }
# The checks run in `bash -c`: these are theirs too.
export -f run field has count
export TMP FAKE

source "$ROOT/Tests/support/lib/private-service.sh"
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
# A terminal that never answers: half blocks chosen after 100 ms; its answers are then waited for
# (every real terminal answers Device Attributes) at most a second after the queries, so that a
# late one reaches no shell, then the terminal is given back.
check "silent: half blocks after the 100 ms timeout; the terminal given back within a second of the queries" bash -c "
    a=(); b=()
    for i in 1 2 3; do
        run silent -- pokectl show pikachu --verbose && a+=(\$(field seconds)) && has 'did not answer within 100 ms' && grep -qaE '▀|█' $TMP/run.out &&
            [ \$(field restored) = true ] || exit 1
        run silent -- pokectl show pikachu --image-protocol blocks && b+=(\$(field seconds)) || exit 1
    done
    python3 -c 'import statistics, sys; a, b = [statistics.median(map(float, x.split())) for x in sys.argv[1:]]; print(f\"auto {a:.3f} s, blocks {b:.3f} s\"); sys.exit(a - b > 1.1)' \"\${a[*]}\" \"\${b[*]}\""
# Issue 36: a terminal over a slow link answers after the 100 ms wait: the answers are read and
# discarded before pokectl exits (Device Attributes, the last, is the fence), so none lands on
# the next prompt: the shell after pokectl reads only what is typed.
for ms in 150 400 900; do
    check "a terminal answering after $ms ms: nothing of it reaches the shell after pokectl" bash -c "
        run kitty --answer-after 0.$ms --keys-on '1:SHELL> :typed\\r' -- $ROOT/Tests/end-to-end/graphics/then_shell.sh show pikachu &&
        grep -a 'LEFT' $TMP/run.out && has 'LEFT[typed]' && ! has 'Gi=31;OK' && ! has '62;22c'"
done
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
    grep -qa 'Bulbasaur' $TMP/run.out"
check "list --images: sixel rows, the labels stepping over the pictures (no spaces written on them)" bash -c "
    run sixel -- pokectl list --images --per-page 4 && [ \$(count \$'\eP0;1;0q') = 4 ] &&
    ! grep -aP '^ ' $TMP/run.out | grep -av 'page 1 of' && [ \$(grep -acP '^\e\[12C.*#\d' $TMP/run.out) = 4 ] ||
    { echo exit \$(field exit) sixels \$(count \$'\eP0;1;0q') labels \$(grep -acP '^\e\[12C.*#\d' $TMP/run.out); grep -av \$'\eP' $TMP/run.out | cat -v | cut -c1-160 | head -12; false; }"
check "a background job does not ask the terminal (it may not change its modes)" bash -c "
    run kitty -- bash -c 'set -m; pokectl show pikachu --verbose & wait' && [ \$(field queried) = false ] && [ \$(field exit) = 0 ]"
check "show --random on a kitty terminal: pixels; with --color never: the silhouette" bash -c "
    run kitty -- pokectl show --random --hide-name && has \$'\e_Ga=T,f=100' && ! grep -aP '\e_G[^;]*[,]c=' $TMP/run.out &&
    run kitty -- pokectl show --random --hide-name --color never && ! has \$'\e_Ga=' && grep -qa '█' $TMP/run.out && ! grep -qaP '\e\[[0-9;]*m' $TMP/run.out"
check "browse, kitty: sprites sent once, placed per tile, taken off when scrolled away, freed on leaving" bash -c "
    run kitty --keys-on '15:\x1b_Ga=p,i=:\x1b[6~' --keys-on '30:\x1b_Ga=p,i=:\x1b[5~' --keys-on '45:\x1b_Ga=p,i=:q' -- pokectl browse &&
    [ \$(field exit) = 0 ] &&
    sent=\$(grep -aoP '\e_Ga=t,f=100,i=\d+' $TMP/run.out | sort | uniq -d | wc -l) && [ \$sent = 0 ] &&
    [ \$(count \$'\e_Ga=t,f=100,i=') -ge 15 ] && [ \$(count \$'\e_Ga=p,i=') -ge 30 ] && [ \$(count \$'\e_Ga=d,d=i,') -ge 15 ] &&
    [ \$(count \$'\e_Ga=d,d=I,') = \$(count \$'\e_Ga=t,f=100,i=') ] && has \$'\e[?1049l' &&
    ! grep -qaP '\e_Ga=T' $TMP/run.out || { echo sent \$sent; grep -aoP '\e_Ga=[tpdT][^;\e]*' $TMP/run.out | sort | uniq -c | head; false; }"
check "browse, sixel: the tiles' pictures, repainted when the page changes" bash -c "
    run sixel --keys-on '15:\x1bP0;1;0q:\x1b[6~' --keys-on '30:\x1bP0;1;0q:q' -- pokectl browse && [ \$(field exit) = 0 ] &&
    [ \$(count \$'\eP0;1;0q') -ge 30 ] &&
    has \$'\e[?1049l' ||
    { echo exit \$(field exit) after \$(field seconds) s, sixels \$(count \$'\eP0;1;0q'), screen left \$(count \$'\e[?1049l'); false; }"
# Issue 36: the card in real pixels, as the grid: a picture wider than any tile's, sent once the
# card opens (Enter), placed in the card, taken off when it closes (Esc).
widths() { python3 -c '
import base64, re, struct, sys
data = open(sys.argv[1], "rb").read()
images, current = {}, None
for keys, payload in re.findall(rb"\x1b_G([^;\x1b]*);([^\x1b]*)\x1b\\", data):
    k = dict(kv.split(b"=", 1) for kv in keys.split(b",") if b"=" in kv)
    if k.get(b"a") == b"t": current = k[b"i"]; images[current] = b""
    if current is not None and (k.get(b"a") in (b"t", None)): images[current] += payload
    if k.get(b"m", b"0") == b"0": current = None
for i, b64 in images.items():
    png = base64.b64decode(b64 + b"=" * (-len(b64) % 4))
    print(struct.unpack(">I", png[16:20])[0])' "$1"; }
export -f widths
check "browse, kitty: the card's sprite in pixels, wider than a tile's, taken off with the card" bash -c "
    run kitty --keys-on '15:\x1b_Ga=p,i=:\r' --keys-on '16:\x1b_Ga=t,f=100,i=:\x1b' --keys-on '16:\x1b_Ga=d,d=i,:q' -- pokectl browse &&
    [ \$(field exit) = 0 ] &&
    w=\$(widths $TMP/run.out | sort -n | uniq) && tiles=\$(echo \"\$w\" | head -1) && card=\$(echo \"\$w\" | tail -1) &&
    echo \"tile \$tiles px, card \$card px\" && [ \$card -gt \$((tiles * 2)) ] &&
    [ \$(count \$'\e_Ga=d,d=i,') -ge 1 ]"
check "browse, sixel: the card's sprite in pixels" bash -c "
    run sixel --keys-on '15:\x1bP0;1;0q:q' -- pokectl browse && tiles=\$(count \$'\eP0;1;0q') &&
    run sixel --keys-on '15:\x1bP0;1;0q:\r' --keys-on '16:\x1bP0;1;0q:q' -- pokectl browse && [ \$(field exit) = 0 ] &&
    [ \$(count \$'\eP0;1;0q') -gt \$tiles ]"
check "browse, silent terminal: half-block tiles" bash -c "
    run silent --keys-on '1:█:q' -- pokectl browse && [ \$(field exit) = 0 ] && ! has \$'\e_Ga=' && ! has \$'\eP0;' && grep -qaE '▀|█' $TMP/run.out"

# --- hostile terminals (issue 26): cell sizes huge, past 64 bits, negative, zero, cut off -----
# pokectl survives each, its pictures stay small, and the terminal is given back (canonical mode
# and echo on the pty, the alternate screen and mouse reporting left).
for kind in huge big overflow negative zero partial; do
    check "hostile terminal ($kind): show and browse exit 0, bounded output, the terminal given back" bash -c "
        run $kind -- pokectl show 25 && [ \$(field exit) = 0 ] && [ \$(field restored) = true ] &&
        [ \$(stat -c %s $TMP/run.out) -lt 4000000 ] &&
        run $kind --keys '1.5:q' -- pokectl browse && [ \$(field exit) = 0 ] && [ \$(field restored) = true ] &&
        has \$'\e[?1049l' && has \$'\e[?1000l' && [ \$(stat -c %s $TMP/run.out) -lt 8000000 ] ||
        { echo exit \$(field exit) restored \$(field restored) bytes \$(stat -c %s $TMP/run.out); false; }"
done
check "hostile window size (TIOCGWINSZ 65535×65535 px on 80×24 cells): forced pictures stay small" bash -c "
    run silent --pixels 65535x65535 -- pokectl show 25 --image-protocol kitty && [ \$(field exit) = 0 ] &&
    [ \$(stat -c %s $TMP/run.out) -lt 4000000 ] &&
    run silent --pixels 65535x65535 --keys '1.5:q' -- pokectl browse --image-protocol sixel && [ \$(field exit) = 0 ] &&
    [ \$(field restored) = true ] && has \$'\e[?1049l'"

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

# --- a sprite server that sends 4096×4096 sprites (the mock's huge_sprites, issue 26) ----------
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null
export XDG_CACHE_HOME=$TMP/home/.cache-huge
curl -sf -X POST -d '{"huge_sprites": 4096}' "$MOCK/__control" >/dev/null
start_daemon --notify=no || { summary graphics; exit 1; }
pokectl list >/dev/null
# bounded FILE: at most 100 lines and 200 KB.
bounded() { local l b; l=$(wc -l <"$1"); b=$(stat -c %s "$1"); echo "$l lines, $b bytes"; [ "$l" -le 100 ] && [ "$b" -le 204800 ]; }
export -f bounded
check "huge sprites (4096×4096): refused when cached, with a journal line; show --random stays within 100 lines, 200 KB" bash -c "
    pokectl show --random > $TMP/random.out 2>&1; bounded $TMP/random.out &&
    grep -q '4096×4096, larger than the 512×512 any sprite is' $TMP/pokedexd.log &&
    ! find $XDG_CACHE_HOME -name '*.png' -size +100k | grep -q ."
check "huge sprites: show 25 and browse on a kitty terminal survive them" bash -c "
    run kitty -- pokectl show 25 && [ \$(field exit) = 0 ] && [ \$(stat -c %s $TMP/run.out) -lt 204800 ] &&
    run kitty --keys '1.5:q' -- pokectl browse && [ \$(field exit) = 0 ] && [ \$(field restored) = true ]"
# At the cap (512×512, as big as a HOME render): kept, and drawn at most 96 columns wide.
curl -sf -X POST -d '{"huge_sprites": 512}' "$MOCK/__control" >/dev/null
pokectl show pikachu >/dev/null 2>&1; pokectl sprite 25 >/dev/null 2>&1
check "sprites at the cap (512×512): show --random within 96 columns, 100 lines and 200 KB, in blocks, kitty and sixel" bash -c "
    pokectl show --random > $TMP/random.out && bounded $TMP/random.out &&
    [ \$(sed 's/\x1b\[[0-9;]*m//g' $TMP/random.out | wc -L) -le 96 ] &&
    pokectl show --random --image-protocol kitty > $TMP/random-k.out && bounded $TMP/random-k.out &&
    pokectl show --random --image-protocol sixel > $TMP/random-s.out && bounded $TMP/random-s.out"
mkdir -p "$TMP/fakeneofetch"
cat >"$TMP/fakeneofetch/neofetch" <<'EOF'
#!/bin/bash
# neofetch as pokedex-fetch runs it: the logo's size, from the file --ascii names.
while [ $# -gt 0 ]; do [ "$1" = --ascii ] && { wc -c < "$2"; shift; }; shift; done
echo neofetch-ran
EOF
chmod +x "$TMP/fakeneofetch/neofetch"
check "pokedex-fetch with 200 columns of sprite (~300 KB of colour codes): neofetch runs, no 'Argument list too long'" bash -c "
    out=\$(PATH=$TMP/fakeneofetch:\$PATH bash $ROOT/examples/fastfetch/pokedex-fetch --width 200 2>&1); rc=\$?; echo \"\$out\" | tail -3
    [ \$rc = 0 ] && echo \"\$out\" | grep -q neofetch-ran && ! echo \"\$out\" | grep -q 'too long'"

summary graphics
