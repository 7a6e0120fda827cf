#!/bin/bash
# The widgets in the real hosts (issue 39): Waybar in a headless sway, Polybar and conky on
# Xvfb, each running the example as `make install` lays it out, as a desktop user (`useradd -m`;
# sway refuses root), against pokedexd started by D-Bus activation on a private session bus (an
# activation file: it starts on a call and leaves after its idle timeout) and the project's mock
# PokeAPI with every species' real names, types and genus. In a German session, over time:
#   - shown: the newest favorite in each host; one `pokectl widget` a host, nothing more;
#   - the service stopped, then called back: "unavailable" in each bar, then the favorite
#     again; the times are read from screenshots of each bar, polled;
#   - the service killed (-9, so no Stopping): "unavailable", then the widgets start it again;
#   - every widget running and nothing changing: the service reaches its idle exit, nothing
#     calls it or starts it again for a minute (dbus-monitor), and the bars keep their favorite;
#   - an API outage: a favorite never fetched shows its German name, never its identifier;
#   - 31 favorites: conky's list wrapped within its window's maximum width;
#   - each bar restarted five times (kill, and once kill -9): no `pokectl widget` left behind;
#   - the bars shown again in English and Japanese sessions.
# Screenshots go to SHOTS (default docs/screenshots). Opt-in (`make test-widgets`, which
# installs the hosts): not part of `make test`. BUILD_DIR picks the binaries. Prints
# "widgets: N passed, M failed".
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
SHOTS=${SHOTS:-$ROOT/docs/screenshots}

