# The widgets and the picker: waybar, polybar, conky, rofi and the menus (sourced by examples-test.sh).
# Shares examples-test.sh's variables (ROOT, TMP, W, C, R, MOCK, DAEMON) and its suite.

# No favorites yet: each widget says so, in its own format.
check "waybar: no favorites is valid JSON with class empty" \
    bash -c "$W | jq -e '.class == \"empty\" and (.text | length > 0)'"
check "conky: no favorites" bash -c "$C | grep -qx '\${color grey}no favorites yet\${color}'"

# rofi/dmenu: the menu gets every name as the games write it with its identifier, one per
# line ("Mr. Mime (mr-mime)"); the choice becomes a favorite.
check "rofi: the menu is fed all 46 names and the choice is set" bash -c "
    POKEDEX_MENU='tee $TMP/menu-input | grep -w squirtle' $R | grep -qx '★ Squirtle added to favorites' &&
    [ \$(wc -l < $TMP/menu-input) = 46 ] && grep -qxF 'Pikachu (pikachu)' $TMP/menu-input &&
    grep -qxF 'Nidoran♀ (nidoran-f)' $TMP/menu-input && grep -qxF 'Attack Deoxys (deoxys-attack)' $TMP/menu-input &&
    pokectl favs --json | jq -e '[.favorites[].name] == [\"squirtle\"]'"
# A favorite is marked in the menu, and picking it removes it (it said 'already a favorite': issue 56).
check "rofi: a favorite is marked ★ in the menu; picking it removes it" bash -c "
    POKEDEX_MENU='tee $TMP/menu-input | grep -w squirtle' $R | grep -q 'Squirtle' && grep -qxF '★ Squirtle (squirtle)' $TMP/menu-input &&
    [ \$(grep -c '^★' $TMP/menu-input) = 1 ] && pokectl favs --json | jq -e '.favorites == []' &&
    POKEDEX_MENU='grep -w squirtle' $R >/dev/null && pokectl favs --json | jq -e '[.favorites[].name] == [\"squirtle\"]'"
check "rofi: nothing picked exits 1 and changes nothing" bash -c "
    POKEDEX_MENU='grep -x nothing-like-this' $R; [ \$? = 1 ] && pokectl favs --json | jq -e '.favorites | length == 1'"
POKEDEX_MENU='grep -w pikachu' $R >/dev/null
check "rofi: a German session's menu, in German, the favorite marked" bash -c "
    POKEDEX_MENU='tee $TMP/menu-input | grep -x nothing-like-this' LC_ALL=de_DE.UTF-8 $R >/dev/null
    grep -qxF 'Glurak (charizard)' $TMP/menu-input && grep -qxF '★ Pikachu (pikachu)' $TMP/menu-input"

# The picker's menu is the first that opens in the session (issue 39): a PATH holding only what
# it needs, and stand-ins for the menus that log how they were called and pick pikachu, or fail
# to open as rofi does without a display ("Failed to open display", exit 1).
mkdir -p "$TMP/menubin"
for tool in sh jq head sed mktemp rm cat grep tee busctl gettext; do ln -sf "$(type -P $tool)" "$TMP/menubin/$tool"; done
ln -sf "$(type -P pokectl)" "$TMP/menubin/pokectl"
fake_menu() {  # name, works|fails
    if [ "$2" = works ]; then
        printf '#!/bin/sh\necho "%s $*" >>"%s/menus.log"\ngrep -w bulbasaur\n' "$1" "$TMP" >"$TMP/menubin/$1"
    else
        printf '#!/bin/sh\necho "%s $*" >>"%s/menus.log"\ncat >/dev/null\necho "%s: Failed to open display" >&2\nexit 1\n' "$1" "$TMP" "$1" >"$TMP/menubin/$1"
    fi
    chmod +x "$TMP/menubin/$1"
}
printf '#!/bin/sh\necho "$@" >>"%s/notify.log"\n' "$TMP" >"$TMP/menubin/notify-send"; chmod +x "$TMP/menubin/notify-send"
export -f fake_menu
export TMP R ROOT
pick() {  # environment for the picker; its stderr to $TMP/pick.err, not a terminal (as from a bar)
    rm -f "$TMP/menus.log" "$TMP/notify.log"
    env -u POKEDEX_MENU -u DISPLAY -u WAYLAND_DISPLAY PATH="$TMP/menubin" "$@" "$R" 2>"$TMP/pick.err"
}
export -f pick
check "pick: under Wayland without Xwayland, fuzzel, not rofi" bash -c "
    fake_menu fuzzel works; fake_menu rofi works
    pick WAYLAND_DISPLAY=wayland-1 | grep -q '^★ Bulbasaur added' && cat $TMP/menus.log && grep -q '^fuzzel --dmenu' $TMP/menus.log &&
    ! grep -q '^rofi -dmenu' $TMP/menus.log"
check "pick: a menu that cannot open gives way to the next (rofi without a display, then dmenu)" bash -c "
    rm -f $TMP/menubin/fuzzel; fake_menu rofi fails; fake_menu dmenu works
    pick DISPLAY=:9 | grep -q '^☆ Bulbasaur removed' && cat $TMP/menus.log && [ \$(wc -l < $TMP/menus.log) = 2 ] && grep -q '^dmenu -i' $TMP/menus.log"
