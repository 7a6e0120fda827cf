# GNOME Shell's SearchProvider2, as the shell calls it with gdbus.
# Sourced by desktop-search-test.sh; shares its variables, functions and suite.

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