# As root: the same again as a desktop user, whose screenshots are copied back.
if [ "$(id -u)" = 0 ]; then
    user=pokedex-widgets
    id "$user" >/dev/null 2>&1 || useradd -m -s /bin/bash "$user" || exit 1
    out=$(mktemp -d) && chmod 0777 "$out" || exit 1
    runuser -u "$user" -- env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="/home/$user" LANG=C.UTF-8 \
        BUILD_DIR="${BUILD_DIR:-$ROOT/.build/debug}" WIDGET_SHOTS="$out" WIDGET_IDLE_WATCH="${WIDGET_IDLE_WATCH:-60}" \
        bash "$0"
    status=$?
    mkdir -p "$SHOTS" && cp "$out"/*.png "$SHOTS"/ 2>/dev/null
    rm -rf "$out"
    exit $status
fi

SUITE=widgets
source "$ROOT/Tests/support/lib/suite.sh"
source "$ROOT/Tests/support/lib/private-service.sh"
OUT=${WIDGET_SHOTS:-$SHOTS}
IDLE_WATCH=${WIDGET_IDLE_WATCH:-60}
IDLE_TIMEOUT=8
SERVICE=io.github.pokedexd.Pokedex1
OBJECT=/io/github/pokedexd/Pokedex1
for tool in sway waybar grim polybar conky Xvfb import xdotool dbus-monitor busctl jq; do
    command -v "$tool" >/dev/null || { echo "widgets: $tool is missing; run 'make test-widgets', which installs the hosts"; exit 2; }
done
for l in de_DE ja_JP; do
    locale -a | grep -qix "$l.utf8" || { echo "widgets: the $l.UTF-8 locale is missing; 'make locales' makes it"; exit 2; }
done
mkdir -p "$OUT"

# ---- What `make install` lays out, a mock, and a bus that activates the service ------------
make -s -C "$ROOT" install-files PREFIX="$TMP/prefix" RELEASE_DIR="$BUILD_DIR" \
    USERUNITDIR="$TMP/prefix/lib/systemd/user" >"$TMP/install.log" 2>&1 || { cat "$TMP/install.log"; exit 1; }
EXAMPLES=$TMP/prefix/share/doc/pokedexd/examples
export PATH=$TMP/prefix/bin:$PATH XDG_RUNTIME_DIR=$TMP/run
mkdir -p "$XDG_RUNTIME_DIR" "$TMP/services" && chmod 700 "$XDG_RUNTIME_DIR"
start_mock --every-species
cat >"$TMP/services/$SERVICE.service" <<EOF
[D-BUS Service]
Name=$SERVICE
Exec=$TMP/prefix/bin/pokedexd --api-url $MOCK/api/v2 --sprite-host 127.0.0.1 --sprite-url-template $MOCK/sprites/{id}.png --idle-timeout $IDLE_TIMEOUT --notify=no
EOF
sed "s|<policy context=\"default\">|<servicedir>$TMP/services</servicedir>\n  &|" "$ROOT/Tests/support/dbus/test-bus.conf" >"$TMP/bus.conf"
# The service starts in a German session (its names and genus), with this HOME's cache.
address=$(LANG=de_DE.UTF-8 dbus-daemon --config-file="$TMP/bus.conf" --fork --print-address=1 --print-pid=3 3>"$TMP/bus.pid" 2>>"$TMP/service.log")
export DBUS_SESSION_BUS_ADDRESS=$address
PIDS+=("$(cat "$TMP/bus.pid")")
service_pid() { pgrep -u "$(id -u)" -x pokedexd; }
on_cleanup() { pkill -u "$(id -u)" -x pokedexd; pkill -u "$(id -u)" -f 'pokectl widget'; return 0; }

# ---- The hosts: a headless sway (Wayland) and Xvfb (X11) ------------------------------------
Xvfb -displayfd 3 -screen 0 1280x720x24 -nolisten tcp 3>"$TMP/display" 2>"$TMP/xvfb.log" &
PIDS+=($!)
for _ in $(seq 100); do [ -s "$TMP/display" ] && break; sleep 0.05; done
X=:$(cat "$TMP/display")
printf 'output HEADLESS-1 resolution 1024x600\nfont pango:DejaVu Sans 11\n' >"$TMP/sway.conf"
WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 sway -c "$TMP/sway.conf" >"$TMP/sway.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do WAYLAND=$(cd "$XDG_RUNTIME_DIR" && ls wayland-? 2>/dev/null | head -1); [ -n "$WAYLAND" ] && break; sleep 0.1; done
[ -n "$WAYLAND" ] || { echo "widgets: sway did not start"; cat "$TMP/sway.log"; exit 1; }

# Each host's configuration: the examples as installed, in a bar of their own.
{   echo '{"layer": "top", "position": "top", "height": 30, "modules-left": ["custom/pokedex"],'
    grep -v '^ *//' "$EXAMPLES/waybar/config.jsonc"
    echo '}'; } >"$TMP/waybar.json"
{   echo '* { font-family: "DejaVu Sans", "VL Gothic"; font-size: 15px; min-height: 0; }'
    echo 'window#waybar { background: #1e1e2e; color: #e0e0e0; }'
    cat "$EXAMPLES/waybar/style.css"; } >"$TMP/waybar.css"
cat >"$TMP/polybar.ini" <<EOF
include-file = $EXAMPLES/polybar/pokedex.ini
[bar/widgets]
width = 100%
height = 30
background = #1e1e2e
foreground = #e0e0e0
font-0 = DejaVu Sans:size=12;3
font-1 = VL Gothic:size=12;3
modules-left = pokedex
EOF
# In the foreground (the example forks into the background), so that this script knows its pid.
sed "s|lua_load = '.*'|lua_load = '$EXAMPLES/conky/pokedex.lua'|; s|own_window_type = 'desktop'|own_window_type = 'normal'|; s|background = true|background = false|" \
    "$EXAMPLES/conky/pokedex.conkyrc" >"$TMP/conkyrc"
grep -q "$EXAMPLES/conky/pokedex.lua" "$TMP/conkyrc" || { echo "widgets: the conkyrc's lua_load was not found"; exit 1; }