check "pick: no menu can open: exit 2, why on stderr and (from a bar) in a notification" bash -c "
    rm -f $TMP/menubin/fuzzel $TMP/menubin/dmenu $TMP/menubin/rofi
    pick WAYLAND_DISPLAY=wayland-1; [ \$? = 2 ] && cat $TMP/pick.err && grep -q 'no menu can open here: install fuzzel' $TMP/pick.err &&
    grep -q 'no menu can open here' $TMP/notify.log"
check "pick: the only menu fails to open: exit 2, its own reason said, not 'nothing picked'" bash -c "
    fake_menu rofi fails
    pick DISPLAY=:9; [ \$? = 2 ] && cat $TMP/pick.err && grep -q 'no menu could open: rofi: rofi: Failed to open display' $TMP/pick.err &&
    grep -q 'Failed to open display' $TMP/notify.log"
check "pick: closed without a choice: exit 1, nothing said" bash -c "
    printf '#!/bin/sh\ncat >/dev/null\nexit 1\n' > $TMP/menubin/rofi
    pick DISPLAY=:9; [ \$? = 1 ] && [ ! -s $TMP/pick.err ] && [ ! -e $TMP/notify.log ]"
check "pick: in a German session, why no menu opened is said in German" bash -c "
    rm -f $TMP/menubin/rofi
    pick LC_ALL=de_DE.UTF-8 TEXTDOMAINDIR=$ROOT/.build/locale WAYLAND_DISPLAY=wayland-1; [ \$? = 2 ] && cat $TMP/pick.err &&
    grep -q 'hier kann kein Menü öffnen' $TMP/pick.err"

# Waybar: the newest favorite, its colour and sprite.
check "waybar: JSON with text, tooltip, class, colour and an existing sprite: the newest favorite" bash -c "
    out=\$($W) && echo \"\$out\" &&
    echo \"\$out\" | jq -e '(.color | test(\"^#[0-9a-f]{6}\$\")) and (.class == [\"favorite\", \"electric\"])
        and (.text | test(\"^<span color=\\\"#[0-9a-f]{6}\\\">●</span> Pikachu\$\"))
        and (.tooltip == \"#025 Pikachu · Mouse Pokémon · Electric\")' &&
    test -s \"\$(echo \"\$out\" | jq -r .sprite_path)\" && test -s \"\$(echo \"\$out\" | jq -r .animated_sprite_path)\""
check "waybar: the same as pokectl widget, which it execs" bash -c "[ \"\$($W)\" = \"\$(pokectl widget)\" ]"
check "waybar --random: every favorite comes up over 40 runs" bash -c "
    for i in \$(seq 40); do $W --random | jq -r .alt; done | sort -u | tr '\n' ' ' | grep -qx 'pikachu squirtle '"
check "polybar: one line, %{F#rrggbb}●%{F-} Name" bash -c "
    $W --polybar | grep -Eqx '%\{F#[0-9a-f]{6}\}●%\{F-\} Pikachu'"
check "waybar: a bad option is a usage error" bash -c "$W --nope; [ \$? = 2 ]"
check "widget: a German session's texts and names in German, identifiers in the alt and classes only" bash -c "
    export TEXTDOMAINDIR=$ROOT/.build/locale
    out=\$(LC_ALL=de_DE.UTF-8 pokectl widget) && echo \"\$out\" &&
    echo \"\$out\" | jq -e '.tooltip == \"#025 Pikachu · Maus-Pokémon · Elektro\" and .class == [\"favorite\", \"electric\"]' &&
    LC_ALL=de_DE.UTF-8 pokectl widget --format conky | grep -qx '\${color grey}2 Favoriten:\${color}'"

# Conky: the newest favorite with its image and colour, then the favorites, newest first.
check "conky: image, coloured name, escaped number (#025, as the games print it), count, the list" bash -c "
    out=\$($C) && echo \"\$out\" &&
    echo \"\$out\" | grep -Eq '^\\\$\{image /.*/sprites/25.png -p 0,0 -s 64x64\}' &&
    echo \"\$out\" | grep -Eq '^\\\$\{color #[0-9a-f]{6}\}\\\$\{font :bold:size=12\}Pikachu\\\$\{font\}\\\$\{color\} \\\\#025\$' &&
    echo \"\$out\" | grep -qx 'Mouse Pokémon · Electric' &&
    echo \"\$out\" | grep -qx '\${color grey}2 favorites:\${color}' && echo \"\$out\" | grep -qx 'Pikachu, Squirtle'"
check "conky: the conkyrc follows through pokedex.lua, which runs pokectl widget --follow (no polling)" bash -c "
    grep -q \"lua_load = '.*/examples/conky/pokedex.lua'\" $ROOT/examples/conky/pokedex.conkyrc &&
    grep -q 'lua_parse pokedex' $ROOT/examples/conky/pokedex.conkyrc && ! grep -q 'execp\\?i' $ROOT/examples/conky/pokedex.conkyrc &&
    grep -q 'widget --format conky --follow' $ROOT/examples/conky/pokedex.lua"
