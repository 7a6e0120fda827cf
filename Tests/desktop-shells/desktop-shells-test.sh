#!/bin/bash
# The real shells (issue 27): Debian's GNOME Shell 43 and Plasma 5.27's KRunner, each on Xvfb
# with a private session bus, a private system bus and a throwaway HOME, against pokedexd and
# the project's mock PokeAPI listing every species (--every-species). A person's steps: type
# "pika", "#25" and "charmander" (xdotool into GNOME's overview; KRunner's own
# org.kde.krunner.App.query), look (a screenshot each, into SHOTS, default docs/screenshots),
# press Return on the first result. dbus-monitor records what each shell asked pokedexd; the
# checks read that record, pokedexd's answers and the terminal the activation opened.
# Opt-in (`make test-desktop-shells`, which installs the shells): not part of `make test`.
# BUILD_DIR picks the binaries. Prints "desktop-shells: N passed, M failed".
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=desktop-shells
source "$ROOT/Tests/lib/suite.sh"
source "$ROOT/Tests/lib/private-service.sh"
HERE=$ROOT/Tests/desktop-shells
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
    return 0
}
for tool in gnome-shell krunner Xvfb xdotool import xterm dbus-monitor gdbus jq; do
    command -v "$tool" >/dev/null || { echo "desktop-shells: $tool is missing; run 'make test-desktop-shells', which installs the shells"; exit 2; }
done
mkdir -p "$SHOTS"

# ---- The desktop: installed files, a display, two buses, the service ------------------------
# The files `make install` puts in a prefix (the app entry, GNOME's provider ini, KRunner's
# plugin, the icons), found through XDG_DATA_DIRS as under /usr/local.
make -s -C "$ROOT" install-files PREFIX="$TMP/prefix" RELEASE_DIR="$BUILD_DIR" \
    USERUNITDIR="$TMP/prefix/lib/systemd/user" >"$TMP/install.log" 2>&1 || { cat "$TMP/install.log"; exit 1; }
export XDG_DATA_DIRS=$TMP/prefix/share:/usr/local/share:/usr/share
export XDG_CONFIG_HOME=$HOME/.config XDG_RUNTIME_DIR=$TMP/run GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"

Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$TMP/display" 2>"$TMP/xvfb.log" &
PIDS+=($!)
for _ in $(seq 100); do [ -s "$TMP/display" ] && break; sleep 0.1; done
export DISPLAY=:$(cat "$TMP/display")
start_private_bus
out=$(dbus-daemon --config-file="$HERE/system-bus.conf" --fork --print-address=1 --print-pid=1)
export DBUS_SYSTEM_BUS_ADDRESS=$(echo "$out" | sed -n 1p)
PIDS+=("$(echo "$out" | sed -n 2p)")

# The terminal pokedexd opens on activation, the first it looks for: a real xterm, behind a
# wrapper that first records how it was started (argv, SigBlk, descriptors beyond 0-2;
# Tests/desktop-search/fake_terminal.py).
mkdir -p "$TMP/bin"
cat >"$TMP/bin/x-terminal-emulator" <<EOF
#!/bin/sh
$PY "$ROOT/Tests/desktop-search/fake_terminal.py" "\$@"
echo \$\$ >>"$TMP/terminals"
exec /usr/bin/xterm -geometry 100x30+40+60 "\$@"
EOF
chmod +x "$TMP/bin/x-terminal-emulator"
export LAUNCH_LOG=$TMP/launches.jsonl PATH=$TMP/bin:$PATH
start_mock --every-species
# No user manager here, so systemd-run fails and pokedexd starts the terminal itself: without
# Landlock, which that terminal would otherwise share.
start_daemon -v --landlock=no || exit 1

gnome() { gdbus call --session -d $SERVICE -o $GNOME_PATH -m "$GNOME_IFACE.$1" "${@:2}"; }
# Warm, as a day of use would have: the records and sprites of what the three searches show,
# so that rows carry their types and sprites the first time a shell asks.
for term in pika '#25' charmander; do
    ids=$(gnome GetInitialResultSet "['$term']" | grep -o "'[0-9]*'" | head -10 | paste -sd, -)
    for _ in $(seq 100); do
        gnome GetResultMetas "[$ids]" >"$TMP/metas" 2>&1
        [ "$(grep -o "'file'" "$TMP/metas" | wc -l)" -ge "$(echo "$ids" | tr , '\n' | wc -l)" ] && break
        sleep 0.1
    done
done
# From here, what the shells ask, as dbus-monitor sees it on the session bus (appended, so that
# the log can be emptied between the shells).
dbus-monitor --session "type='method_call',interface='$GNOME_IFACE'" "type='method_call',interface='$KRUNNER_IFACE'" \
    >>"$TMP/monitor.log" 2>&1 &