# The bars, started and stopped as a person's session does, in a language.
declare -A HOST_PID
start_host() {  # host language
    local env=(env LC_ALL="$2" LANG="$2")
    case $1 in
        waybar) "${env[@]}" WAYLAND_DISPLAY=$WAYLAND waybar -c "$TMP/waybar.json" -s "$TMP/waybar.css" >>"$TMP/waybar.log" 2>&1 & ;;
        polybar) "${env[@]}" DISPLAY=$X polybar -c "$TMP/polybar.ini" widgets >>"$TMP/polybar.log" 2>&1 & ;;
        conky) "${env[@]}" DISPLAY=$X conky -c "$TMP/conkyrc" >>"$TMP/conky.log" 2>&1 & ;;
    esac
    HOST_PID[$1]=$!
}
stop_host() { kill -"${2:-TERM}" "${HOST_PID[$1]}" 2>/dev/null; wait "${HOST_PID[$1]}" 2>/dev/null; }
# The pokectl processes alive (an exited one that init has not reaped yet is not left behind).
widgets() { ps -u "$(id -u)" -o stat=,comm= | awk '$1 !~ /^Z/ && $2 == "pokectl"' | wc -l; }
export -f widgets

# What each bar shows, as pixels: Waybar's bar, Polybar's bar and conky's window.
shot() {  # host file
    case $1 in
        waybar) WAYLAND_DISPLAY=$WAYLAND grim -t ppm -g "0,0 600x30" "$2" ;;
        polybar) DISPLAY=$X import -window root -crop 600x30+0+0 "ppm:$2" ;;
        conky) DISPLAY=$X import -window root -crop 340x560+940+30 "ppm:$2" ;;
    esac 2>/dev/null
}
looks() { shot "$1" "$TMP/look.ppm" && md5sum <"$TMP/look.ppm" | cut -c1-32; }
screenshot() {  # name: the whole of both displays, for a person to look at
    WAYLAND_DISPLAY=$WAYLAND grim -g "0,0 1024x120" "$OUT/widgets-$1-waybar.png" 2>/dev/null
    DISPLAY=$X import -window root "$OUT/widgets-$1-x11.png" 2>/dev/null
}
# Milliseconds until `host` looks other than (or, with "=", like) `reference`, at most 5 s.
until_looks() {  # host [=] reference → prints ms, fails after 5 s
    local host=$1 same=0 ref start now h
    [ "$2" = "=" ] && { same=1; shift; }
    ref=$2 start=$(date +%s%N)
    while :; do
        h=$(looks "$host"); now=$(date +%s%N)
        if { [ $same = 1 ] && [ "$h" = "$ref" ]; } || { [ $same = 0 ] && [ "$h" != "$ref" ]; }; then
            echo $(( (now - start) / 1000000 )); return 0
        fi
        [ $(( now - start )) -gt 5000000000 ] && { echo 5000; return 1; }
    done
}

# ---- Shown -----------------------------------------------------------------------------------
pokectl fav squirtle >/dev/null && pokectl fav eevee >/dev/null && pokectl fav charizard >/dev/null \
    || { echo "widgets: the service did not start by activation"; cat "$TMP/service.log"; exit 1; }
for h in waybar polybar conky; do start_host $h de_DE.UTF-8; done
sleep 4
screenshot de-shown
check "shown: one pokectl widget per host, the hosts running" bash -c "
    ps -u $(id -u) -o pid=,args= | grep -E 'pokectl widget|waybar|polybar|conky' | grep -v grep
    [ \$(widgets) = 3 ] && kill -0 ${HOST_PID[waybar]} ${HOST_PID[polybar]} ${HOST_PID[conky]}"
check "shown: the same text pokectl widget prints, in German (Glurak, Flammen-Pokémon)" bash -c "
    LC_ALL=de_DE.UTF-8 pokectl widget | tee /dev/stderr | jq -e '.text | test(\"Glurak\$\")' &&
    LC_ALL=de_DE.UTF-8 pokectl widget --format conky | grep -q '^Flammen-Pokémon · Feuer / Flug\$'"
