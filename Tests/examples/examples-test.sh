#!/bin/bash
# Runs every script in examples/ against the real service (pokedexd on a private bus with the
# project's mock PokeAPI), checks `pokectl watch`, and lints the man pages.
# BUILD_DIR picks the binaries (default .build/debug). Prints "examples: N passed, M failed".
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/.build/debug}
TMP=$(mktemp -d -p /run pokedex-examples.XXXXXX 2>/dev/null || mktemp -d)
export HOME=$TMP/home XDG_CACHE_HOME=$TMP/home/.cache XDG_DATA_HOME=$TMP/home/.local/share
export PATH=$BUILD_DIR:$PATH NO_COLOR=1 LC_ALL=C.UTF-8
mkdir -p "$HOME"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT
passed=0 failed=0
check() {  # description, command...
    local what=$1; shift
    if "$@" >"$TMP/check.out" 2>&1; then passed=$((passed + 1)); echo "ok   $what"
    else failed=$((failed + 1)); echo "FAIL $what"; sed 's/^/     /' "$TMP/check.out" | head -20; fi
}

out=$(dbus-daemon --config-file="$ROOT/Tests/dbus/test-bus.conf" --fork --print-address=1 --print-pid=1)
export DBUS_SESSION_BUS_ADDRESS=$(echo "$out" | sed -n 1p)
PIDS+=("$(echo "$out" | sed -n 2p)")
python3 "$ROOT/Tests/mockapi/mock_pokeapi.py" --port 0 --port-file "$TMP/port" >/dev/null 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do [ -s "$TMP/port" ] && break; sleep 0.1; done
MOCK=http://127.0.0.1:$(cat "$TMP/port")

start_daemon() {
    pokedexd --api-url "$MOCK/api/v2" --sprite-host 127.0.0.1 --sprite-url-template "$MOCK/sprites/{id}.png" \
        --idle-timeout 0 --notify=no 2>>"$TMP/pokedexd.log" &
    DAEMON=$!
    PIDS+=($DAEMON)
    for _ in $(seq 100); do pokectl status >/dev/null 2>&1 && return 0; sleep 0.1; done
    cat "$TMP/pokedexd.log"; return 1
}
start_daemon || exit 1

W=$ROOT/examples/waybar/pokedex-favorite
C=$ROOT/examples/conky/pokedex-conky
R=$ROOT/examples/rofi/pokedex-pick

# No favorites yet: each widget says so, in its own format.
check "waybar: no favorites is valid JSON with class empty" \
    bash -c "$W | jq -e '.class == \"empty\" and (.text | length > 0)'"
check "conky: no favorites" bash -c "$C | grep -qx '\${color grey}no favorites yet\${color}'"

# rofi/dmenu: the menu gets every name, one per line; the choice becomes a favorite.
check "rofi: the menu is fed all 46 names and the choice is set" bash -c "
    POKEDEX_MENU='tee $TMP/menu-input | grep -x squirtle' $R | grep -qx '★ squirtle is a favorite' &&
    [ \$(wc -l < $TMP/menu-input) = 46 ] && grep -qx pikachu $TMP/menu-input &&
    pokectl favs --json | jq -e '[.favorites[].name] == [\"squirtle\"]'"
check "rofi: picking it again keeps it a favorite (idempotent)" bash -c "
    POKEDEX_MENU='grep -x squirtle' $R >/dev/null && pokectl favs --json | jq -e '[.favorites[].name] == [\"squirtle\"]'"
check "rofi: nothing picked exits 1 and changes nothing" bash -c "
    POKEDEX_MENU='grep -x nothing-like-this' $R; [ \$? = 1 ] && pokectl favs --json | jq -e '.favorites | length == 1'"
POKEDEX_MENU='grep -x pikachu' $R >/dev/null

