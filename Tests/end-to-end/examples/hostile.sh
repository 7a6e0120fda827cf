# The service gone, then a hostile API and a hostile pokectl (sourced by examples-test.sh).
# Shares examples-test.sh's variables (ROOT, TMP, W, C, R, MOCK, DAEMON) and its suite.

# The service goes away: widgets degrade quietly, the picker says why.
kill $DAEMON; wait $DAEMON 2>/dev/null
check "waybar: service unavailable is valid JSON, exit 0" bash -c "$W | jq -e '.class == \"unavailable\"'"
check "conky: service unavailable" bash -c "$C | grep -q 'Pokédex unavailable'"
check "rofi: service unavailable exits 3" bash -c "POKEDEX_MENU=cat $R; [ \$? = 3 ]"

# A hostile API (the mock's hostile mode): escapes and markup in every genus, flavour text and
# localized name, hostile names in the list. The widgets' output must carry no control
# characters and no markup or command syntax from the data, and the legit text must survive.
# Then the same widgets fed by a pokectl whose --json has hostile names, genus, colours, types and
# sprite paths (what a service that forgot to validate would send).
cat >"$TMP/widget-check.py" <<'EOF'
"""widget-check.py TARGET < output: exit 1 (with the reason) if the output of a widget for TARGET
(conky, polybar, waybar, rofi) has a control character or markup or command syntax from data."""
import json, re, sys
from xml.parsers import expat

target = sys.argv[1]
out = sys.stdin.buffer.read().decode("utf-8")   # not UTF-8: fails here
FOREIGN = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")  # newline aside

def fail(why, text):
    sys.exit(f"{target}: {why}: {text!r}")

def no_controls(text, newline=False):
    m = FOREIGN.search(text) or (None if newline else re.search("\n", text))
    if m:
        fail(f"control character U+{ord(m.group()):04X}", text)

def markup(text, allowed):
    """Parses Pango markup as Pango does (GMarkup: XML elements and entities); only the
    elements `allowed` (name -> attribute check) may be in it. Returns the plain text."""
    plain = []
    p = expat.ParserCreate()
    def start(name, attrs):
        if name != "markup" and (name not in allowed or not allowed[name](attrs)):
            fail(f"markup from data: <{name} {attrs}>", text)
    p.StartElementHandler = start
    p.CharacterDataHandler = plain.append
    try:
        p.Parse("<markup>" + text + "</markup>", True)
    except expat.ExpatError as e:
        fail(f"not valid Pango markup ({e})", text)
    return "".join(plain)

no_controls(out, newline=True)
if target == "conky":
    if re.search(r"(?i)\$\{?template", out.replace("$$", "")):
        fail("a conky $template", out)
    # Every $ is a $$ (a literal $) or one of the script's own variables.
    own = re.compile(r"\$\{(image /[^\s${}]+ -p 0,0 -s 64x64|color #[0-9a-fA-F]{6}|color grey|color white|color"
                     r"|font :bold:size=12|font)\}")
    at = 0
    while (at := out.find("$", at)) >= 0:
        if out.startswith("$$", at):
            at += 2
        elif m := own.match(out, at):
            at = m.end()
        else:
            fail(f"conky syntax from data at {at}", out[at:at + 40])
elif target == "polybar":
    if out.count("\n") != 1:
        fail("not one line", out)
    rest = re.sub(r"^%\{F#[0-9a-fA-F]{6}\}●%\{F-\} |^● ", "", out)
    if "%{" in rest:
        fail("a polybar tag from data", rest)
elif target == "waybar":
    for line in out.splitlines():
        j = json.loads(line)
        for k, v in j.items():
            for s in v if isinstance(v, list) else [v]:
                if isinstance(s, str):
                    no_controls(s)
        colour = lambda a: list(a) == ["color"] and re.fullmatch("#[0-9a-fA-F]{6}", a["color"])
        print(markup(j["text"], {"span": colour}))
        print(markup(j["tooltip"], {}))
        markup(j.get("alt", ""), {})
elif target == "rofi":
    for line in out.splitlines():
        if not line:
            fail("an empty entry", out)
else:
    sys.exit(f"unknown target {target}")
EOF
widget() {  # target command...: the output in $TMP/widget.out, checked; then print it (for grep)
    local target=$1; shift
    "$@" >"$TMP/widget.out" || return 1
    python3 "$TMP/widget-check.py" "$target" <"$TMP/widget.out" >"$TMP/widget.plain" || { cat -v "$TMP/widget.out"; return 1; }
    cat "$TMP/widget.out" "$TMP/widget.plain"
}
export -f widget
export TMP

curl -sf -X POST "$MOCK/__control" -d '{"hostile": true}' >/dev/null
export XDG_CACHE_HOME=$TMP/home/.cache-hostile  # nothing cached from the friendly run
start_daemon --sprite-url-template "$MOCK/sprites/{id}.png" --notify=no || exit 1
check "hostile API: the daemon serves pikachu (hostile genus and flavour text)" bash -c "
    pokectl show pikachu --json | jq -e '.name == \"pikachu\" and (.genus | contains(\"Mouse Pokémon\"))'"
