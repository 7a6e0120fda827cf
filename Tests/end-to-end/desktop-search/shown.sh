# What the shells show: cleaned, and in the session's language.
# Sourced by desktop-search-test.sh; shares its variables, functions and suite.

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
