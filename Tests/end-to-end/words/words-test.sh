#!/bin/bash
# Every word pokectl prints for a person goes through the catalogues, and a German reader reads
# no English. Every command, its errors, its usage errors and its help are run against the real
# service on a private bus (the mock PokeAPI behind it), twice:
# - in a pseudo-language made from po/pokedexd.pot, where every message reads ⟦…⟧: whatever is
#   left once the ⟦…⟧ are taken out is data (names, numbers, paths), never an English word, so a
#   string printed without going through gettext fails here;
# - with LANG=de_DE.UTF-8: no word of the output is English only (in the English word list and
#   not in the German one), but identifiers, option names and the commands to type.
# Then `--json` keeps identifiers. BUILD_DIR picks the binaries (default .build/debug).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
SUITE=words
source "$ROOT/Tests/support/lib/suite.sh"
source "$ROOT/Tests/support/lib/private-service.sh"
for dict in /usr/share/dict/american-english /usr/share/dict/ngerman; do
    [ -r "$dict" ] || { echo "words: $dict is missing (apt-get install wamerican wngerman; make deps does)"; exit 1; }
done
locale -a 2>/dev/null | grep -qix 'de_DE.utf8' || { echo "words: de_DE.UTF-8 is not generated ('make locales')"; exit 1; }

# The pseudo-language: every msgstr is its msgid between ⟦ and ⟧ (plural forms too).
mkdir -p "$TMP/locale/xx/LC_MESSAGES"
msgen "$ROOT/po/pokedexd.pot" 2>/dev/null | msgfilter --keep-header -o "$TMP/xx.po" sed -e '1s/^/⟦/' -e '$s/$/⟧/' 2>/dev/null
sed -i 's/charset=CHARSET/charset=UTF-8/' "$TMP/xx.po"
msgfmt -o "$TMP/locale/xx/LC_MESSAGES/pokedexd.mo" "$TMP/xx.po" || { echo "words: the pseudo-language does not build"; exit 1; }

start_private_bus
start_mock
start_daemon --sprite-url-template "$MOCK/sprites/{id}.png" --notify=no || { echo "words: 0 passed, 1 failed"; exit 1; }

# Every command a person runs, its refusals and its help. `sync` and `cache clear` last but one.
COMMANDS=(
    "list" "list --page 2" "list --page 9" "list --page 0" "list --per-page 500" "list --page x" "list --bogus"
    "show --no-image pikachu" "show --no-image 6" "show 9999" "show glurakk" "show nidoran" "show" "show --random --no-image"
    "search pika" "search glurak" "search --type feuer" "search --type feuerr" "search --gen 1" "search --gen 12" "search xyzzy" "search"
    "fav 25" "fav 25" "fav --toggle 25" "fav --toggle 25" "favs" "unfav 25" "unfav 25" "favs" "fav" "fav 9999"
    "sprite 25" "sprite glurakk" "status" "cache stats" "cache verify" "cache" "watch --count 0" "lst"
    "widget" "widget --format polybar" "widget --format conky" "widget --width 5" "widget --pick sometimes"
    "--help" "list --help" "show --help" "search --help" "fav --help" "unfav --help" "favs --help" "sprite --help"
    "status --help" "sync --help" "cache --help" "cache stats --help" "cache verify --help" "cache clear --help"
    "watch --help" "browse --help" "widget --help" "help show"
    "moves pikachu" "moves pikachu --method egg" "moves pikachu move-3" "moves pikachu donnerblitz"
    "moves pikachu --method tm" "moves --help"
    "fav 6" "widget" "widget --format conky" "unfav 6"
    "sync" "cache clear" "list"
)

run_all() {  # label, then the environment for pokectl; writes $TMP/<label>.<n>
    local label=$1 n=0; shift
    for c in "${COMMANDS[@]}"; do
        n=$((n + 1))
        # shellcheck disable=SC2086
        env "$@" COLUMNS=100 pokectl $c > "$TMP/$label.$n" 2>&1 </dev/null
        echo "$c" > "$TMP/$label.$n.cmd"
    done
}