check "hostile API, rofi: one clean line per entry, the real names kept, the choice set" bash -c "
    POKEDEX_MENU='tee $TMP/menu-input | grep -w ivysaur' $R | grep -q '^★ .*Ivysaur' &&
    widget rofi cat $TMP/menu-input >/dev/null && grep -qxF 'Bulbasaur (bulbasaur)' $TMP/menu-input &&
    grep -qxF 'Mega Venusaur (venusaur-mega)' $TMP/menu-input &&
    [ \$(wc -l < $TMP/menu-input) -ge 46 ]"
check "hostile API, waybar: valid JSON and Pango markup, no controls, the text kept (escaped) over 10 runs" bash -c "
    for i in \$(seq 10); do widget waybar $W || exit 1; done >$TMP/all.out &&
    grep -q 'Test Pokémon\\|Mouse Pokémon' $TMP/all.out && grep -qF '<b>bold</b> & <span foreground=\"red\">&amp;' $TMP/all.out"
check "hostile API, polybar: no tag from data, no controls" bash -c "widget polybar $W --polybar"
check "hostile API, conky: every \$ from data doubled, no controls, one line per line, the text kept" bash -c "
    widget conky $C >$TMP/conky.out && cat $TMP/conky.out && [ \$(wc -l < $TMP/conky.out) -ge 8 ] &&
    grep -Eq '^\\\$\{image /.*/sprites/[0-9]+.png -p 0,0 -s 64x64\}' $TMP/conky.out && grep -q 'Pokémon' $TMP/conky.out &&
    grep -qF '\$\${exec touch /tmp/pwned-conky}' $TMP/conky.out && grep -qF '%{A1:touch /tmp/pwned-polybar:}x%{A}' $TMP/conky.out"

# A pokectl whose --json is hostile: every payload of the mock (joined: one string) after each
# favorite's name, in and around the genus, after each type, the colour and the sprite path; the
# list's names get one payload each, in turn. Its arguments lose the payload again, so that the
# widgets' next call (show NAME) reaches the real service.
python3 -c "import json, sys; sys.path.insert(0, '$ROOT/Tests/support/mockapi'); import mock_pokeapi as m
print(json.dumps(m.HOSTILE_PAYLOADS))" >"$TMP/payloads.json"
cat >"$TMP/hostile-pokectl" <<'EOF'
#!/bin/bash
P=$(jq -j 'join("")' "$TMP/payloads.json")
args=(); for a in "$@"; do args+=("${a//"$P"/}"); done
out=$(pokectl "${args[@]}") || exit $?
case " $* " in *" --json "*) ;; *) printf '%s\n' "$out"; exit 0 ;; esac
printf '%s' "$out" | jq -c --arg p "$P" --arg colour "${HOSTILE_COLOUR-$P}" --slurpfile ps "$TMP/payloads.json" '
    def poison($x): if type == "string" then . + $x else . end;
    if has("favorites") then .favorites |= map(.name += $p | .display_name |= poison($p))
    elif has("entries") then .entries |= [to_entries[] | $ps[0][.key % ($ps[0] | length)] as $x
        | .value.name += $x | .value.display_name |= poison($x) | .value]
    else .name += $p | .display_name |= poison($p) | .genus = $p + .genus + $p | .types |= map(. + $p)
        | .type_names |= (if . then map(. + $p) else . end) | .color += $colour | .sprite_path += $p end'
EOF
chmod +x "$TMP/hostile-pokectl"
export HOSTILE=$TMP/hostile-pokectl
check "hostile pokectl: it does poison names, genus, types, colour and path" bash -c "
    POKECTL=\$HOSTILE; \$POKECTL show pikachu --json | jq -e '(.name | contains(\"\\u001b]52\")) and (.genus | contains(\"<b>\"))
        and (.color | contains(\"%{A1\")) and (.types[0] | contains(\"\$\"))' >/dev/null"
# The widgets ask the service themselves (pokectl widget): the formats' escaping of hostile
# names, genus, types, colours and paths is tested in PokedexWidgetsTests and
# UntrustedTextProperties; the picker still reads pokectl's JSON.
check "hostile names, rofi: names with controls left out, the others one per line" bash -c "
    POKEDEX_MENU='tee $TMP/menu-input | grep -w pikachu' POKECTL=\$HOSTILE $R; cat -v $TMP/menu-input; widget rofi cat $TMP/menu-input >/dev/null &&
    grep -qxF 'Caterpie\${exec touch /tmp/pwned-conky} (caterpie\${exec touch /tmp/pwned-conky})' $TMP/menu-input &&
    ! grep -q '^Bulbasaur' $TMP/menu-input &&
    grep -qxF 'Metapod%{A1:touch /tmp/pwned-polybar:}x%{A} (metapod%{A1:touch /tmp/pwned-polybar:}x%{A})' $TMP/menu-input &&
    [ \$(wc -l < $TMP/menu-input) -ge 10 ]"