declare -A SHOWN
for h in waybar polybar conky; do SHOWN[$h]=$(looks $h); done

# ---- The service stops, then is called back --------------------------------------------------
declare -A GONE BACK
pkill -TERM -u "$(id -u)" -x pokedexd
for h in waybar polybar conky; do GONE[$h]=$(until_looks $h "${SHOWN[$h]}"); done
screenshot de-unavailable
check "stopped: the widgets did not start it again (no D-Bus activation while they wait)" bash -c "
    sleep 1.5; busctl --user call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus NameHasOwner s $SERVICE | grep -qx 'b false'"
# A person's call starts it (status says whether it runs; favs asks it).
pokectl favs >/dev/null
for h in waybar polybar conky; do BACK[$h]=$(until_looks $h = "${SHOWN[$h]}"); done
screenshot de-back
for h in waybar polybar conky; do
    check "$h: 'unavailable' $((GONE[$h])) ms after the service stopped, the favorite again $((BACK[$h])) ms after it came back (goal: 1 s)" \
        test "${GONE[$h]}" -lt 1000 -a "${BACK[$h]}" -lt 1000
done
echo "recovery: stop → unavailable: waybar ${GONE[waybar]} ms, polybar ${GONE[polybar]} ms, conky ${GONE[conky]} ms;" \
     "back → favorite: waybar ${BACK[waybar]} ms, polybar ${BACK[polybar]} ms, conky ${BACK[conky]} ms"

# ---- Killed: gone without Stopping, and no user manager to start it again -------------------------
# The bars said "unavailable" for good (issue 56): the widgets now call it again after a second.
declare -A KILLED REVIVED
pkill -KILL -u "$(id -u)" -x pokedexd
for h in waybar polybar conky; do KILLED[$h]=$(until_looks $h "${SHOWN[$h]}"); done
for h in waybar polybar conky; do REVIVED[$h]=$(until_looks $h = "${SHOWN[$h]}"); done
for h in waybar polybar conky; do
    check "$h: killed with -9: 'unavailable' after $((KILLED[$h])) ms, then started again by the widget, the favorite after $((REVIVED[$h])) ms more" \
        test "${KILLED[$h]}" -lt 1000 -a "${REVIVED[$h]}" -lt 4000
done
check "killed: the service runs again, started by the widgets' call" pgrep -u "$(id -u)" -x pokedexd

# ---- Idle: nothing changes for a minute --------------------------------------------------------
for _ in $(seq $(( (IDLE_TIMEOUT + 10) * 10 ))); do service_pid >/dev/null || break; sleep 0.1; done
check "idle: the service reached its idle exit ($IDLE_TIMEOUT s) with the three widgets running" bash -c "! pgrep -u $(id -u) -x pokedexd"
dbus-monitor --profile "type='method_call',path='$OBJECT'" >"$TMP/idle-calls.log" 2>/dev/null &
MONITOR=$!
sleep "$IDLE_WATCH"
kill $MONITOR
calls=$(grep -c '^mc' "$TMP/idle-calls.log")
check "idle: $calls calls to the service in $IDLE_WATCH s, nothing started it, and each bar still shows its favorite" bash -c "
    [ $calls = 0 ] && ! pgrep -u $(id -u) -x pokedexd &&
    [ '$(looks waybar)' = '${SHOWN[waybar]}' ] && [ '$(looks polybar)' = '${SHOWN[polybar]}' ] && [ '$(looks conky)' = '${SHOWN[conky]}' ]"
echo "idle: $calls bus calls to the service in $IDLE_WATCH s ($(( calls * 60 / IDLE_WATCH )) a minute), $(widgets) widgets running"

