# Fetch tools (show --random, pokedex-fetch) and the man pages (sourced by examples-test.sh).
# Shares examples-test.sh's variables (ROOT, TMP, W, C, R, MOCK, DAEMON) and its suite.

# Fetch tools: show --random, and examples/fastfetch/pokedex-fetch.
F=$ROOT/examples/fastfetch/pokedex-fetch
cat >"$TMP/random-check.py" <<'EOF'
# show --random's text: only SGR sequences and half blocks, every line at most WIDTH columns;
# with "name", the name under the sprite, each of its lines (a name wider than WIDTH goes on a
# second line) centred and within WIDTH: printed, joined, for the caller to search.
import re, sys
text, width, named = open(sys.argv[1], encoding="utf-8").read(), int(sys.argv[2]), sys.argv[3:] == ["name"]
lines = text.rstrip("\n").split("\n")
art = [l for l in lines if re.fullmatch(r"(\x1b\[[0-9;]*m|[ ▀▄█])*", l)]
rest = lines[len(art):]
assert art and lines[:len(art)] == art, text
for line in art:
    assert len(re.sub(r"\x1b\[[0-9;]*m", "", line)) <= width, repr(line)
if named:
    assert 1 <= len(rest) <= 2, rest
    for line in rest:
        part = line.lstrip(" ")
        assert len(line) <= width and line == " " * max(0, (width - len(part)) // 2) + part, (line, width)
    print(" ".join(l.strip() for l in rest))
else:
    assert not rest, rest
EOF
check "random: JSON with the id, name, an existing sprite file and shiny" bash -c "
    out=\$(pokectl show --random --json) && echo \"\$out\" &&
    echo \"\$out\" | jq -e '(.id | type == \"number\") and (.name | length > 0) and (.shiny | type == \"boolean\")' &&
    test -s \"\$(echo \"\$out\" | jq -r .path)\""
# Never shiny here (its own check is below): a shiny draw's line is "Shiny NAME", which is no name to search.
check "random: coloured half blocks even into a pipe (only SGR), the name centred under them" bash -c "
    env -u NO_COLOR COLORTERM=truecolor pokectl show --random --width 12 --shiny-chance 0 > $TMP/random.out && cat -v $TMP/random.out &&
    grep -q \$'\e\[38;2;' $TMP/random.out && name=\$(python3 $TMP/random-check.py $TMP/random.out 12 name) &&
    echo \"name: \$name\" && pokectl search \"\$name\" --json | jq -e '.results | length > 0'"
check "random: --hide-name is the sprite alone; 256 colours without COLORTERM" bash -c "
    env -u NO_COLOR -u COLORTERM pokectl show --random --hide-name --width 10 > $TMP/random.out &&
    python3 $TMP/random-check.py $TMP/random.out 10 && grep -q \$'\e\[38;5;' $TMP/random.out"
check "random: NO_COLOR or --color never: the silhouette, no escape at all" bash -c "
    pokectl show --random --hide-name > $TMP/a.out && env -u NO_COLOR pokectl show --random --hide-name --color never > $TMP/b.out &&
    ! grep -q \$'\e' $TMP/a.out $TMP/b.out && grep -q '█' $TMP/a.out && python3 $TMP/random-check.py $TMP/a.out 96"
check "random: --favorite draws among the favorites only" bash -c "
    favs=\$(pokectl favs --json | jq -r '[.favorites[].name] | sort | join(\" \")') && [ -n \"\$favs\" ] &&
    got=\$(for i in \$(seq 30); do pokectl show --random --favorite --json | jq -r .name; done | sort -u | tr '\n' ' ') &&
    echo \"favorites: \$favs; drawn: \$got\" && [ \"\$got\" = \"\$favs \" ]"
check "random: --shiny-chance 1 draws a shiny sprite once one is cached (warmed after each draw)" bash -c "
    for i in \$(seq 50); do
        out=\$(pokectl show --random --shiny-chance 1 --json) || exit 1
        echo \"\$out\" | jq -e '.shiny and (.path | endswith(\"-shiny.png\"))' >/dev/null && test -s \"\$(echo \"\$out\" | jq -r .path)\" && {
            pokectl cache stats --json | jq -e '.kinds.shiny_sprites.count >= 1'; exit; }
        sleep 0.1
    done; false"
check "random: --shiny-chance 0 never draws a shiny one; 1/128 is taken" bash -c "
    for i in \$(seq 20); do pokectl show --random --shiny-chance 0 --json | jq -e '.shiny == false' >/dev/null || exit 1; done &&
    pokectl show --random --shiny-chance 1/128 --hide-name >/dev/null"
check "random: bad options are usage errors (exit 2), and the bus refuses a chance outside 0…1" bash -c "
    pokectl show --random --shiny-chance 2; [ \$? = 2 ] || exit 1; pokectl show --random --shiny-chance 1/0; [ \$? = 2 ] || exit 1
    pokectl show pikachu --random; [ \$? = 2 ] || exit 1; pokectl show pikachu --favorite; [ \$? = 2 ] || exit 1
    pokectl show; [ \$? = 2 ] || exit 1; pokectl show --random --width 0; [ \$? = 2 ] || exit 1
    out=\$(busctl --user call io.github.pokedexd.Pokedex1 /io/github/pokedexd/Pokedex1 io.github.pokedexd.Pokedex1 RandomSprite bd false 1.5 2>&1)
    echo \"\$out\"; echo \"\$out\" | grep -q 'probability between 0 and 1'"
check "random over busctl: (u id, s name, s path, b shiny)" bash -c "
    busctl --user call io.github.pokedexd.Pokedex1 /io/github/pokedexd/Pokedex1 io.github.pokedexd.Pokedex1 RandomSprite bd true 0 |
    grep -Eq '^ussb [0-9]+ \"[a-z-]+\" \"/[^\"]+\.png\" false\$'"
check "pokedex-fetch: neofetch's text starts 3 columns after the sprite (colour codes not counted)" bash -c "
    tmux -L pokedex-fetch -f /dev/null new-session -d -x 150 -y 40 \"env -u NO_COLOR PATH=$PATH HOME=$HOME DBUS_SESSION_BUS_ADDRESS=\$DBUS_SESSION_BUS_ADDRESS COLORTERM=truecolor bash --norc\" &&
    sleep 0.3 && tmux -L pokedex-fetch send-keys '$F --width 14 --hide-name; echo done-fetch' Enter &&
    for i in \$(seq 100); do tmux -L pokedex-fetch capture-pane -p | grep -q '^done-fetch' && break; sleep 0.1; done
    tmux -L pokedex-fetch capture-pane -p > $TMP/fetch.txt; tmux -L pokedex-fetch kill-server; cat $TMP/fetch.txt
    grep -Eq '^[ ▀▄█]{14}   [^ ]+@[^ ]+\$' $TMP/fetch.txt && grep -Eq '^[ ▀▄█]{14}   OS: ' $TMP/fetch.txt"
check "pokedex-fetch: sized for an 80x24 terminal, the whole logo and neofetch's info stay on screen" bash -c "
    tmux -L pokedex-fetch80 -f /dev/null new-session -d -x 80 -y 24 \"env -u NO_COLOR -u COLUMNS -u LINES PATH=$PATH HOME=$HOME DBUS_SESSION_BUS_ADDRESS=\$DBUS_SESSION_BUS_ADDRESS COLORTERM=truecolor bash --norc -c '$F; echo done-fetch; sleep 30'\" &&
    for i in \$(seq 100); do tmux -L pokedex-fetch80 capture-pane -p | grep -q '^done-fetch' && break; sleep 0.1; done
    tmux -L pokedex-fetch80 capture-pane -p > $TMP/fetch80.txt; scrolled=\$(tmux -L pokedex-fetch80 display -p '#{history_size}')
    tmux -L pokedex-fetch80 kill-server; cat $TMP/fetch80.txt; echo \"scrolled off: \$scrolled line(s)\"
    [ \"\$scrolled\" = 0 ] && [ \$(grep -c '[▀▄█]' $TMP/fetch80.txt) -ge 8 ] && grep -q '@' $TMP/fetch80.txt &&
    grep -q 'Memory: ' $TMP/fetch80.txt && [ \$(wc -L < $TMP/fetch80.txt) -le 80 ]"
mkdir -p "$TMP/fakefetch"
cat >"$TMP/fakefetch/fastfetch" <<'EOF'
#!/bin/sh
# fastfetch as pokedex-fetch calls it: the arguments, then the logo it was given on stdin.
echo "args: $*"; cat
EOF
chmod +x "$TMP/fakefetch/fastfetch"
check "pokedex-fetch: fastfetch is given the sprite on stdin (--file-raw -), once, and nothing follows it" bash -c "
    out=\$(PATH=$TMP/fakefetch:\$PATH FETCH_OPTS='--logo-padding-top 1' $F --width 8 --hide-name) && echo \"\$out\" &&
    [ \"\$(echo \"\$out\" | head -1)\" = 'args: --file-raw - --logo-padding-top 1' ] &&
    [ \$(echo \"\$out\" | grep -c '█') -ge 1 ] && [ \$(echo \"\$out\" | grep -c '^args:') = 1 ] &&
    [ \$(echo \"\$out\" | wc -l) = \$(( \$(pokectl show --random --width 8 --hide-name | wc -l) + 1 )) ]"
check "pokedex-fetch: without an answer from the service it still runs the fetch tool and exits 0" bash -c "
    POKECTL=false $F > $TMP/fetch.out 2> $TMP/fetch.err; rc=\$?; cat $TMP/fetch.err
    [ \$rc = 0 ] && grep -q 'no sprite from pokedexd' $TMP/fetch.err && grep -aq 'Kernel' $TMP/fetch.out"
kill $DAEMON; wait $DAEMON 2>/dev/null

# Man pages: render without warnings.
for page in "$ROOT/man/pokectl.1" "$ROOT/man/pokedexd.1"; do
    check "man: $(basename "$page") renders without warnings" bash -c "
        out=\$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z '$page' 2>&1); [ -z \"\$out\" ] || { echo \"\$out\"; false; }"
done
check "man: pokectl(1) documents every command, exit code and variable" bash -c "
    t=\$(LC_ALL=C.UTF-8 MANWIDTH=100 man -l '$ROOT/man/pokectl.1' 2>/dev/null | col -b);
    for w in list show search fav unfav favs sprite status sync cache watch NO_COLOR COLORTERM COLUMNS 'EXIT STATUS' ListPage \
             PICTURES --random --shiny-chance --image-protocol allow-passthrough sixel kitty; do
        echo \"\$t\" | grep -qF -- \"\$w\" || { echo missing \$w; exit 1; }; done"
check "man: pokedexd(1) documents the API, files and variables" bash -c "
    t=\$(LC_ALL=C.UTF-8 MANWIDTH=100 man -l '$ROOT/man/pokedexd.1' 2>/dev/null | col -b);
    for w in ListPage Detail Search SearchDetailed ToggleFavorite SetFavorite ListFavorites SpritePath Status Sync \
             CacheStats VerifyCache ClearCache RandomSprite FavoriteChanged \
             Error.NotFound Error.InvalidArgument Error.Unavailable Error.Storage POKEDEX_NOTIFY POKEDEX_API_URL XDG_CACHE_HOME favorites.json; do
        echo \"\$t\" | grep -qF -- \"\$w\" || { echo missing \$w; exit 1; }; done"
