# pokectl's pictures, watch, --json and widget --follow over time (sourced by examples-test.sh).
# Shares examples-test.sh's variables (ROOT, TMP, W, C, R, MOCK, DAEMON) and its suite.

# pokectl show and list --images against the real service: pictures only when asked for colour.
plain() { sed 's/\x1b\[[0-9;]*m//g'; }
export -f plain
check "show off a terminal: the plain card, no escapes, no picture" bash -c "
    out=\$(pokectl show pikachu) && echo \"\$out\" && ! printf '%s' \"\$out\" | grep -q \$'\\e' &&
    echo \"\$out\" | grep -q '^Pikachu  #025  ★' && echo \"\$out\" | grep -q '^\[Electric\]' &&
    echo \"\$out\" | grep -Eq '^Height +0\.[0-9] m \([0-9]′[0-9]{2}″\)' && echo \"\$out\" | grep -Eq '^Speed +[0-9]+ [█▏▎▍▌▋▊▉]+' &&
    echo \"\$out\" | head -1 | grep -q '^Pikachu'"
check "show --color always with COLORTERM=truecolor: a 24-bit half-block picture, 80 columns" bash -c "
    out=\$(COLUMNS=80 COLORTERM=truecolor pokectl show pikachu --color always) &&
    echo \"\$out\" | grep -q '38;2;' && echo \"\$out\" | plain | head -1 | grep -q '[▀▄█]' &&
    [ \$(echo \"\$out\" | plain | wc -L) -le 80 ]"
check "show --color always without COLORTERM: 256 colours only" bash -c "
    out=\$(COLORTERM= pokectl show pikachu --color always) && echo \"\$out\" | grep -q '38;5;' && ! echo \"\$out\" | grep -q '38;2;'"
check "show --no-image: no picture even with colour" bash -c "
    COLORTERM=truecolor pokectl show pikachu --color always --no-image | plain | head -1 | grep -q '^Pikachu'"
check "list --images: a small sprite per row, the name beside it" bash -c "
    out=\$(COLORTERM=truecolor pokectl list --images --per-page 3 --color always); echo \"\$out\" | plain | head -1 | grep -q '[▀▄█]' &&
    echo \"\$out\" | plain | grep -q '#001 Bulbasaur' && echo \"\$out\" | plain | grep -q '#003 Venusaur'"
check "list --images off a terminal: the plain table" bash -c "pokectl list --images --per-page 3 | head -1 | grep -q '^#  *★  *NAME'"

# pokectl watch: one JSON line per signal, flushed as it comes.
pokectl watch --count 4 >"$TMP/watch.out" &
WATCH=$!
sleep 0.5
pokectl fav bulbasaur >/dev/null
pokectl unfav bulbasaur >/dev/null
for _ in $(seq 50); do kill -0 $WATCH 2>/dev/null || break; sleep 0.1; done
check "watch: FavoriteChanged and PropertiesChanged lines, each valid JSON" bash -c "
    cat $TMP/watch.out && [ \$(wc -l < $TMP/watch.out) = 4 ] &&
    sed -n 1p $TMP/watch.out | jq -e '.event == \"FavoriteChanged\" and .name == \"bulbasaur\" and .id == 1 and .favorite == true and (.time > 1e9)' &&
    sed -n 2p $TMP/watch.out | jq -e '.event == \"PropertiesChanged\" and .interface == \"io.github.pokedexd.Pokedex1\" and .changed.Favorites == [7, 25, 1]' &&
    sed -n 3p $TMP/watch.out | jq -e '.event == \"FavoriteChanged\" and .favorite == false' &&
    sed -n 4p $TMP/watch.out | jq -e '.changed.Favorites == [7, 25]'"
# Issue 28: --json as every command takes it; and the answers scripts need.
pokectl watch --json --count 2 >"$TMP/watchjson.out" &
WJ=$!
sleep 0.5
pokectl fav bulbasaur >/dev/null
for _ in $(seq 50); do kill -0 $WJ 2>/dev/null || break; sleep 0.1; done
check "watch --json: taken, one JSON object a line" bash -c "
    [ \$(wc -l < $TMP/watchjson.out) = 2 ] && while read -r l; do echo \"\$l\" | jq -e 'type == \"object\"' >/dev/null || exit 1; done < $TMP/watchjson.out"
pokectl unfav bulbasaur >/dev/null
check "sprite --json names the resolved Pokémon, not the input" bash -c "
    pokectl sprite 'No. 25' --json | jq -e '.pokemon == \"pikachu\" and .id == 25 and .query == \"No. 25\" and (.sprite_path | length > 0)'"
check "status --json with no session bus: {running: false, reason} on stdout, exit 3" bash -c "
    out=\$(DBUS_SESSION_BUS_ADDRESS=unix:path=$TMP/no-bus pokectl status --json 2>/dev/null); code=\$?
    echo \"\$out\" | jq -e '.running == false and (.reason | length > 0)' && [ \$code = 3 ]"
# --follow over time: it follows the service, not only its signals (issue 39). One process
# (the script execs pokectl widget), which prints when what is shown changes, "unavailable" at
# once when the service stops, the content again when it comes back, nothing across an idle
# exit, and ends when its reader goes away.
lines() { wc -l <"$1"; }
wait_lines() {  # file count [seconds]: until it has count lines
    for _ in $(seq $((${3:-5} * 20))); do [ "$(lines "$1")" -ge "$2" ] && return 0; sleep 0.05; done; return 1
}
export -f lines wait_lines
setsid "$W" --follow >"$TMP/follow.out" 2>"$TMP/follow.err" &
FOLLOW=$!
pokectl watch --initial >"$TMP/watch-life.out" 2>&1 &
WATCH_LIFE=$!
wait_lines "$TMP/follow.out" 1
check "follow: one process, pokectl widget itself (no pipeline left to outlive the bar)" bash -c "
    ps -o pid=,args= -s $FOLLOW; [ \$(ps -o pid= -s $FOLLOW | wc -l) = 1 ] && ps -o args= -p $FOLLOW | grep -q 'widget --format waybar --pick newest --follow'"
pokectl fav charizard >/dev/null
wait_lines "$TMP/follow.out" 2
check "follow: a new favorite is shown (the newest), once" bash -c "
    cat $TMP/follow.out; [ \$(lines $TMP/follow.out) = 2 ] && tail -1 $TMP/follow.out | jq -e '.alt == \"charizard\"'"
# Ten quick toggles (busctl, a few ms apart): settled, then shown at most once; they end where
# they began (bulbasaur not a favorite), so nothing changes on the bar.
before=$(lines "$TMP/follow.out")
for _ in $(seq 10); do
    busctl --user call io.github.pokedexd.Pokedex1 /io/github/pokedexd/Pokedex1 io.github.pokedexd.Pokedex1 ToggleFavorite s bulbasaur >/dev/null
done
sleep 1.5
check "follow: ten quick toggles flip the bar at most once, and it ends on the newest" bash -c "
    added=\$(( \$(lines $TMP/follow.out) - $before )); echo \"\$added line(s)\"; [ \$added -le 1 ] &&
    tail -1 $TMP/follow.out | jq -e '.alt == \"charizard\"'"
# The service stops (SIGTERM): "unavailable" within a second; back: the favorite within a second.
before=$(lines "$TMP/follow.out")
kill $DAEMON; wait $DAEMON 2>/dev/null
stopped=$(date +%s%N)
wait_lines "$TMP/follow.out" $((before + 1)) 2
shown=$(date +%s%N)
check "follow: the service stopping shows unavailable within 1 s ($(( (shown - stopped) / 1000000 )) ms)" bash -c "
    tail -1 $TMP/follow.out | jq -e '.class == \"unavailable\"' && [ $(( (shown - stopped) / 1000000 )) -lt 1000 ]"
before=$(lines "$TMP/follow.out")
start_daemon --sprite-url-template "$MOCK/sprites/{id}.png" --notify=no --idle-timeout 3 || exit 1
back=$(date +%s%N)
wait_lines "$TMP/follow.out" $((before + 1)) 2
shown=$(date +%s%N)
check "follow: the service back shows the favorite again within 1 s, with no key and no change ($(( (shown - back) / 1000000 )) ms)" bash -c "
    tail -1 $TMP/follow.out | jq -e '.alt == \"charizard\"' && [ $(( (shown - back) / 1000000 )) -lt 1000 ]"
# Its idle exit (3 s here) with the widget and watch running: the service leaves, nothing is
# shown differently, and nothing asks it back (no activation: the private bus has none, so a
# call would fail and show "unavailable").
before=$(lines "$TMP/follow.out")
for _ in $(seq 100); do kill -0 $DAEMON 2>/dev/null || break; sleep 0.1; done
sleep 1
check "follow: the service reaches its idle exit with the widget running, and the bar keeps its favorite" bash -c "
    ! kill -0 $DAEMON 2>/dev/null && [ \$(lines $TMP/follow.out) = $before ] && tail -1 $TMP/follow.out | jq -e '.alt == \"charizard\"'"
check "watch: ServiceStarted with the state, ServiceStopped (stop, then idle), in order" bash -c "
    cat $TMP/watch-life.out
    jq -s -e '[.[] | select(.event | test(\"^Service\"))] | map(.event + \":\" + (if has(\"idle\") then .idle | tostring else \"\" end))
        == [\"ServiceStarted:\", \"ServiceStopped:false\", \"ServiceStarted:\", \"ServiceStopped:true\"]' $TMP/watch-life.out &&
    jq -s -e '[to_entries[] | select(.value.event == \"ServiceStarted\") | .key + 1] as \$after | [.[\$after[]]]
        | length == 2 and all(.event == \"PropertiesChanged\" and .changed.Version != null and (.changed.Favorites | length >= 2))' $TMP/watch-life.out"
kill $WATCH_LIFE 2>/dev/null
start_daemon --sprite-url-template "$MOCK/sprites/{id}.png" --notify=no || exit 1
# Its reader gone (the bar exits, or restarts): it ends, without waiting for something to write.
# The subshell ends once both ends of its pipe have: this pokectl's end, not any other's (the
# end-to-end suites run two at a time, and another may follow a widget meanwhile).
( pokectl widget --follow | head -n 1 >/dev/null ) &
HEAD=$!
gone() { for _ in $(seq 200); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.05; done; return 1; }
check "follow: ends when its reader goes away (| head -n 1)" gone $HEAD
mkfifo "$TMP/bar"
setsid sh -c "exec $W --polybar --follow >$TMP/bar" &
BAR=$!
exec 7<"$TMP/bar"; read -r _ <&7; exec 7<&-
sleep 1
check "follow: ends when the bar closes its end, with no change to write" bash -c "! kill -0 $BAR 2>/dev/null"
kill -- -$FOLLOW 2>/dev/null