# Waybar: a random favorite, its colour and sprite.
check "waybar: JSON with text, tooltip, class, colour and an existing sprite" bash -c "
    out=\$($W) && echo \"\$out\" &&
    echo \"\$out\" | jq -e '(.color | test(\"^#[0-9a-f]{6}\$\")) and (.class[0] == \"favorite\")
        and (.text | test(\"^<span color=\\\"#[0-9a-f]{6}\\\">●</span> (Squirtle|Pikachu)\$\"))
        and (.tooltip | test(\"^#(7 Squirtle|25 Pikachu · Mouse Pokémon · Electric)\"))' &&
    test -s \"\$(echo \"\$out\" | jq -r .sprite_path)\" && test -s \"\$(echo \"\$out\" | jq -r .animated_sprite_path)\""
check "waybar: every favorite comes up over 40 runs" bash -c "
    for i in \$(seq 40); do $W | jq -r .alt; done | sort -u | tr '\n' ' ' | grep -qx 'pikachu squirtle '"
check "polybar: one line, %{F#rrggbb}●%{F-} Name" bash -c "
    $W --polybar | grep -Eqx '%\{F#[0-9a-f]{6}\}●%\{F-\} (Squirtle|Pikachu)'"
check "waybar: a bad option is a usage error" bash -c "$W --nope; [ \$? = 2 ]"

# Conky: the newest favorite with its image and colour, then the count.
check "conky: image, coloured name, count" bash -c "
    out=\$($C) && echo \"\$out\" &&
    echo \"\$out\" | grep -Eq '^\\\$\{image /.*/sprites/25.png -p 0,0 -s 64x64\}' &&
    echo \"\$out\" | grep -Eq '^\\\$\{color #[0-9a-f]{6}\}\\\$\{font :bold:size=12\}Pikachu\\\$\{font\}\\\$\{color\} #25\$' &&
    echo \"\$out\" | grep -qx 'Mouse Pokémon · Electric' &&
    echo \"\$out\" | grep -qx '\${color grey}2 favorites:\${color} squirtle, pikachu'"
check "conky: the conkyrc calls the script" grep -q 'execpi 30 .*/examples/conky/pokedex-conky' "$ROOT/examples/conky/pokedex.conkyrc"

# pokectl show and list --images against the real service: pictures only when asked for colour.
plain() { sed 's/\x1b\[[0-9;]*m//g'; }
export -f plain
check "show off a terminal: the plain card, no escapes, no picture" bash -c "
    out=\$(pokectl show pikachu) && echo \"\$out\" && ! printf '%s' \"\$out\" | grep -q \$'\\e' &&
    echo \"\$out\" | grep -q '^Pikachu  #025  ★' && echo \"\$out\" | grep -q '^\[Electric\]' &&
    echo \"\$out\" | grep -Eq '^Height +0\.[0-9] m \([0-9]′[0-9]{2}″\)' && echo \"\$out\" | grep -Eq '^Speed +[0-9]+ [█▏▎▍▌▋▊▉]+' &&
    echo \"\$out\" | head -1 | grep -q '^Pikachu'"
check "show --color always with COLORTERM=truecolor: a 24-bit half-block picture, 80 columns" bash -c "
    out=\$(COLUMNS=80 COLORTERM=truecolor pokectl show pikachu --color always) &&
    echo \"\$out\" | grep -q '38;2;' && echo \"\$out\" | plain | head -1 | grep -q '[▀▄█]' &&
    [ \$(echo \"\$out\" | plain | wc -L) -le 80 ]"
check "show --color always without COLORTERM: 256 colours only" bash -c "
    out=\$(COLORTERM= pokectl show pikachu --color always) && echo \"\$out\" | grep -q '38;5;' && ! echo \"\$out\" | grep -q '38;2;'"
check "show --no-image: no picture even with colour" bash -c "
    COLORTERM=truecolor pokectl show pikachu --color always --no-image | plain | head -1 | grep -q '^Pikachu'"
check "list --images: a small sprite per row, the name beside it" bash -c "
    out=\$(COLORTERM=truecolor pokectl list --images --per-page 3 --color always); echo \"\$out\" | plain | head -1 | grep -q '[▀▄█]' &&
    echo \"\$out\" | plain | grep -q '#1 bulbasaur' && echo \"\$out\" | plain | grep -q '#3 venusaur'"
check "list --images off a terminal: the plain table" bash -c "pokectl list --images --per-page 3 | head -1 | grep -q '^#  *★  *NAME'"

# pokectl watch: one JSON line per signal, flushed as it comes.
pokectl watch --count 4 >"$TMP/watch.out" &
WATCH=$!
sleep 0.5
pokectl fav bulbasaur >/dev/null
pokectl unfav bulbasaur >/dev/null
for _ in $(seq 50); do kill -0 $WATCH 2>/dev/null || break; sleep 0.1; done
check "watch: FavoriteChanged and PropertiesChanged lines, each valid JSON" bash -c "
    cat $TMP/watch.out && [ \$(wc -l < $TMP/watch.out) = 4 ] &&
    sed -n 1p $TMP/watch.out | jq -e '.event == \"FavoriteChanged\" and .name == \"bulbasaur\" and .id == 1 and .favorite == true and (.time > 1e9)' &&
    sed -n 2p $TMP/watch.out | jq -e '.event == \"PropertiesChanged\" and .interface == \"io.github.pokedexd.Pokedex1\" and .changed.Favorites == [7, 25, 1]' &&
    sed -n 3p $TMP/watch.out | jq -e '.event == \"FavoriteChanged\" and .favorite == false' &&
    sed -n 4p $TMP/watch.out | jq -e '.changed.Favorites == [7, 25]'"
setsid "$W" --follow >"$TMP/follow.out" 2>&1 &
FOLLOW=$!
sleep 1
pokectl fav charizard >/dev/null
for _ in $(seq 50); do [ "$(wc -l <"$TMP/follow.out")" -ge 2 ] && break; sleep 0.1; done
kill -- -$FOLLOW 2>/dev/null
check "waybar --follow prints again on a change" bash -c "
    cat $TMP/follow.out; [ \$(wc -l < $TMP/follow.out) = 2 ] && jq -e '.class[0] == \"favorite\"' $TMP/follow.out >/dev/null"

# The service goes away: widgets degrade quietly, the picker says why.
kill $DAEMON; wait $DAEMON 2>/dev/null
check "waybar: service unavailable is valid JSON, exit 0" bash -c "$W | jq -e '.class == \"unavailable\"'"
check "conky: service unavailable" bash -c "$C | grep -q 'Pokédex unavailable'"
check "rofi: service unavailable exits 3" bash -c "POKEDEX_MENU=cat $R; [ \$? = 3 ]"

# Man pages: render without warnings.
for page in "$ROOT/man/pokectl.1" "$ROOT/man/pokedexd.8"; do
    check "man: $(basename "$page") renders without warnings" bash -c "
        out=\$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z '$page' 2>&1); [ -z \"\$out\" ] || { echo \"\$out\"; false; }"
done
check "man: pokectl(1) documents every command, exit code and variable" bash -c "
    t=\$(LC_ALL=C.UTF-8 MANWIDTH=100 man -l '$ROOT/man/pokectl.1' 2>/dev/null | col -b);
    for w in list show search fav unfav favs sprite status sync cache watch NO_COLOR COLORTERM COLUMNS 'EXIT STATUS' ListPage; do
        echo \"\$t\" | grep -q \"\$w\" || { echo missing \$w; exit 1; }; done"
check "man: pokedexd(8) documents the API, files and variables" bash -c "
    t=\$(LC_ALL=C.UTF-8 MANWIDTH=100 man -l '$ROOT/man/pokedexd.8' 2>/dev/null | col -b);
    for w in ListPage Detail Search SearchDetailed ToggleFavorite SetFavorite ListFavorites SpritePath Status Sync \
             CacheStats VerifyCache ClearCache FavoriteChanged \
             Error.NotFound Error.InvalidArgument Error.Unavailable Error.Storage POKEDEX_NOTIFY POKEDEX_API_URL XDG_CACHE_HOME favorites.json; do
        echo \"\$t\" | grep -q \"\$w\" || { echo missing \$w; exit 1; }; done"

echo "examples: $passed passed, $failed failed"
[ "$failed" = 0 ]
