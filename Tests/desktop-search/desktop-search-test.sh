#!/bin/bash
# The desktop asks pokedexd (issue 15): GNOME Shell's org.gnome.Shell.SearchProvider2 called with
# gdbus, KRunner's org.kde.krunner1 called with a Python D-Bus client (search_clients.py), both
# as the shells call them; Pokédex numbers as people write them (#025, No. 25, N°25, no25,
# full-width digits) through both providers and pokectl; and the file contracts (the app entry,
# the search provider's ini, the KRunner plugin). The daemon runs on a private bus against the
# project's mock PokeAPI, with a recording notification server. BUILD_DIR picks the binaries
# (default .build/debug). Prints "desktop-search: N passed, M failed".
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=desktop-search
source "$ROOT/Tests/lib/suite.sh"
export NO_COLOR=1
PY=/usr/bin/python3  # Debian's, with python3-dbus and python3-gi
CLIENT=$ROOT/Tests/desktop-search/search_clients.py
DESKTOP=$ROOT/desktop
SERVICE=io.github.pokedexd.Pokedex1
GNOME_PATH=/io/github/pokedexd/SearchProvider GNOME_IFACE=org.gnome.Shell.SearchProvider2
KRUNNER_PATH=/io/github/pokedexd/KRunner KRUNNER_IFACE=org.kde.krunner1
# show [LINES]: the output of the last check when it passed, indented (the real gdbus and Match
# replies, for the note).
show() { [ "$last" = ok ] && sed 's/^/     | /' "$TMP/check.out" | head -"${1:-8}"; return 0; }
client() { timeout 30 "$PY" "$CLIENT" "$@"; }

# ---- The file contracts (no daemon needed) ----------------------------------------------------
keyfile() {  # FILE GROUP KEY: the value (GLib's key-file parser, as GNOME reads it)
    "$PY" -c 'import sys; from gi.repository import GLib
k = GLib.KeyFile(); k.load_from_file(sys.argv[1], GLib.KeyFileFlags.NONE)
print(k.get_string(sys.argv[2], sys.argv[3]))' "$@" 2>/dev/null
}
key_is() {  # FILE GROUP KEY REGEX
    local v; v=$(keyfile "$1" "$2" "$3") || { echo "no $3 in [$2] of $1"; return 1; }
    echo "$3=$v"; [[ $v =~ $4 ]] || { echo "$3 does not match /$4/"; return 1; }
}
# The entries as installed: translated from po/ by msgfmt --desktop (make catalogues).
make -s -C "$ROOT" catalogues >/dev/null || { echo "make catalogues failed"; exit 1; }
APP=$ROOT/.build/desktop/io.github.pokedexd.Pokedex1.desktop
INI=$DESKTOP/io.github.pokedexd.Pokedex1.search-provider.ini
KRUNNER=$ROOT/.build/desktop/io.github.pokedexd.Pokedex1-krunner.desktop
check "app entry: desktop-file-validate passes" desktop-file-validate "$APP"
translated() {  # FILE KEY...: each KEY in German, Japanese and every other catalogue's language
    local f=$1 k l; shift
    for k in "$@"; do
        for l in $(cat "$ROOT/po/LINGUAS"); do
            grep -q "^$k\[$l\]=." "$f" || { echo "no $k[$l] in $f"; return 1; }
        done
    done
    grep -E '^(Name|Comment)\[(de|ja)\]=' "$f"
}
check "app entry: Name, GenericName, Comment and Keywords in every catalogue's language" translated "$APP" Name GenericName Comment Keywords
check "KRunner's plugin: Name and Comment in every catalogue's language" translated "$KRUNNER" Name Comment
app_shown() {
    for k in NoDisplay Hidden; do
        [ "$(keyfile "$APP" 'Desktop Entry' "$k")" = true ] && { echo "$k=true: GNOME drops the providers of hidden apps"; return 1; }
    done
    key_is "$APP" 'Desktop Entry' Exec '^pokectl browse' && key_is "$APP" 'Desktop Entry' Type '^Application$'
}
check "app entry: shown (not NoDisplay, not Hidden), Exec=pokectl browse" app_shown
search_ini() {
    local g='Shell Search Provider'
    key_is "$INI" "$g" DesktopId '^io\.github\.pokedexd\.Pokedex1\.desktop$' &&
    key_is "$INI" "$g" BusName '^io\.github\.pokedexd\.Pokedex1$' &&
    key_is "$INI" "$g" ObjectPath '^/io/github/pokedexd/SearchProvider$' &&
    key_is "$INI" "$g" Version '^2$' &&
    [ -f "$(dirname "$APP")/$(keyfile "$INI" "$g" DesktopId)" ] || { echo "DesktopId names no app entry"; return 1; }
}
check "search provider ini: [Shell Search Provider] DesktopId, BusName, ObjectPath, Version=2" search_ini
krunner_plugin() {
    local g='Desktop Entry'
    key_is "$KRUNNER" "$g" Type '^Service$' &&
    key_is "$KRUNNER" "$g" Name '.' &&
    key_is "$KRUNNER" "$g" X-KDE-PluginInfo-Name '^[A-Za-z0-9._-]+$' &&
    key_is "$KRUNNER" "$g" X-KDE-PluginInfo-EnabledByDefault '^true$' &&
    key_is "$KRUNNER" "$g" X-KDE-ServiceTypes 'Plasma/Runner' &&
    key_is "$KRUNNER" "$g" X-Plasma-API '^DBus2?$' &&
    key_is "$KRUNNER" "$g" X-Plasma-DBusRunner-Service '^io\.github\.pokedexd\.Pokedex1$' &&
    key_is "$KRUNNER" "$g" X-Plasma-DBusRunner-Path '^/io/github/pokedexd/KRunner$'
}
check "KRunner plugin: Type=Service, X-Plasma-API=DBus(2), X-Plasma-DBusRunner-Service and -Path, plugin id, enabled" krunner_plugin