# What is left of a pseudo-language transcript once every ⟦…⟧ (innermost first) is out.
outside() { python3 -c '
import re, sys
t = sys.stdin.read()
while True:
    s = re.sub(r"⟦[^⟦⟧]*⟧", "", t)
    if s == t: break
    t = s
print(t)'; }

# The words of a text that are English only: in the English list, not in the German one.
# Dropped first: paths, options, the commands to type ('…'), <placeholders>, JSON descriptions,
# numbers, and the identifiers of the data (names, types) and the programs' names.
cat > "$TMP/english_only.py" <<'PY'
import re, sys
text = sys.stdin.read()
en = {w.strip().lower() for w in open("/usr/share/dict/american-english", encoding="utf-8", errors="replace")}
de = {w.strip().lower() for w in open("/usr/share/dict/ngerman", encoding="utf-8", errors="replace")}
allowed = set(sys.argv[1].split())
text = re.sub(r"JSON.*?(\n\s*\n|\Z)", " ", text, flags=re.S)  # JSON shapes name the keys
for _ in range(3):
    text = re.sub(r"\{[^{}\n]*\}", " ", text)              # {"event": …, {PROPERTY: VALUE}}
text = re.sub(r"\b[A-Za-z]+_[A-Za-z_]+\b", " ", text)        # NO_COLOR, LC_MESSAGES
text = re.sub(r"\b[a-z]+(?:-[a-z0-9]+)+\b", " ", text)       # allow-passthrough, ja-hrkt
text = re.sub(r"'[^'\n]*'", " ", text)                       # commands to type
text = re.sub(r"<[^>\n]*>", " ", text)                       # <pokemon>, <subcommand>
text = re.sub(r"\S*[/=@]\S*", " ", text)                     # paths, URLs, NAME=VALUE
text = re.sub(r"--?[\w-]+", " ", text)                       # --options
found = set()
for w in re.findall(r"[A-Za-zÀ-ÿ]{3,}", text):
    l = w.lower()
    if l in allowed or l in de or l not in en:
        continue
    found.add(w)
print(" ".join(sorted(found)))
PY
english_only() { python3 "$TMP/english_only.py" "$@"; }

# Identifiers the data has (Pokémon, types; the items of Pikachu's family, named from PokeAPI's
# identifiers: the service has no item resource to name them from) and words no language translates.
identifiers=$(pokectl list --json --per-page 100 | jq -r '.entries[].name' | tr '\n-' '  ')
ALLOWED="$identifiers electric fire flying grass normal poison water pokectl pokedexd pokedex pokémon pokeapi json
kitty sixel tmux auto always never blocks truecolor dumb api landlock tcp abi subcommand
browse list show search fav unfav favs sprite cry status sync cache stats verify clear watch widget help
columns language property value gif png github fetch pipe widgets waybar polybar conky newest random idle true
moves machine egg tutor scarlet violet psychic psycho
thunder stone gnome krunner"

# 1. The pseudo-language: nothing outside ⟦…⟧ is an English word.
run_all xx LANG=de_DE.UTF-8 LANGUAGE=xx LC_ALL= LC_MESSAGES= TEXTDOMAINDIR="$TMP/locale"
pokectl unfav 25 >/dev/null 2>&1
for f in "$TMP"/xx.[0-9]*; do
    case $f in *.cmd) continue ;; esac
    c=$(cat "$f.cmd")
    left=$(outside < "$f" | english_only "$ALLOWED")
    [ -z "$left" ] && ok "pseudo-language: pokectl $c: every word from the catalogue" \
        || { fail "pseudo-language: pokectl $c: not through gettext: $left"; sed 's/^/     |/' "$f" | head -20; }
done

# 2. German: no English-only word anywhere.
run_all de LANG=de_DE.UTF-8 LANGUAGE= LC_ALL= LC_MESSAGES= TEXTDOMAINDIR="$ROOT/.build/locale"
for f in "$TMP"/de.[0-9]*; do
    case $f in *.cmd) continue ;; esac
    c=$(cat "$f.cmd")
    left=$(english_only "$ALLOWED" < "$f")
    [ -z "$left" ] && ok "German: pokectl $c: no English word" \
        || { fail "German: pokectl $c: English: $left"; sed 's/^/     |/' "$f" | head -20; }
done

# 3. --json keeps identifiers, in any language.
json=$(LANG=de_DE.UTF-8 TEXTDOMAINDIR="$ROOT/.build/locale" pokectl search glurak --json)
jq -e '.results[0].match == "localized" and .results[0].name == "charizard"' <<<"$json" >/dev/null \
    && ok "--json: the match kind and the name stay identifiers" || fail "--json: $json"
json=$(LANG=de_DE.UTF-8 TEXTDOMAINDIR="$ROOT/.build/locale" pokectl status --json)
jq -e '.landlock | type == "array"' <<<"$json" >/dev/null && ok "--json status: landlock as identifiers" || fail "--json status: $json"

# 4. Saying it twice leaves the same state (issue 36): fav and unfav set, --toggle flips.
pokectl fav 7 >/dev/null; pokectl fav 7 >/dev/null
[ "$(pokectl favs --json | jq '[.favorites[] | select(.id == 7)] | length')" = 1 ] && ok "fav twice: still a favorite" || fail "fav twice"
pokectl unfav 7 >/dev/null; pokectl unfav 7 >/dev/null
[ "$(pokectl favs --json | jq '[.favorites[] | select(.id == 7)] | length')" = 0 ] && ok "unfav twice: still not one" || fail "unfav twice"
pokectl fav --toggle 7 >/dev/null
[ "$(pokectl favs --json | jq '[.favorites[] | select(.id == 7)] | length')" = 1 ] && ok "fav --toggle flips" || fail "fav --toggle"
pokectl unfav 7 >/dev/null

[ -n "${KEEP:-}" ] && cp -r "$TMP" "$KEEP"
echo "words: $passed passed, $failed failed"
[ "$failed" = 0 ]
