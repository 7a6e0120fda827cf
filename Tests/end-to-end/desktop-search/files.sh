# The file contracts: the app entry, the search provider's ini, the KRunner plugin (no daemon needed).
# Sourced by desktop-search-test.sh; shares its variables and its suite.

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