# ---- A private bus, the mock PokeAPI, a notification recorder, the daemon ----------------------
source "$ROOT/Tests/lib/private-service.sh"
start_private_bus
start_mock
"$PY" "$ROOT/Tests/mocknotify/notification_recorder.py" --log "$TMP/notifications.jsonl" --ready "$TMP/notify.ready" >/dev/null 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do [ -e "$TMP/notify.ready" ] && break; sleep 0.1; done
touch "$TMP/notifications.jsonl"

# The daemon finds no terminal, launcher or clipboard tool on its PATH, whatever this machine
# has installed: activating a result shows the card.
DAEMON_ENV=(PATH="$BUILD_DIR")
start_daemon --sprite-url-template "$MOCK/sprites/{id}.png" --notify=yes || { summary desktop-search; exit 1; }

# gdbus, as GNOME Shell calls the provider: gn METHOD ARGS... prints the GVariant reply.
gn() { timeout 15 gdbus call --session --timeout 10 --dest "$SERVICE" --object-path "$GNOME_PATH" --method "$GNOME_IFACE.$1" "${@:2}"; }
# gids METHOD ARGS...: the result ids as a JSON array.
gids() {
    gn "$@" >"$TMP/gdbus.out" || return 1
    "$PY" "$CLIENT" gvariant --type '(as)' <"$TMP/gdbus.out" | jq -c '.[0]'
}
as_gvariant() { jq -r 'if length == 0 then "@as []" else "[" + (map("\u0027" + . + "\u0027") | join(", ")) + "]" end'; }
# first_is ID METHOD ARGS...: the first result is ID.
first_is() {
    local want=$1 got; shift
    got=$(gids "$@") || return 1
    echo "$got"; [ "$(echo "$got" | jq -r '.[0] // empty')" = "$want" ]
}
subset() {  # JSON arrays A B: every element of A is in B
    jq -e -n --argjson a "$1" --argjson b "$2" '$a - $b == []' >/dev/null || { echo "$1 is not within $2"; return 1; }
}