PIDS+=($!)
# calls [INTERFACE]: the calls the shell under test made (SENDER, its unique name), one a line.
SENDER=none
calls() { $PY "$HERE/monitored_calls.py" --sender "$SENDER" "$@" <"$TMP/monitor.log"; }
owner() { gdbus call --session -d org.freedesktop.DBus -o /org/freedesktop/DBus -m org.freedesktop.DBus.GetNameOwner "$1" | grep -o ":[0-9.]*"; }
# The terminals the activations opened (the wrapper wrote their pids), and only those.
close_terminals() { [ -s "$TMP/terminals" ] && kill $(cat "$TMP/terminals") 2>/dev/null; : >"$TMP/terminals"; }
shot() { import -window root "$SHOTS/$1.png"; }

# Rows as the shell showed them: pokedexd's metas for the ids the shell last asked metas of
# (GNOME asks for the rows it draws), as "#NNN<tab>name" lines.
shown_rows_gnome() {
    local ids
    ids=$(calls "$GNOME_IFACE" | grep '^GetResultMetas' | tail -1 | sed 's/^GetResultMetas(//; s/)$//; s/"/'"'"'/g')
    gnome GetResultMetas "[$ids]" | $PY "$HERE/shown_rows.py" gnome
}
# At least 4 different Pokémon (numbers) and no two rows alike, in "#NNN<tab>name" lines on stdin.
different_pokemon() {
    local rows; rows=$(cat); echo "$rows"
    local n; n=$(echo "$rows" | cut -f1 | sort -u | wc -l)
    [ "$(echo "$rows" | sort | uniq -d | wc -l)" = 0 ] || { echo "two rows read alike"; return 1; }
    [ "$n" -ge 4 ] || { echo "only $n different Pokémon"; return 1; }
}
# The last launch: a terminal running pokectl browse for Pikachu (#25 or #025), with SigBlk 0
# and no descriptors beyond 0-2.
launched_pikachu() {
    for _ in $(seq 100); do [ -s "$LAUNCH_LOG" ] && break; sleep 0.1; done
    tail -1 "$LAUNCH_LOG"
    tail -1 "$LAUNCH_LOG" | jq -e '(.argv | index("browse")) and (.argv[-1] | test("^#0*25$")) and .sigblk == "0000000000000000" and .fds == []'
}
# called MEMBER ARGS-PREFIX: the shell made that call (within 5 s).
called() {
    for _ in $(seq 50); do calls | grep -qF "$1($2" && { calls | grep -F "$1($2" | tail -1; return 0; }; sleep 0.1; done
    return 1
}
# last_metas_start ID: GNOME's last GetResultMetas began with ID (the first row it shows).
last_metas_start() { calls | grep '^GetResultMetas' | tail -1 | tee /dev/stderr | grep -q "^GetResultMetas(\"$1\""; }
# has_calls FILE MEMBER...: every MEMBER is in FILE.
has_calls() { local f=$1 m; shift; for m in "$@"; do grep -q "^$m(" "$f" || { echo "no $m call"; return 1; }; done; }

# ---- GNOME Shell ------------------------------------------------------------------------------
echo "# GNOME Shell $(gnome-shell --version | awk '{print $3}')"
XDG_CURRENT_DESKTOP=GNOME XDG_SESSION_TYPE=x11 gnome-shell --x11 --replace >"$TMP/gnome-shell.log" 2>&1 &
SHELL_PID=$!
PIDS+=($SHELL_PID)
overview_up() {
    gdbus call --session -d org.gnome.Shell -o /org/gnome/Shell -m org.freedesktop.DBus.Properties.Get org.gnome.Shell OverviewActive 2>/dev/null | grep -q true
}
for _ in $(seq 300); do overview_up && break; sleep 0.1; done
check "GNOME Shell starts on Xvfb and shows the overview" overview_up
SENDER=$(owner org.gnome.Shell)
sleep 2  # the startup animation
provider_loaded() { ! grep -iE "(ignoring|failed to add) search provider.*pokedex" "$TMP/gnome-shell.log"; }
check "GNOME Shell loads pokedexd's provider (no 'Ignoring' or 'Failed to add search provider')" provider_loaded
gnome_type() {  # TERM [SHOT]: clear the search, type TERM, wait for the metas GNOME asks, screenshot
    local before; before=$(calls | grep -c '^GetResultMetas')
    xdotool key --clearmodifiers ctrl+a BackSpace
    sleep 0.5
    xdotool type --delay 90 "$1"
    for _ in $(seq 100); do [ "$(calls | grep -c '^GetResultMetas')" -gt "$before" ] && break; sleep 0.1; done
    sleep 1.5  # the rows' icons and the animation
    [ -z "${2:-}" ] || shot "$2"
}
gnome_type pika gnome-shell-pika
check "GNOME: typing 'pika' makes GNOME Shell itself call GetInitialResultSet" called GetInitialResultSet '"pika"'
gnome_pika() { shown_rows_gnome | different_pokemon; }
check "GNOME: 'pika' shows at least 4 different Pokémon, no two rows alike" gnome_pika
sed 's/^/     | /' "$TMP/check.out"
gnome_type '#25' gnome-shell-25
check "GNOME: '#25' shows Pikachu first" last_metas_start 25
gnome_type charmander gnome-shell-charmander
check "GNOME: 'charmander' shows Charmander first" last_metas_start 4
gnome_type pika
: >"$LAUNCH_LOG"
xdotool key Return
check "GNOME: Return calls ActivateResult for Pikachu" called ActivateResult '"25", "pika"'
check "GNOME: the activation opens a terminal with pokectl browse for Pikachu, SigBlk 0, no stray descriptors" launched_pikachu
sleep 2  # xterm maps, browse draws
shot gnome-shell-activated
close_terminals
echo "# the calls GNOME Shell made, as dbus-monitor saw them"
calls "$GNOME_IFACE" | sed 's/^/     /'
calls "$GNOME_IFACE" >"$TMP/gnome-calls"
check "GNOME: initial, subsearch, metas and activate calls all arrived" \
    has_calls "$TMP/gnome-calls" GetInitialResultSet GetSubsearchResultSet GetResultMetas ActivateResult
