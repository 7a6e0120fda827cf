# KRunner's Match as DBusRunner calls it; numbers as written, through pokectl; sprites not cached.
# Sourced by desktop-search-test.sh; shares its variables, functions and suite.

# ---- KRunner: Match as DBusRunner calls it -----------------------------------------------------
krunner_signatures() {
    client signatures "$KRUNNER_PATH" "$KRUNNER_IFACE" | tee "$TMP/sig" &&
    for m in 'Actions  -> a(sss)' 'Config  -> a{sv}' 'Match s -> a(sssida{sv})' 'Run ss -> ' 'Teardown  -> '; do
        grep -qxF "$m" "$TMP/sig" || { echo "missing: $m"; return 1; }
    done
}
check "KRunner: $KRUNNER_PATH has org.kde.krunner1's methods, exact signatures" krunner_signatures
match_pika() {
    client krunner-match pika | tee "$TMP/match.json" | jq -c '.[] | .properties["icon-data"] |= (if . then del(.opaque_pixels) else . end)' | head -3 &&
    jq -e '.[0] as $m | $m.text == "Pikachu" and $m.relevance > 0 and $m.relevance <= 1
        and ([.[].relevance] | max) == $m.relevance
        and ($m.type | IN(0, 10, 30, 50, 70, 100))
        and ($m.properties.subtext | type == "string" and length > 0 and length <= 20 and (contains("Pokémon") | not))
        and ($m.properties["icon-data"].opaque_pixels // 0) > 0' "$TMP/match.json" >/dev/null
}
check "KRunner: Match('pika') a(sssida{sv}): Pikachu first, relevance in (0, 1] and highest, a subtext of 20 characters at most (no genus), the sprite as icon-data" match_pika; show 3
match_first() {  # QUERY NAME
    client krunner-match "$1" >"$TMP/m.json" || return 1
    jq -c '[.[] | {id, text, relevance}] | .[:3]' "$TMP/m.json"; jq -e --arg n "$2" '.[0].text == $n' "$TMP/m.json" >/dev/null
}
check "KRunner: Match('char'): Charmander first" match_first char Charmander
check "KRunner: Match('Glurak') is not an error" client krunner-match Glurak
for q in '#025' '#25' 'No. 25' 'no25' 'N°25' '２５'; do
    check "KRunner: number as written, Match('$q'): Pikachu first" match_first "$q" Pikachu
done
actions() {
    client krunner-actions | tee "$TMP/actions.json" &&
    jq -e 'length >= 3 and all(.[]; (.id | length > 0) and (.text | length > 0)) and any(.[]; .id == "favorite")' "$TMP/actions.json" >/dev/null
}
check "KRunner: Actions a(sss): at least favorite, copy, open, each with an id and a text" actions
concurrent() {
    client krunner-concurrent pika char bulb squir '#025' jiggl weed ekan | tee "$TMP/conc.json" &&
    jq -e '.sent_before_first_reply == 8 and ([.results[] | select(.error)] == [])
        and ([.results[].texts[0]] == ["Pikachu", "Charmander", "Bulbasaur", "Squirtle", "Pikachu", "Jigglypuff", "Weedle", "Ekans"])' "$TMP/conc.json" >/dev/null
}
check "KRunner: eight Match calls in flight at once, each answered for its own query" concurrent
run_favorite() {
    local id; id=$(client krunner-match pika | jq -r '.[0].id') || return 1
    client krunner-run "$id" favorite || return 1
    for _ in $(seq 50); do pokectl favs --json | jq -e '[.favorites[].name] | index("pikachu")' >/dev/null && return 0; sleep 0.1; done
    echo "favorites: $(pokectl favs --json)"; return 1
}
check "KRunner: Run(Match('pika')[0].id, 'favorite') makes pikachu a favorite" run_favorite
run_unfavorite() {
    jq -e 'any(.[]; .id == "unfavorite")' "$TMP/actions.json" >/dev/null || { echo "(one favorite action: skipped)"; return 0; }
    local id; id=$(client krunner-match pika | jq -r '.[0].id') || return 1
    client krunner-run "$id" unfavorite || return 1
    for _ in $(seq 50); do pokectl favs --json | jq -e '[.favorites[].name] | index("pikachu") | not' >/dev/null && return 0; sleep 0.1; done
    return 1
}
check "KRunner: Run(…, 'unfavorite') takes it back, when offered" run_unfavorite
config() { client krunner-config | tee "$TMP/config.json" && jq -e '.MinLetterCount.value == 2 and (.MinLetterCount.type | IN("i", "u"))' "$TMP/config.json" >/dev/null; }
check "KRunner: Config a{sv} has MinLetterCount 2" config
check "KRunner: Teardown returns" client krunner-teardown
check "KRunner: Match after Teardown still answers" match_first pika Pikachu

# ---- Numbers as written, through pokectl (Search, Detail, SpritePath, favorites) ---------------
for q in '#025' '#25' 'No. 25' 'N°25' 'no25' '２５'; do
    check "pokectl show '$q' is pikachu" bash -c "pokectl show '$q' --json | jq -e '.name == \"pikachu\"'"
done
check "pokectl search '#25': pikachu first" bash -c "pokectl search '#25' --json | jq -e '.results[0].name == \"pikachu\"'"
check "pokectl search 'No. 25': pikachu first" bash -c "pokectl search 'No. 25' --json | jq -e '.results[0].name == \"pikachu\"'"
check "pokectl sprite 'N°25': a real PNG" bash -c "p=\$(pokectl sprite 'N°25' --json | jq -r .sprite_path) && echo \$p &&
    [ \"\$(head -c 8 \"\$p\" | od -An -tx1 | tr -d ' \n')\" = 89504e470d0a1a0a ]"
check "pokectl unfav '#7' names squirtle" bash -c "pokectl unfav '#7' --json | jq -e '.name == \"squirtle\"'"

# ---- Sprites not cached: a themed fallback, still an icon --------------------------------------
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null
export XDG_CACHE_HOME=$TMP/home/.cache-nosprites  # nothing cached; port 9 refuses every sprite
start_daemon --sprite-url-template "http://127.0.0.1:9/{id}.png" --notify=no || { summary desktop-search; exit 1; }
uncached() {
    gn GetResultMetas "['25', '6']" | "$PY" "$CLIENT" check-metas | tee "$TMP/metas2.json" &&
    jq -e 'length == 2 and all(.[]; .icon.kind == "themed" or (.icon.kind == "file" and .icon.png))' "$TMP/metas2.json" >/dev/null
}
check "GNOME: sprites not cached: GetResultMetas still gives an icon (themed fallback)" uncached
check "GNOME: sprites not cached: ['pika'] still gives 25" first_is 25 GetInitialResultSet "['pika']"
uncached_match() {
    client krunner-match pika | tee "$TMP/m2.json" >/dev/null &&
    jq -e '.[0].text == "Pikachu" and (.[0].icon_name != "" or .[0].properties["icon-data"] != null)' "$TMP/m2.json"
}
check "KRunner: sprites not cached: Match('pika') still has an icon name" uncached_match
# resolves NAME THEME: the theme has the icon, or it is the project's own (installed into
# hicolor, which every theme falls back to).
resolves() {
    [ -e "$ROOT/desktop/icons/hicolor/scalable/apps/$1.svg" ] && return 0
    [ -n "$(find "/usr/share/icons/$2" -name "$1.png" -o -name "$1.svg" 2>/dev/null | head -1)" ]
}
icons_resolve() {
    [ -d /usr/share/icons/breeze ] && [ -d /usr/share/icons/Adwaita ] || { echo "breeze-icon-theme and adwaita-icon-theme are not installed (make deps)"; return 1; }
    local names; names=$( { jq -r '.[].icon_name' "$TMP/actions.json"; jq -r '.[].icon_name' "$TMP/m2.json";
        jq -r '.[].icon.names // [] | .[]' "$TMP/metas2.json"; } | grep -v '^$' | sort -u)
    echo "icon names sent:" $names
    [ -n "$names" ] || return 1
    local n bad=0
    for n in $names; do
        for theme in breeze Adwaita; do resolves "$n" "$theme" || { echo "$n: not in $theme"; bad=1; }; done
    done
    [ "$bad" = 0 ]
}
check "every icon name the service sends (actions, matches, metas) resolves in Breeze and in Adwaita" icons_resolve
app_icon() {
    grep -qx "Icon=io.github.pokedexd.Pokedex1" "$APP" &&
    grep -qx "Icon=io.github.pokedexd.Pokedex1" "$KRUNNER" &&
    for s in 16x16 22x22 24x24 32x32 48x48 64x64 128x128 256x256; do
        f="$ROOT/desktop/icons/hicolor/$s/apps/io.github.pokedexd.Pokedex1.png"
        [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || { echo "$f is not a PNG"; return 1; }
        "$PY" -c "import struct,sys; d=open(sys.argv[1],'rb').read(24); w,h=struct.unpack('>II', d[16:24]); sys.exit(0 if f'{w}x{h}' == sys.argv[2] else 1)" "$f" "$s" ||
            { echo "$f is not $s"; return 1; }
    done
}
check "the app entry and KRunner's plugin use the project's own icon, drawn at every hicolor size" app_icon