# ---- GNOME Shell: the interface, searches, narrowing, metas -----------------------------------
gnome_signatures() {
    client signatures "$GNOME_PATH" "$GNOME_IFACE" | tee "$TMP/sig" &&
    diff <(printf '%s\n' 'ActivateResult sasu -> ' 'GetInitialResultSet as -> as' 'GetResultMetas as -> aa{sv}' \
                         'GetSubsearchResultSet asas -> as' 'LaunchSearch asu -> ') "$TMP/sig"
}
check "GNOME: $GNOME_PATH has SearchProvider2's five methods, exact signatures" gnome_signatures
initial_pika() { gn GetInitialResultSet "['pika']" && first_is 25 GetInitialResultSet "['pika']"; }
check "GNOME: GetInitialResultSet ['pika'] gives 25 first" initial_pika; show 2
no_result() { local got; got=$(gids GetInitialResultSet "['zzqqxx']") && echo "$got" && [ "$got" = '[]' ]; }
check "GNOME: GetInitialResultSet ['zzqqxx'] gives no result, no error" no_result
CHAR=$(gids GetInitialResultSet "['char']" 2>/dev/null || echo null)
char_initial() { echo "$CHAR"; subset '["4","5","6"]' "$CHAR"; }
check "GNOME: ['char'] finds charmander, charmeleon, charizard" char_initial
# GNOME Shell hands a subsearch whatever it kept of the last search: the answer, [] when that
# search was still pending as the next key came, or the answer to other words. A subsearch is
# a search: it answers exactly what GetInitialResultSet does, and finds what it must.
subsearch_is_search() {  # PREVIOUS(JSON) TERMS(GVariant) MUST_CONTAIN(JSON)
    local got fresh
    got=$(gids GetSubsearchResultSet "$(echo "$1" | as_gvariant)" "$2") || return 1
    fresh=$(gids GetInitialResultSet "$2") || return 1
    echo "subsearch of $1 with $2: $got; a search: $fresh"; [ "$got" = "$fresh" ] && subset "$3" "$got"
}
check "GNOME: GetSubsearchResultSet(['char'] results, ['chari']) finds charizard, as a search does" subsearch_is_search "$CHAR" "['chari']" '["6"]'
check "GNOME: GetSubsearchResultSet(['char'] results, ['char', 'izard']): every term must match, as a search" subsearch_is_search "$CHAR" "['char', 'izard']" '["6"]'
check "GNOME: GetSubsearchResultSet(['25'], ['char']): stale previous results, still charmander to charizard" subsearch_is_search '["25"]' "['char']" '["4","5","6"]'
check "GNOME: GetSubsearchResultSet([], ['pika']): a search that was pending, still Pikachu" subsearch_is_search '[]' "['pika']" '["25"]'
check "GNOME: GetSubsearchResultSet(['2'], ['#25']): typed as '#2', a pause, '5'" subsearch_is_search '["2"]' "['#25']" '["25"]'
and_terms() {
    local got; got=$(gids GetInitialResultSet "['char', 'izard']") || return 1
    echo "$got"; [ "$(echo "$got" | jq -r '.[0]')" = 6 ] && ! echo "$got" | jq -e 'index("4")' >/dev/null
}
check "GNOME: ['char', 'izard'] is an AND: charizard first, no charmander" and_terms
# GNOME splits the entry on white space: "No. 25" arrives as ['No.', '25'].
for terms in "['#025']" "['#25']" "['No.', '25']" "['No.25']" "['no25']" "['N°25']" "['２５']" "['#０２５']"; do
    check "GNOME: number as written, $terms gives 25 first" first_is 25 GetInitialResultSet "$terms"
done
check "GNOME: a subsearch keeps numbers: (['25'], ['#025'])" subsearch_is_search '["25"]' "['#025']" '["25"]'