# ---- An API outage, and a favorite never fetched ---------------------------------------------
curl -sf -X POST "$MOCK/__control" -d '{"offline": true}' >/dev/null
pokectl fav dragonite >/dev/null 2>&1
sleep 1.5
screenshot de-outage
check "outage: a favorite never fetched is shown by its German name (Dragoran), not its identifier" bash -c "
    LC_ALL=de_DE.UTF-8 pokectl widget | tee /dev/stderr | jq -e '(.text | test(\"Dragoran\$\")) and (.tooltip | test(\"^#149 Dragoran · Details, sobald\"))' &&
    LC_ALL=de_DE.UTF-8 pokectl widget --format polybar | grep -qx '● Dragoran'"
curl -sf -X POST "$MOCK/__control" -d '{"offline": false}' >/dev/null
for _ in $(seq 100); do [ "$(busctl --user get-property $SERVICE $OBJECT $SERVICE Online 2>/dev/null)" = "b true" ] && break; sleep 0.2; done
check "outage over: the record fetched, the genus and types shown" bash -c "
    for _ in \$(seq 50); do LC_ALL=de_DE.UTF-8 pokectl widget | jq -e '.tooltip | test(\"Drache\")' && exit 0; sleep 0.2; done; exit 1"

# ---- 31 favorites ------------------------------------------------------------------------------
for name in bulbasaur ivysaur venusaur charmander charmeleon wartortle blastoise caterpie metapod butterfree weedle \
            kakuna beedrill pidgey pidgeotto pidgeot rattata raticate spearow fearow ekans arbok pikachu raichu sandshrew mewtwo mew; do
    busctl --user call $SERVICE $OBJECT $SERVICE SetFavorite sb "$name" true >/dev/null
done
sleep 2
screenshot de-31-favorites
count=$(pokectl favs --json | jq '.favorites | length')
check "31 favorites ($count): conky's window within its maximum width, every name or 'and N more' in its text" bash -c "
    geometry=\$(DISPLAY=$X xdotool search --class '[Cc]onky' getwindowgeometry 2>/dev/null | grep Geometry | head -1); echo \"\$geometry\"
    width=\${geometry##* }; width=\${width%x*}; [ \"\$width\" -le 340 ] &&
    LC_ALL=de_DE.UTF-8 pokectl widget --format conky | tee /dev/stderr | grep -q '^\\\${color grey}$count Favoriten:' &&
    [ \$(LC_ALL=de_DE.UTF-8 pokectl widget --format conky | awk 'length > 40' | grep -vc '^\\\${') = 0 ]"

# ---- Bars restarted five times -------------------------------------------------------------------
before=$(widgets)
for h in waybar polybar conky; do
    # Four plain restarts (kill PID), and one crash (kill -9): the bar takes nothing with it.
    for signal in TERM TERM TERM TERM KILL; do stop_host $h $signal; start_host $h de_DE.UTF-8; sleep 1; done
done
sleep 2
after=$(widgets)
check "restarts: $before pokectl widget before, $after after five restarts of each bar (one a host)" bash -c "
    ps -u $(id -u) -o pid=,ppid=,stat=,args= | grep pokectl | grep -v grep; test '$before' = 3 -a '$after' = 3"
for h in waybar polybar conky; do stop_host $h; done
sleep 1.5
check "the bars gone: no pokectl widget left" bash -c "
    ps -u $(id -u) -o pid=,ppid=,stat=,args= | grep pokectl | grep -v grep; [ \$(widgets) = 0 ]"

# ---- Other languages -----------------------------------------------------------------------------
for lang in C.UTF-8:en ja_JP.UTF-8:ja; do
    for h in waybar polybar conky; do start_host $h "${lang%%:*}"; done
    sleep 3
    screenshot "${lang##*:}-shown"
    for h in waybar polybar conky; do stop_host $h; done
done
check "Japanese: the names as the games write them (ミュウ)" bash -c "LC_ALL=ja_JP.UTF-8 pokectl widget --format polybar | grep -q 'ミュウ\$'"

ls "$OUT"/widgets-*.png
summary widgets