kill $SHELL_PID 2>/dev/null; wait $SHELL_PID 2>/dev/null
: >"$TMP/monitor.log"

# ---- KRunner ----------------------------------------------------------------------------------
echo "# KRunner $(dpkg-query -W -f '${Version}' plasma-workspace 2>/dev/null)"
XDG_CURRENT_DESKTOP=KDE KDE_FULL_SESSION=true QT_QPA_PLATFORM=xcb krunner --replace >"$TMP/krunner.log" 2>&1 &
KRUNNER_PID=$!
PIDS+=($KRUNNER_PID)
krunner_up() { gdbus introspect --session -d org.kde.krunner -o /App 2>/dev/null | grep -q 'query('; }
for _ in $(seq 300); do krunner_up && break; sleep 0.1; done
check "KRunner starts and owns org.kde.krunner" krunner_up
SENDER=$(owner org.kde.krunner)
krunner_query() {  # TERM [SHOT]
    local before; before=$(calls | grep -c '^Match')
    gdbus call --session -d org.kde.krunner -o /App -m org.kde.krunner.App.query "$1" >/dev/null
    for _ in $(seq 100); do [ "$(calls | grep -c '^Match')" -gt "$before" ] && break; sleep 0.1; done
    sleep 2  # KRunner gathers every runner's matches, then draws
    [ -z "${2:-}" ] || shot "$2"
}
# KRunner's rows for a term it asked for: the test asks pokedexd the same Match (dbus-monitor
# sees calls, not replies) and prints the answer, best first, as "#NNN<tab>name".
krunner_rows() {
    called Match "\"$1\"" >/dev/null || { echo "KRunner never called Match(\"$1\")"; return 1; }
    gdbus call --session -d $SERVICE -o $KRUNNER_PATH -m $KRUNNER_IFACE.Match "$1" | $PY "$HERE/shown_rows.py" krunner | head -10
}
krunner_query pika krunner-pika
krunner_pika() { local rows; rows=$(krunner_rows pika) || { echo "$rows"; return 1; }; echo "$rows" | different_pokemon; }
check "KRunner: 'pika' shows at least 4 different Pokémon, no two rows alike" krunner_pika
sed 's/^/     | /' "$TMP/check.out"
krunner_query '#25' krunner-25
first_row() { local rows; rows=$(krunner_rows "$1") || { echo "$rows"; return 1; }; echo "$rows" | head -1 | tee /dev/stderr | grep -qx "$2"; }
check "KRunner: '#25' gives Pikachu first" first_row '#25' $'#025\tPikachu'
krunner_query charmander krunner-charmander
check "KRunner: 'charmander' gives Charmander first" first_row charmander $'#004\tCharmander'
krunner_query pika
: >"$LAUNCH_LOG"
# KRunner's window has the keyboard once the pointer is on it (no window manager here).
xdotool search --class krunner windowactivate --sync 2>/dev/null || xdotool mousemove 640 20
xdotool key Return
check "KRunner: Return calls Run for Pikachu" called Run '"25", ""'
check "KRunner: the activation opens a terminal with pokectl browse for Pikachu, SigBlk 0, no stray descriptors" launched_pikachu
sleep 2
shot krunner-activated
close_terminals
echo "# the calls KRunner made, as dbus-monitor saw them"
calls "$KRUNNER_IFACE" | sed 's/^/     /'
calls "$KRUNNER_IFACE" >"$TMP/krunner-calls"
check "KRunner: Config, Actions, Match and Run all arrived" has_calls "$TMP/krunner-calls" Config Actions Match Run
kill $KRUNNER_PID 2>/dev/null; wait $KRUNNER_PID 2>/dev/null

echo "# screenshots in $SHOTS:"
ls "$SHOTS"/*.png | sed 's/^/     /'
summary desktop-shells