SPRITE=$(pokectl sprite pikachu --json 2>/dev/null | jq -r .sprite_path)
pokectl show pikachu >/dev/null 2>&1  # genus and types known, as after any look at it
metas_25() {
    gn GetResultMetas "['25']" | tee "$TMP/metas.txt" && echo &&
    "$PY" "$CLIENT" check-metas <"$TMP/metas.txt" | tee "$TMP/metas.json" && echo &&
    jq -e --arg sprite "$SPRITE" '.[0] | .id == "25" and .name == "Pikachu"
        and (.description | contains("#025") and contains("Mouse Pokémon") and contains("Electric"))
        and (.clipboardText | type == "string" and length > 0)
        and .icon.type == "(sv)" and .icon.kind == "file" and .icon.png == true and .icon.path == $sprite' "$TMP/metas.json"
}
check "GNOME: GetResultMetas ['25']: id, name Pikachu, description #025 · genus · type, clipboardText, icon ('file', <'file:///…/25.png'>) a real PNG, the cached sprite" metas_25; show 3
metas_order() {
    gn GetResultMetas "['6', '25', '1']" | "$PY" "$CLIENT" check-metas | tee "$TMP/m3.json" &&
    jq -e '[.[].id] == ["6", "25", "1"] and [.[].name] == ["Charizard", "Pikachu", "Bulbasaur"]' "$TMP/m3.json" >/dev/null
}
check "GNOME: GetResultMetas ['6', '25', '1']: one meta per id, in order, each with an icon" metas_order
all_metas() {
    local ids n; ids=$(gids GetInitialResultSet "['c']") && n=$(echo "$ids" | jq length) && echo "$n results" && [ "$n" -gt 0 ] &&
    gn GetResultMetas "$(echo "$ids" | as_gvariant)" | "$PY" "$CLIENT" check-metas | jq -e --argjson n "$n" 'length == $n' >/dev/null
}
check "GNOME: GetResultMetas of every result of ['c']: well formed, every file icon a real PNG" all_metas

