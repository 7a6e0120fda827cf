#!/bin/bash
# The real shells (issues 27 and 35): Debian's GNOME Shell 43 and Plasma 5.27's KRunner, each on
# Xvfb with a private session bus, a private system bus and a throwaway HOME, against pokedexd
# installed as `make install` lays it out and the project's mock PokeAPI listing every species
# and form with PokeAPI's real names, types and genus (--every-species). In English, German and
# Japanese sessions, as a person would:
#   - the service has the rows on disk from earlier use, and restarts (as its idle exit does)
#     before anything is typed;
#   - each query is typed into the shell three ways: in one burst, a key at a time (each key a
#     search of its own), and with a pause in the middle of the word;
#   - the shell's own calls and pokedexd's replies are recorded (dbus-monitor), and what the shell
#     showed is read back from them (shell_view.py): the same rows however it was typed, the
#     rows a fresh search gives, each with its types and its sprite; KRunner's actions in the
#     session's language;
#   - Return on a form's row opens that row's card in the terminal the desktop would choose
#     (xterm here, with a font for the session's language), through pokedexd's launcher: no
#     user manager on the bus, pokedexd confined by Landlock;
#   - a first day on a slow network (an empty cache, every answer 300 ms late over HTTP/2): the
#     rows each shell draws from its first answer are whole, sprite and localized types;
#   - a screenshot of each rhythm in each language into SHOTS (default docs/screenshots).
# Opt-in (`make test-desktop-shells`, which installs the shells): not part of `make test`.
# BUILD_DIR picks the binaries, SHELL_LANGUAGES the sessions (default "en de ja"). Prints
# "desktop-shells: N passed, M failed".
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
SUITE=desktop-shells
source "$ROOT/Tests/support/lib/suite.sh"
source "$ROOT/Tests/support/lib/private-service.sh"
HERE=$ROOT/Tests/end-to-end/desktop-shells
SHOTS=${SHOTS:-$ROOT/docs/screenshots}
PY=/usr/bin/python3
SERVICE=io.github.pokedexd.Pokedex1
GNOME_PATH=/io/github/pokedexd/SearchProvider GNOME_IFACE=org.gnome.Shell.SearchProvider2
KRUNNER_PATH=/io/github/pokedexd/KRunner KRUNNER_IFACE=org.kde.krunner1
export NO_COLOR=1