before=$(wc -l <"$TMP/notifications.jsonl")
check "GNOME: ActivateResult('25', ['pika'], 0) returns" gn ActivateResult "'25'" "['pika']" 0
activate_card() {
    for _ in $(seq 50); do tail -n +"$((before + 1))" "$TMP/notifications.jsonl" | grep -q Pikachu && break; sleep 0.1; done
    tail -n +"$((before + 1))" "$TMP/notifications.jsonl" | jq -c 'select(.member == "Notify")' | grep Pikachu | tail -1 >"$TMP/card.json"
    cat "$TMP/card.json"
    [ -s "$TMP/card.json" ] || { echo "no notification naming Pikachu (no app entry is installed here)"; return 1; }
    jq -e '(.actions | length >= 4)' "$TMP/card.json" >/dev/null || { echo "fewer than two actions"; return 1; }
    local img; img=$(jq -r '[.hints["image-path"], .hints["image_path"], .app_icon] | map(select(. != null and . != "")) | .[0] // empty' "$TMP/card.json")
    img=${img#file://}
    [ -f "$img" ] && [ "$(head -c 8 "$img" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
        jq -e '.hints["image-data"] // .hints["image_data"]' "$TMP/card.json" >/dev/null || { echo "no sprite: image $img"; return 1; }
}
check "GNOME: with no app entry, ActivateResult shows a card: Pikachu, its sprite, actions (favorite, open)" activate_card
check "GNOME: LaunchSearch(['pika'], 0) returns" gn LaunchSearch "['pika']" 0

# A card's buttons answer the server that showed it, not whoever sends ActionInvoked with its
# path and interface (sd-bus does not check a match's sender on the client side).
forged_action() {
    local id; id=$(jq -r .id "$TMP/card.json") && echo "card $id" || return 1
    pokectl unfav pikachu >/dev/null 2>&1
    busctl --address="$DBUS_SESSION_BUS_ADDRESS" emit /org/freedesktop/Notifications org.freedesktop.Notifications \
        ActionInvoked us "$id" favorite || return 1
    sleep 0.5
    pokectl show pikachu --json | jq -e '.favorite == false' >/dev/null || { echo "a forged ActionInvoked was obeyed"; return 1; }
    gdbus call --session --dest org.freedesktop.Notifications --object-path /org/freedesktop/Notifications \
        --method org.freedesktop.Notifications.InvokeAction "$id" favorite >/dev/null || return 1
    for _ in $(seq 30); do pokectl show pikachu --json | jq -e '.favorite == true' >/dev/null && break; sleep 0.1; done
    pokectl show pikachu --json | jq -e '.favorite == true' >/dev/null || { echo "the server's own ActionInvoked was not obeyed"; return 1; }
    pokectl unfav pikachu >/dev/null
}
check "notification card: ActionInvoked from another connection is ignored, from the server obeyed" forged_action

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

# ---- Launches: no caller text where a terminal or pokectl reads options (issue 26) ------------
# Fake terminals (fake_terminal.py) record their argv, the descriptors they got beyond 0-2,
# their blocked signals and any activation token. No user manager on this bus (nothing owns
# org.freedesktop.systemd1): the programs are spawned directly, which Landlock forbids (they
# would share its sandbox). The desktop-user test has a real manager start them.
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null
mkdir -p "$TMP/bin"
install -m 0755 "$ROOT/Tests/desktop-search/fake_terminal.py" "$TMP/bin/gnome-terminal"
install -m 0755 "$ROOT/Tests/desktop-search/fake_terminal.py" "$TMP/bin/my-own-term"
LAUNCHES=$TMP/launches.jsonl
touch "$LAUNCHES"
launches() { wc -l <"$LAUNCHES"; }
DAEMON_ENV=(PATH="$TMP/bin:$BUILD_DIR" LAUNCH_LOG="$LAUNCHES")
start_daemon --notify=no || { summary desktop-search; exit 1; }
confined_no_manager() {
    if ! pokectl status --json | jq -e '.landlock | index("files")' >/dev/null; then
        echo "skipped: Landlock does not confine files on this kernel"; return 0
    fi
    gn LaunchSearch "['pika']" 0 >/dev/null || return 1
    for _ in $(seq 30); do grep -q "the user manager could not start" "$TMP/pokedexd.log" && break; sleep 0.1; done
    grep "the user manager could not start" "$TMP/pokedexd.log" | tail -1 | grep -- "--landlock=no" && [ "$(launches)" -eq 0 ]
}
check "launch: confined by Landlock and no user manager: nothing started, a journal line says what to do" confined_no_manager
# The rest is about what goes on the command line, so the daemon runs unconfined.
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null
DAEMON_ENV=(PATH="$TMP/bin:$BUILD_DIR" LAUNCH_LOG="$LAUNCHES" POKEDEX_LANDLOCK=no)
start_daemon --notify=no || { summary desktop-search; exit 1; }
unconfined_says_so() { pokectl status | grep -F "no landlock (turned off by --landlock=no)"; }
check "--landlock=no: pokectl status says the sandbox is off, and why" unconfined_says_so
# wait_launch N: until N launches were recorded; prints the last one.
wait_launch() {
    for _ in $(seq 50); do [ "$(launches)" -ge "$1" ] && break; sleep 0.1; done
    tail -1 "$LAUNCHES"; [ "$(launches)" -ge "$1" ]
}
# no_option_text QUERY: the last launch carries QUERY only as its last argument, right after
# pokectl's "browse --", and in no other argument (but the terminal's and pokectl's own "--").
no_option_text() {
    tail -1 "$LAUNCHES" | jq -e --arg q "$1" '.argv as $a | ($a | length) as $n
        | $a[$n - 1] == $q and $a[$n - 2] == "--" and $a[$n - 3] == "browse"
        and ([$a[0:$n - 1][] | select(contains($q) and . != "--")] | length == 0)' >/dev/null
}
hostile_launch() {
    sleep 1.05  # past the rate limit
    gn LaunchSearch "[$1]" 0 >/dev/null && wait_launch "$3" && no_option_text "$2" && [ ! -e "$TMP/pwned" ]
}
n=0
for q in "--command=touch $TMP/pwned" '--help' '--image-protocol=kitty' '-e' '--'; do
    n=$((n + 1))
    check "launch: LaunchSearch(['$q']) gives gnome-terminal -- …/pokectl browse -- QUERY, the query nowhere else" \
        hostile_launch "'$q'" "$q" "$n"
done
clean_child() {
    tail -1 "$LAUNCHES" | jq -e '.fds == [] and .sigblk == "0000000000000000"' >/dev/null ||
        { echo "the child got descriptors or blocked signals"; return 1; }
}
check "launch: the terminal gets no descriptor beyond 0-2 and no blocked signal" clean_child
no_zombies() {
    sleep 0.5
    local z; z=$(ps -o stat= --ppid "$DAEMON" | grep -c Z); echo "zombies: $z"; [ "$z" = 0 ]
}
check "launch: every child is reaped on the loop (no zombie under pokedexd)" no_zombies
burst() {
    sleep 1.05
    local before; before=$(launches)
    "$PY" "$ROOT/Tests/desktop-search/launch_clients.py" burst 200 || return 1
    sleep 1
    echo "terminals opened: $(($(launches) - before))"; [ "$(($(launches) - before))" -le 2 ]
}
check "launch: 200 LaunchSearch calls in a burst open at most 2 terminals (one a second)" burst
tokens() {
    sleep 1.05
    local before; before=$(launches)
    "$PY" "$ROOT/Tests/desktop-search/launch_clients.py" tokens || return 1
    wait_launch $((before + 2)) >/dev/null
    tail -2 "$LAUNCHES" | jq -s -e '.[0].token == null and .[1].token == "token-from-a-2"' >/dev/null ||
        { tail -2 "$LAUNCHES"; echo "a token went to the wrong launch"; return 1; }
}
check "launch: an activation token goes only with a launch by the caller who set it" tokens
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null
DAEMON_ENV=(PATH="$TMP/bin:$BUILD_DIR" LAUNCH_LOG="$LAUNCHES" POKEDEX_LANDLOCK=no TERMINAL="$TMP/bin/my-own-term")
start_daemon --notify=no || { summary desktop-search; exit 1; }
unknown_terminal() {
    local before; before=$(launches)
    gn LaunchSearch "['--help']" 0 >/dev/null && wait_launch $((before + 1)) &&
    tail -1 "$LAUNCHES" | jq -e '(.argv | length) == 4 and .argv[1] == "-e" and (.argv[2] | endswith("pokectl")) and .argv[3] == "browse"' >/dev/null &&
    grep -q "is not a terminal pokedexd knows" "$TMP/pokedexd.log"
}
check "launch: an unknown \$TERMINAL gets '-e pokectl browse' without the search, and a journal line" unknown_terminal
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null
DAEMON_ENV=(PATH="$TMP/bin:$BUILD_DIR" LAUNCH_LOG="$LAUNCHES" POKEDEX_LANDLOCK=no TERMINAL=gnome-terminal)
start_daemon --notify=no || { summary desktop-search; exit 1; }
known_terminal() {
    local before; before=$(launches)
    gn LaunchSearch "['--help']" 0 >/dev/null && wait_launch $((before + 1)) &&
    tail -1 "$LAUNCHES" | jq -e '.argv[1] == "--"' >/dev/null && no_option_text --help
}
check "launch: \$TERMINAL=gnome-terminal gets its own '--', the search after pokectl's '--'" known_terminal

# ---- Launches that fail (issue 27) ------------------------------------------------------------
# No user manager takes the unit (none on this bus): the terminal still opens, started
# directly, and the journal says why.
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null
DAEMON_ENV=(PATH="$TMP/bin:$BUILD_DIR" LAUNCH_LOG="$LAUNCHES" POKEDEX_LANDLOCK=no TERMINAL=gnome-terminal)
start_daemon --notify=no || { summary desktop-search; exit 1; }
failed_manager() {
    local before; before=$(launches)
    gn LaunchSearch "['pika']" 0 >/dev/null && wait_launch $((before + 1)) >/dev/null &&
    tail -1 "$LAUNCHES" | jq -e '.argv[0] | endswith("gnome-terminal")' >/dev/null &&
    grep "the user manager could not start" "$TMP/pokedexd.log" | tail -1 | grep "org.freedesktop.systemd1.*); starting it directly"
}
check "launch: no user manager takes the unit: the terminal still opens, started directly, and a journal line says why" failed_manager
# The same under Landlock, where nothing may be started directly: the result's card instead.
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null
DAEMON_ENV=(PATH="$TMP/bin:$BUILD_DIR" LAUNCH_LOG="$LAUNCHES" TERMINAL=gnome-terminal)
start_daemon || { summary desktop-search; exit 1; }
failed_manager_confined() {
    if ! pokectl status --json | jq -e '.landlock | index("files")' >/dev/null; then
        echo "skipped: Landlock does not confine files on this kernel"; return 0
    fi
    local before launched; before=$(wc -l <"$TMP/notifications.jsonl"); launched=$(launches)
    gn ActivateResult "'25'" "['pika']" 0 >/dev/null || return 1
    for _ in $(seq 50); do
        tail -n +"$((before + 1))" "$TMP/notifications.jsonl" | jq -c 'select(.member == "Notify")' | grep -q Pikachu && break
        sleep 0.1
    done
    tail -n +"$((before + 1))" "$TMP/notifications.jsonl" | jq -c 'select(.member == "Notify")' | grep Pikachu | tail -1 | jq -e '.actions | index("open")' &&
    grep "the user manager could not start" "$TMP/pokedexd.log" | tail -1 | grep "Landlock sandbox" || { tail -5 "$TMP/pokedexd.log"; return 1; }
    [ "$(launches)" -eq "$launched" ] || { echo "something was started"; return 1; }
}
check "launch: no user manager under Landlock: the result's card, nothing started, and a journal line says why" failed_manager_confined
# Nothing can open a result: no terminal, no gtk-launch, notifications off. One warning says so.
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null
DAEMON_ENV=(PATH="$BUILD_DIR" POKEDEX_LANDLOCK=no)
start_daemon --notify=no || { summary desktop-search; exit 1; }
nothing_opens() {
    gn ActivateResult "'25'" "['pika']" 0 >/dev/null || return 1
    for _ in $(seq 30); do grep -q "nothing could open" "$TMP/pokedexd.log" && break; sleep 0.1; done
    grep "nothing could open" "$TMP/pokedexd.log" | tail -1 | grep -q "no terminal or gtk-launch was found, and notifications are off"
}
check "activation: with no terminal, gtk-launch or notifications, ActivateResult logs what is missing" nothing_opens

# ---- What the shells show: cleaned, and in the session's language ---------------------------
# A hostile API (ESC, OSC 52, C1, U+202E in every name and genus) and a German session, with
# pokedexd installed as `make install` lays it out (its catalogues beside it, in share/locale).
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null
rm -f "$TMP/port"; start_mock --hostile
make -s -C "$ROOT" install-files PREFIX="$TMP/prefix" RELEASE_DIR="$BUILD_DIR" USERUNITDIR="$TMP/prefix/lib/systemd/user" \
    >"$TMP/install.log" 2>&1 || { cat "$TMP/install.log"; exit 1; }
DAEMON_ENV=(PATH="$TMP/prefix/bin" POKEDEX_LANDLOCK=no LC_ALL= LANG=de_DE.UTF-8 LANGUAGE=)
start_daemon --notify=no || { summary desktop-search; exit 1; }
clean_texts() {
    gn GetResultMetas "['25', '1', '4']" >/dev/null || return 1  # the rows, whole: their hostile names and genus fetched
    "$PY" "$CLIENT" shown-texts pika 25 1 4 | jq -c '.[] | select(.[0] | test("^(meta 25|match 0)"))'
}
check "shells: names, descriptions, clipboard texts, KRunner's rows and actions carry no control, from a hostile API" clean_texts
german_actions() {
    "$PY" "$CLIENT" krunner-actions | tee /dev/stderr |
        jq -e 'map(.text) | index("Zu den Favoriten hinzufügen") and index("Im Pokédex öffnen")' >/dev/null
}
check "KRunner: the actions are in the session's language (German)" german_actions

summary desktop-search