# A failed run keeps each program's log for a look: in $LOGS (default $TMP, which goes at exit).
# The terminals the activations opened go too, and only those.
on_cleanup() {
    [ -n "${LOGS:-}" ] && [ "$failed" != 0 ] && mkdir -p "$LOGS" && cp "$TMP"/*.log "$LOGS/" 2>/dev/null
    [ -s "$TMP/terminals" ] && kill $(cat "$TMP/terminals") 2>/dev/null
    [ -s "$TMP/h2/nginx.pid" ] && "$ROOT/Tests/support/mockapi/h2-front.sh" stop --state-dir "$TMP/h2"
    return 0
}
for tool in gnome-shell krunner Xvfb xdotool xclip import xterm dbus-monitor gdbus jq fc-list nginx curl; do
    command -v "$tool" >/dev/null || { echo "desktop-shells: $tool is missing; run 'make test-desktop-shells', which installs the shells"; exit 2; }
done
mkdir -p "$SHOTS"
for l in de_DE ja_JP; do
    locale -a | grep -qix "$l.utf8" || { echo "desktop-shells: the $l.UTF-8 locale is missing; 'make locales' makes it"; exit 2; }
done

# ---- The desktop: installed files, a display, two buses -------------------------------------
# What `make install` puts in a prefix (pokedexd with its catalogues beside it, the app entry,
# GNOME's provider ini, KRunner's plugin, the icons), found through XDG_DATA_DIRS as under
# /usr/local.
make -s -C "$ROOT" install-files PREFIX="$TMP/prefix" RELEASE_DIR="$BUILD_DIR" \
    USERUNITDIR="$TMP/prefix/lib/systemd/user" >"$TMP/install.log" 2>&1 || { cat "$TMP/install.log"; exit 1; }
export XDG_DATA_DIRS=$TMP/prefix/share:/usr/local/share:/usr/share
# pokectl as installed: the release build makes pokedexd alone, and pokectl is its link.
export PATH=$TMP/prefix/bin:$PATH
export XDG_CONFIG_HOME=$HOME/.config XDG_RUNTIME_DIR=$TMP/run GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"

Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$TMP/display" 2>"$TMP/xvfb.log" &
PIDS+=($!)
for _ in $(seq 100); do [ -s "$TMP/display" ] && break; sleep 0.1; done
export DISPLAY=:$(cat "$TMP/display")
# What the terminal selection finds on this machine, and the terminal the test gives pokedexd:
# xterm alone (the commonest case it falls back on), behind a wrapper that first records how it
# was started (argv, SigBlk, descriptors beyond 0-2; Tests/end-to-end/desktop-search/fake_terminal.py).
echo "# terminals on this machine: $(for t in xdg-terminal-exec x-terminal-emulator kgx gnome-terminal ptyxis konsole xfce4-terminal kitty alacritty foot wezterm xterm; do command -v "$t" >/dev/null && printf '%s ' "$t"; done)"
echo "# fonts with Japanese letters: $(fc-list :lang=ja family | head -3 | paste -sd';' -)"
mkdir -p "$TMP/bin"
cat >"$TMP/bin/xterm" <<EOF
#!/bin/sh
$PY "$ROOT/Tests/end-to-end/desktop-search/fake_terminal.py" "\$@"
echo \$\$ >>"$TMP/terminals"
exec /usr/bin/xterm -geometry 100x30+40+60 "\$@"
EOF
chmod +x "$TMP/bin/xterm"
export LAUNCH_LOG=$TMP/launches.jsonl
# The session bus: no user manager on it, and of the installed activation files only the
# launcher's, so pokedexd (confined by Landlock) opens terminals through it, as on a session
# without systemd --user. It starts them with the bus's environment: the wrapper first on PATH.
mkdir -p "$TMP/services"
cp "$TMP/prefix/share/dbus-1/services/io.github.pokedexd.Launcher1.service" "$TMP/services/"
sed "s|<listen>|<servicedir>$TMP/services</servicedir>\n  <listen>|" "$ROOT/Tests/support/dbus/test-bus.conf" >"$TMP/session-bus.conf"
out=$(env PATH="$TMP/bin:$PATH" dbus-daemon --config-file="$TMP/session-bus.conf" --fork --print-address=1 --print-pid=1)
export DBUS_SESSION_BUS_ADDRESS=$(echo "$out" | sed -n 1p)
PIDS+=("$(echo "$out" | sed -n 2p)")
out=$(dbus-daemon --config-file="$HERE/system-bus.conf" --fork --print-address=1 --print-pid=1)
export DBUS_SYSTEM_BUS_ADDRESS=$(echo "$out" | sed -n 1p)
PIDS+=("$(echo "$out" | sed -n 2p)")

start_mock --every-species

# pokedexd in LOCALE, as installed, confined as it confines itself. No user manager on this bus:
# none takes the unit, and pokedexd's launcher, which the bus starts, opens the terminal.
service_in() {
    [ -n "${DAEMON:-}" ] && { kill "$DAEMON" 2>/dev/null; wait "$DAEMON" 2>/dev/null; }
    session_locale "$1"
    DAEMON_ENV=(PATH="$TMP/bin:$TMP/prefix/bin" LC_ALL= LANGUAGE= LANG="$1")
    start_daemon -v --no-prefetch
}
# The session's locale in the bus's activation environment, as a desktop session puts it there
# (what the launcher, and the terminal it opens, start with); a launcher of the last session
# language is stopped.
session_locale() {
    gdbus call --session -d org.freedesktop.DBus -o /org/freedesktop/DBus -m org.freedesktop.DBus.UpdateActivationEnvironment \
        "{'LANG': '$1', 'LC_ALL': '', 'LANGUAGE': ''}" >/dev/null
    local pid
    pid=$(gdbus call --session -d org.freedesktop.DBus -o /org/freedesktop/DBus -m org.freedesktop.DBus.GetConnectionUnixProcessID \
        io.github.pokedexd.Launcher1 2>/dev/null | grep -o '[0-9]\+' | tail -1)
    [ -n "$pid" ] && kill "$pid" 2>/dev/null
    return 0
}
# A first day on a slow network: the same pokedexd on an empty cache, the mock behind nginx over
# TLS and HTTP/2 (as PokeAPI's hosts answer) with every answer 300 ms late. The sprite URL
# template names the front, as the default names raw.githubusercontent.com.
"$ROOT/Tests/support/mockapi/h2-front.sh" --upstream-port "${MOCK##*:}" --state-dir "$TMP/h2" >"$TMP/h2-front.log" 2>&1 </dev/null ||
    { echo "desktop-shells: the HTTP/2 front did not start (nginx; 'make deps'):"; cat "$TMP/h2-front.log"; exit 1; }
FRONT=https://127.0.0.1:$(cat "$TMP/h2/port")
# A cache of its own, emptied each time: the other steps' cache stays as the day left it.
cold_service_in() {
    [ -n "${DAEMON:-}" ] && { kill "$DAEMON" 2>/dev/null; wait "$DAEMON" 2>/dev/null; }
    rm -rf "$TMP/cold-cache"
    curl -s -X POST -d '{"latency_ms": 300}' "$MOCK/__control" >/dev/null
    DAEMON_ENV=(PATH="$TMP/bin:$TMP/prefix/bin" LC_ALL= LANGUAGE= LANG="$1" XDG_CACHE_HOME="$TMP/cold-cache")
    MOCK=$FRONT start_daemon -v --no-prefetch --ca-file "$TMP/h2/ca.crt" --sprite-url-template "$FRONT/sprites/{id}.png"
}
fast_network() { curl -s -X POST -d '{"latency_ms": 0}' "$MOCK/__control" >/dev/null; }
gnome() { gdbus call --session -d $SERVICE -o $GNOME_PATH -m "$GNOME_IFACE.$1" "${@:2}"; }
terms_of() { $PY -c 'import sys; print(repr(sys.argv[1].split()))' "$1"; }
fresh() { gnome GetInitialResultSet "$(terms_of "$1")" | grep -o "'[0-9]*'" | tr -d "'" | head -5 | paste -sd, -; }

# Everything the shells ask, and pokedexd's replies, as dbus-monitor sees them (appended; emptied
# before each query).
dbus-monitor --session "type='method_call',interface='$GNOME_IFACE'" "type='method_call',interface='$KRUNNER_IFACE'" \
    "type='method_return',sender='$SERVICE'" >>"$TMP/monitor.log" 2>&1 &
PIDS+=($!)
owner() { gdbus call --session -d org.freedesktop.DBus -o /org/freedesktop/DBus -m org.freedesktop.DBus.GetNameOwner "$1" | grep -o ":[0-9.]*"; }
view() { $PY "$HERE/shell_view.py" "$1" --shell "$SHELL_NAME" --service "$(owner $SERVICE)" <"$TMP/monitor.log"; }
close_terminals() { [ -s "$TMP/terminals" ] && kill $(cat "$TMP/terminals") 2>/dev/null; : >"$TMP/terminals"; }
shot() { import -window root "$SHOTS/$1.png"; }

# type_as RHYTHM TEXT: into the window that has the keyboard. burst: every key within GNOME's
# 150 ms (12 ms a key); keys: 300 ms a key (each key a search of its own); pause: the first half
# in a burst, a second's pause, the rest in a burst. Kana and hanzi come as an input method
# commits them, a word at a time: pasted (a burst), or the halves pasted a second apart (a
# pause); xdotool types them by remapping a key each time, which the shells lose when fast.
type_as() {
    if LC_ALL=C.UTF-8 grep -qP '[^\x00-\x7F]' <<<"$2" && [ "$1" != keys ]; then
        local half=$(( ${#2} / 2 ))
        if [ "$1" = burst ]; then commit "$2"; else commit "${2:0:$half}"; sleep 1; commit "${2:$half}"; fi
        return
    fi
    case $1 in
        burst) xdotool type --delay 12 "$2" ;;
        keys) xdotool type --delay 300 "$2" ;;
        pause)
            local half=$(( ${#2} / 2 ))
            xdotool type --delay 12 "${2:0:$half}"; sleep 1; xdotool type --delay 12 "${2:$half}" ;;
    esac
}
commit() { printf %s "$1" | xclip -selection clipboard; sleep 1; xdotool keydown Control_L key v keyup Control_L; sleep 0.2; }
# settle MEMBER: waits until the shell has made no MEMBER call for 2 s (its rows drawn).
settle() {
    local last now same=0
    last=$(grep -c "member=$1" "$TMP/monitor.log")
    for _ in $(seq 60); do
        sleep 0.5; now=$(grep -c "member=$1" "$TMP/monitor.log")
        if [ "$now" = "$last" ]; then same=$((same + 1)); [ "$same" -ge 4 ] && return 0; else same=0; last=$now; fi
    done
}

# gnome_search RHYTHM QUERY: GNOME's entry emptied and clicked (it then has the keyboard for a
# paste too: a typed letter starts a search by itself, a Ctrl+V does not), QUERY typed in
# RHYTHM and the rows drawn, with this search's calls alone in the monitor's log.
gnome_search() {
    xdotool key --clearmodifiers ctrl+a BackSpace
    xdotool mousemove 640 62 click 1 mousemove 1200 400
    sleep 0.6
    : >"$TMP/monitor.log"
    type_as "$1" "$2"
    settle GetResultMetas
    sleep 1  # the rows' icons
}

# krunner_open: KRunner shown, empty, and a click in its line, which then has the keyboard (no
# window manager here to give it the focus).
krunner_open() {
    gdbus call --session -d org.kde.krunner -o /App -m org.kde.krunner.App.query "" >/dev/null
    sleep 0.5
    xdotool mousemove 500 20; sleep 0.2; xdotool click 1; xdotool mousemove 640 700
    sleep 0.3
}
# KRunner's rows (V, JSON from shell_view.py) for the query q: each with its sprite and types.
krunner_rows() {
    echo "$V" | jq -r '.rows[] | "\(.id)\t\(.text)\t\(.subtext)\ticon-data: \(.icon_data)"'
    echo "$V" | jq -e --arg q "$q" '.query == $q and (.rows | length) > 0
        and ([.rows[] | select(.icon_data | not)] | length == 0)
        and ([.rows[] | select(.subtext == "" or (.subtext | test("^#[0-9]+$")))] | length == 0)' >/dev/null
}

# The rows the shell showed (VIEW, JSON from shell_view.py) for QUERY: the first five a fresh
# search gives, each whole (its types in the subtext, its sprite as a file icon).
gnome_rows_right() {  # QUERY VIEW
    local want got
    want=$(fresh "$1"); got=$(echo "$2" | jq -r '.results[:5] | join(",")')
    echo "$2" | jq -r '.rows[] | "\(.id)\t\(.name)\t\(.description)\t\(.icon)"'
    [ -n "$got" ] || { echo "no rows: \"No results.\""; return 1; }
    [ "$got" = "$want" ] || { echo "shown $got, a fresh search gives $want"; return 1; }
    echo "$2" | jq -e '[.rows[] | select(.missing or (.description | contains(" · ") | not) or .icon != "file")] | length == 0' >/dev/null ||
        { echo "a bare row"; return 1; }
}

# ---- Each session ------------------------------------------------------------------------------
declare -A LOCALES=([en]=C.UTF-8 [de]=de_DE.UTF-8 [ja]=ja_JP.UTF-8)
declare -A QUERIES=([en]="charizard|#150|type:fire" [de]="glurak|#25|type:feuer" [ja]="pikachu|ピカチュウ|#6")
declare -A ACTION=([en]="Add to favorites" [de]="Zu den Favoriten hinzufügen" [ja]="お気に入りに追加")
for L in ${SHELL_LANGUAGES:-en de ja}; do
    LOCALE=${LOCALES[$L]}
    IFS='|' read -r -a queries <<<"${QUERIES[$L]}"
    echo "# ---- $L ($LOCALE) ----"
    # A day of use before: the rows of these searches on disk. Then the service restarts.
    service_in "$LOCALE" || exit 1
    for q in "${queries[@]}"; do ids=$(fresh "$q"); [ -n "$ids" ] && gnome GetResultMetas "[$(echo "$ids" | sed "s/[0-9]*/'&'/g")]" >/dev/null; done
    service_in "$LOCALE" || exit 1
    check "$L: the service restarted with the rows on disk" pokectl status

    # GNOME Shell, in the session's language.
    LANG=$LOCALE LC_ALL= LANGUAGE= XDG_CURRENT_DESKTOP=GNOME XDG_SESSION_TYPE=x11 gnome-shell --x11 --replace >"$TMP/gnome-shell-$L.log" 2>&1 &
    SHELL_PID=$!
    PIDS+=($SHELL_PID)
    overview_up() {
        gdbus call --session -d org.gnome.Shell -o /org/gnome/Shell -m org.freedesktop.DBus.Properties.Get org.gnome.Shell OverviewActive 2>/dev/null | grep -q true
    }
    for _ in $(seq 300); do overview_up && break; sleep 0.1; done
    check "$L: GNOME Shell starts on Xvfb and shows the overview" overview_up
    SHELL_NAME=$(owner org.gnome.Shell)
    sleep 2  # the startup animation
    provider_loaded() { ! grep -iE "(ignoring|failed to add) search provider.*pokedex" "$TMP/gnome-shell-$L.log"; }
    check "$L: GNOME Shell loads pokedexd's provider" provider_loaded
    # The clipboard's first owner: mutter misses the first paste from a new owner.
    printf ' ' | xclip -selection clipboard; sleep 1
    # GNOME Shell 43 on Xvfb draws no provider's list rows for the first search after it
    # starts, though it asked for and got them (dbus-monitor shows both), where the same search
    # once more draws them: one throwaway search first.
    xdotool mousemove 640 62 click 1 mousemove 1200 400; xdotool type --delay 12 zz; sleep 3
    for q in "${queries[@]}"; do
        declare -A seen=()
        rhythms="burst keys pause"
        # Kana go into GNOME's entry a key at a time: xdotool loses them when faster, and mutter
        # drops a paste into the overview (KRunner takes them pasted, as an input method commits).
        if LC_ALL=C.UTF-8 grep -qP '[^\x00-\x7F]' <<<"$q"; then rhythms=keys; fi
        for rhythm in $rhythms; do
            gnome_search "$rhythm" "$q"
            [ "$q" = "${queries[0]}" ] && shot "gnome-shell-$L-$rhythm"
            V=$(view gnome)
            check "$L: GNOME, '$q' typed $rhythm: the rows of a fresh search, each whole" gnome_rows_right "$q" "$V"
            sed 's/^/     | /' "$TMP/check.out"
            seen[$rhythm]=$(echo "$V" | jq -c '.results[:5]')
            echo "$V" | jq -r '.calls[]' | sed 's/^/     · /' | head -12
        done
        same_rows() { echo "burst ${seen[burst]} keys ${seen[keys]} pause ${seen[pause]}"; [ "${seen[burst]}" = "${seen[keys]}" ] && [ "${seen[keys]}" = "${seen[pause]}" ]; }
        [ "$rhythms" = keys ] || check "$L: GNOME, '$q': the same rows in a burst, key by key and with a pause" same_rows
    done
    # The first search of a first day, on a slow network: GNOME asks for each row once, so the
    # rows are whole from that first answer: sprite, types and genus in the session's language.
    cold_service_in "$LOCALE" || exit 1
    q=${queries[0]} rhythm=burst
    LC_ALL=C.UTF-8 grep -qP '[^\x00-\x7F]' <<<"$q" && rhythm=keys
    gnome_search "$rhythm" "$q"
    shot "gnome-shell-$L-cold"
    V=$(view gnome)
    check "$L: GNOME, empty cache at 300 ms a request, '$q' typed $rhythm: the rows whole from the first answer" gnome_rows_right "$q" "$V"
    sed 's/^/     | /' "$TMP/check.out"
    cp "$TMP/monitor.log" "$TMP/monitor-cold-gnome-$L.log"
    echo "$V" | jq -r '.calls[]' | sed 's/^/     · /' | head -12
    fast_network
    service_in "$LOCALE" || exit 1
    # Return on a form's row: that row's card, its whole name, in the terminal chosen for the desktop.
    xdotool key --clearmodifiers ctrl+a BackSpace; sleep 0.6
    : >"$TMP/monitor.log"; : >"$LAUNCH_LOG"
    type_as burst "mega charizard x"; settle GetResultMetas; sleep 1
    xdotool key Return
    launched_card() {
        for _ in $(seq 100); do [ -s "$LAUNCH_LOG" ] && break; sleep 0.1; done
        tail -1 "$LAUNCH_LOG"
        local font=monospace; [ "$L" = ja ] && font=monospace:lang=ja
        tail -1 "$LAUNCH_LOG" | jq -e --arg font "$font" '(.argv | index("--open")) as $o | $o and .argv[$o + 1] == "10034"
            and (.argv | index("-fa")) as $f | $f and .argv[$f + 1] == $font and .sigblk == "0000000000000000" and .fds == []
            and .seccomp == "0"' >/dev/null &&
        grep -q "pokedexd's launcher (io.github.pokedexd.Launcher1) started it" "$TMP/pokedexd.log"
    }
    check "$L: GNOME, Return on Mega Charizard X opens its card (--open 10034) in xterm with a font for the language, through pokedexd's launcher (no user manager, Landlock on)" launched_card
    sleep 3  # xterm maps, browse draws the card
    shot "gnome-shell-$L-activated"
    close_terminals
    kill $SHELL_PID 2>/dev/null; wait $SHELL_PID 2>/dev/null

    # KRunner, in the session's language: typed into its window as into GNOME's.
    service_in "$LOCALE" || exit 1
    : >"$TMP/monitor.log"
    LANG=$LOCALE LC_ALL= LANGUAGE= XDG_CURRENT_DESKTOP=KDE KDE_FULL_SESSION=true QT_QPA_PLATFORM=xcb krunner --replace >"$TMP/krunner-$L.log" 2>&1 &
    KRUNNER_PID=$!
    PIDS+=($KRUNNER_PID)
    krunner_up() { gdbus introspect --session -d org.kde.krunner -o /App 2>/dev/null | grep -q 'query('; }
    for _ in $(seq 300); do krunner_up && break; sleep 0.1; done
    check "$L: KRunner starts and owns org.kde.krunner" krunner_up
    SHELL_NAME=$(owner org.kde.krunner)
    ACTIONS=
    for q in "${queries[0]}" "${queries[1]}"; do
        for rhythm in burst keys pause; do
            krunner_open
            # It asks for the actions once, at its first query (X-Plasma-Request-Actions-Once).
            [ "${ACTIONS:-[]}" != "[]" ] || ACTIONS=$(view krunner | jq -c '.actions')
            : >"$TMP/monitor.log"
            type_as "$rhythm" "$q"
            settle Match
            [ "$q" = "${queries[0]}" ] && [ "$rhythm" = burst ] && { sleep 1; shot "krunner-$L"; }
            V=$(view krunner)
            [ "${ACTIONS:-[]}" != "[]" ] || ACTIONS=$(echo "$V" | jq -c '.actions')
            check "$L: KRunner, '$q' typed $rhythm: every row with its sprite and its types" krunner_rows
            sed 's/^/     | /' "$TMP/check.out"
        done
    done
    # KRunner's first match of a first day, on a slow network: it draws that first answer.
    cold_service_in "$LOCALE" || exit 1
    q=${queries[0]} rhythm=burst
    krunner_open
    : >"$TMP/monitor.log"
    type_as "$rhythm" "$q"
    settle Match
    sleep 1
    shot "krunner-$L-cold"
    V=$(view krunner)
    check "$L: KRunner, empty cache at 300 ms a request, '$q' typed $rhythm: every row with its sprite and its types" krunner_rows
    sed 's/^/     | /' "$TMP/check.out"
    cp "$TMP/monitor.log" "$TMP/monitor-cold-krunner-$L.log"
    fast_network
    krunner_actions() { echo "$ACTIONS"; echo "$ACTIONS" | jq -e --arg a "${ACTION[$L]}" 'index($a)' >/dev/null; }
    check "$L: KRunner's actions are in the session's language" krunner_actions
    kill $KRUNNER_PID 2>/dev/null; wait $KRUNNER_PID 2>/dev/null
done

echo "# screenshots in $SHOTS:"
ls "$SHOTS"/*.png | sed 's/^/     /'
summary desktop-shells
