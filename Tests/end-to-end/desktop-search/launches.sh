# Launches: no caller text where a terminal or pokectl reads options, and launches that fail.
# Sourced by desktop-search-test.sh; shares its variables, functions and suite.

# ---- Launches: no caller text where a terminal or pokectl reads options (issue 26) ------------
# Fake terminals (fake_terminal.py) record their argv, the descriptors they got beyond 0-2,
# their blocked signals and any activation token. No user manager on this bus (nothing owns
# org.freedesktop.systemd1): the programs are spawned directly, which Landlock forbids (they
# would share its sandbox). The desktop-user test has a real manager start them.
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null
mkdir -p "$TMP/bin"
install -m 0755 "$ROOT/Tests/end-to-end/desktop-search/fake_terminal.py" "$TMP/bin/gnome-terminal"
install -m 0755 "$ROOT/Tests/end-to-end/desktop-search/fake_terminal.py" "$TMP/bin/my-own-term"
LAUNCHES=$TMP/launches.jsonl
touch "$LAUNCHES"
launches() { wc -l <"$LAUNCHES"; }
DAEMON_ENV=(PATH="$TMP/bin:$BUILD_DIR" LAUNCH_LOG="$LAUNCHES")
start_daemon --notify=no || { summary desktop-search; exit 1; }
confined_no_manager() {
    if ! pokectl status --json | jq -e '.landlock | index("files")' >/dev/null; then
        echo "skipped: Landlock does not confine files on this kernel"; return 0
    fi
    gn LaunchSearch "['pika']" 0 >/dev/null || return 1
    for _ in $(seq 30); do grep -q "the user manager could not start" "$TMP/pokedexd.log" && break; sleep 0.1; done
    grep "the user manager could not start" "$TMP/pokedexd.log" | tail -1 | grep -- "--landlock=no" && [ "$(launches)" -eq 0 ]
}
check "launch: confined by Landlock and no user manager: nothing started, a journal line says what to do" confined_no_manager
# The rest is about what goes on the command line, so the daemon runs unconfined.
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null
DAEMON_ENV=(PATH="$TMP/bin:$BUILD_DIR" LAUNCH_LOG="$LAUNCHES" POKEDEX_LANDLOCK=no)
start_daemon --notify=no || { summary desktop-search; exit 1; }
unconfined_says_so() { pokectl status | grep -F "no landlock (turned off by --landlock=no)"; }
check "--landlock=no: pokectl status says the sandbox is off, and why" unconfined_says_so
# wait_launch N: until N launches were recorded; prints the last one.
wait_launch() {
    for _ in $(seq 50); do [ "$(launches)" -ge "$1" ] && break; sleep 0.1; done
    tail -1 "$LAUNCHES"; [ "$(launches)" -ge "$1" ]
}
# no_option_text QUERY: the last launch carries QUERY only as its last argument, right after
# pokectl's "browse --desktop-search --" (the shell's list), and in no other argument (but the
# terminal's and pokectl's own "--").
no_option_text() {
    tail -1 "$LAUNCHES" | jq -e --arg q "$1" '.argv as $a | ($a | length) as $n
        | $a[$n - 1] == $q and $a[$n - 2] == "--" and $a[$n - 3] == "--desktop-search" and $a[$n - 4] == "browse"
        and ([$a[0:$n - 1][] | select(contains($q) and . != "--" and . != "--desktop-search")] | length == 0)' >/dev/null
}
hostile_launch() {
    sleep 1.05  # past the rate limit
    gn LaunchSearch "[$1]" 0 >/dev/null && wait_launch "$3" && no_option_text "$2" && [ ! -e "$TMP/pwned" ]
}
n=0
for q in "--command=touch $TMP/pwned" '--help' '--image-protocol=kitty' '-e' '--'; do
    n=$((n + 1))
    check "launch: LaunchSearch(['$q']) gives gnome-terminal -- …/pokectl browse --desktop-search -- QUERY, the query nowhere else" \
        hostile_launch "'$q'" "$q" "$n"
done
clean_child() {
    tail -1 "$LAUNCHES" | jq -e '.fds == [] and .sigblk == "0000000000000000"' >/dev/null ||
        { echo "the child got descriptors or blocked signals"; return 1; }
}
check "launch: the terminal gets no descriptor beyond 0-2 and no blocked signal" clean_child
no_zombies() {
    sleep 0.5
    local z; z=$(ps -o stat= --ppid "$DAEMON" | grep -c Z); echo "zombies: $z"; [ "$z" = 0 ]
}
check "launch: every child is reaped on the loop (no zombie under pokedexd)" no_zombies
# Every exit was logged as "cannot wait for process N: Success" (its status read as an errno).
exits_said_plainly() { ! grep -E "cannot wait for process" "$TMP/pokedexd.log"; }
check "launch: a child's exit puts no 'cannot wait for process' line in the journal" exits_said_plainly
burst() {
    sleep 1.05
    local before; before=$(launches)
    "$PY" "$ROOT/Tests/end-to-end/desktop-search/launch_clients.py" burst 200 || return 1
    sleep 1
    echo "terminals opened: $(($(launches) - before))"; [ "$(($(launches) - before))" -le 2 ]
}
check "launch: 200 LaunchSearch calls in a burst open at most 2 terminals (one a second)" burst
tokens() {
    sleep 1.05
    local before; before=$(launches)
    "$PY" "$ROOT/Tests/end-to-end/desktop-search/launch_clients.py" tokens || return 1
    wait_launch $((before + 2)) >/dev/null
    tail -2 "$LAUNCHES" | jq -s -e '.[0].token == null and .[1].token == "token-from-a-2"' >/dev/null ||
        { tail -2 "$LAUNCHES"; echo "a token went to the wrong launch"; return 1; }
}
check "launch: an activation token goes only with a launch by the caller who set it" tokens
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null
DAEMON_ENV=(PATH="$TMP/bin:$BUILD_DIR" LAUNCH_LOG="$LAUNCHES" POKEDEX_LANDLOCK=no TERMINAL="$TMP/bin/my-own-term")
start_daemon --notify=no || { summary desktop-search; exit 1; }
unknown_terminal() {
    local before; before=$(launches)
    gn LaunchSearch "['--help']" 0 >/dev/null && wait_launch $((before + 1)) &&
    tail -1 "$LAUNCHES" | jq -e '(.argv | length) == 4 and .argv[1] == "-e" and (.argv[2] | endswith("pokectl")) and .argv[3] == "browse"' >/dev/null &&
    grep -q "is not a terminal pokedexd knows" "$TMP/pokedexd.log"
}
check "launch: an unknown \$TERMINAL gets '-e pokectl browse' without the search, and a journal line" unknown_terminal
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null
DAEMON_ENV=(PATH="$TMP/bin:$BUILD_DIR" LAUNCH_LOG="$LAUNCHES" POKEDEX_LANDLOCK=no TERMINAL=gnome-terminal)
start_daemon --notify=no || { summary desktop-search; exit 1; }
known_terminal() {
    local before; before=$(launches)
    gn LaunchSearch "['--help']" 0 >/dev/null && wait_launch $((before + 1)) &&
    tail -1 "$LAUNCHES" | jq -e '.argv[1] == "--"' >/dev/null && no_option_text --help
}
check "launch: \$TERMINAL=gnome-terminal gets its own '--', the search after pokectl's '--'" known_terminal

# ---- Launches that fail (issue 27) ------------------------------------------------------------
# No user manager takes the unit (none on this bus): the terminal still opens, started
# directly, and the journal says why.
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null
DAEMON_ENV=(PATH="$TMP/bin:$BUILD_DIR" LAUNCH_LOG="$LAUNCHES" POKEDEX_LANDLOCK=no TERMINAL=gnome-terminal)
start_daemon --notify=no || { summary desktop-search; exit 1; }
failed_manager() {
    local before; before=$(launches)
    gn LaunchSearch "['pika']" 0 >/dev/null && wait_launch $((before + 1)) >/dev/null &&
    tail -1 "$LAUNCHES" | jq -e '.argv[0] | endswith("gnome-terminal")' >/dev/null &&
    grep "the user manager could not start" "$TMP/pokedexd.log" | tail -1 | grep "org.freedesktop.systemd1.*); starting it directly"
}
check "launch: no user manager takes the unit: the terminal still opens, started directly, and a journal line says why" failed_manager
# The same under Landlock, where nothing may be started directly, and no launcher of pokedexd's
# on this bus (no service directories): the result's card instead.
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null
DAEMON_ENV=(PATH="$TMP/bin:$BUILD_DIR" LAUNCH_LOG="$LAUNCHES" TERMINAL=gnome-terminal)
start_daemon || { summary desktop-search; exit 1; }
failed_manager_confined() {
    if ! pokectl status --json | jq -e '.landlock | index("files")' >/dev/null; then
        echo "skipped: Landlock does not confine files on this kernel"; return 0
    fi
    local before launched; before=$(wc -l <"$TMP/notifications.jsonl"); launched=$(launches)
    gn ActivateResult "'25'" "['pika']" 0 >/dev/null || return 1
    for _ in $(seq 50); do
        tail -n +"$((before + 1))" "$TMP/notifications.jsonl" | jq -c 'select(.member == "Notify")' | grep -q Pikachu && break
        sleep 0.1
    done
    # The card says why nothing opened, and offers no Open that would fail the same way.
    tail -n +"$((before + 1))" "$TMP/notifications.jsonl" | jq -c 'select(.member == "Notify")' | grep Pikachu | tail -1 |
        jq -e '(.actions | index("open") | not) and (.body | contains("No terminal could be opened"))' &&
    grep "the user manager could not start" "$TMP/pokedexd.log" | tail -1 | grep "Landlock sandbox" || { tail -5 "$TMP/pokedexd.log"; return 1; }
    [ "$(launches)" -eq "$launched" ] || { echo "something was started"; return 1; }
}
check "launch: no user manager under Landlock, no launcher: the result's card says why, nothing started, a journal line says what to do" failed_manager_confined
# pokedexd's launcher (issue 56): no user manager, pokedexd under Landlock, and the launcher
# installed where the bus finds it (io.github.pokedexd.Launcher1.service, as `make install`
# puts it): the bus starts `pokedexd --launcher` as its own child, outside the sandbox, and the
# card opens in a terminal through it. A bus of its own, with that service directory; the
# terminal gets the bus's environment, as in a session.
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null
mkdir -p "$TMP/services"
"$ROOT/systemd/render" "$ROOT/dbus/io.github.pokedexd.Launcher1.service" PROGRAM="$BUILD_DIR/pokedexd" \
    >"$TMP/services/io.github.pokedexd.Launcher1.service"
sed "s|<listen>|<servicedir>$TMP/services</servicedir>\n  <listen>|" "$ROOT/Tests/support/dbus/test-bus.conf" >"$TMP/launcher-bus.conf"
OUTER_BUS=$DBUS_SESSION_BUS_ADDRESS
out=$(env PATH="$TMP/bin:$PATH" LAUNCH_LOG="$LAUNCHES" TERMINAL=gnome-terminal \
      dbus-daemon --config-file="$TMP/launcher-bus.conf" --fork --print-address=1 --print-pid=1)
export DBUS_SESSION_BUS_ADDRESS=$(echo "$out" | sed -n 1p)
PIDS+=("$(echo "$out" | sed -n 2p)")
DAEMON_ENV=(PATH="$TMP/bin:$BUILD_DIR" TERMINAL=gnome-terminal)
start_daemon -v --notify=no || { summary desktop-search; exit 1; }
through_launcher() {
    if ! pokectl status --json | jq -e '.landlock | index("files")' >/dev/null; then
        echo "skipped: Landlock does not confine files on this kernel"; return 0
    fi
    local before; before=$(launches)
    gn ActivateResult "'25'" "['pika']" 0 >/dev/null || return 1
    wait_launch $((before + 1)) || { tail -5 "$TMP/pokedexd.log"; return 1; }
    tail -1 "$LAUNCHES" | jq -e '(.argv | index("--open")) as $o | $o and .argv[$o + 1] == "25" and .argv[-1] == "pika"
        and .seccomp == "0" and .fds == []' >/dev/null || { echo "not the card, or not outside the sandbox"; return 1; }
    for _ in $(seq 30); do grep -q "pokedexd's launcher (io.github.pokedexd.Launcher1) started it" "$TMP/pokedexd.log" && break; sleep 0.1; done
    grep "pokedexd's launcher (io.github.pokedexd.Launcher1) started it" "$TMP/pokedexd.log" | tail -1
}
check "launch: no user manager under Landlock: the bus starts pokedexd's launcher, which opens the card outside the sandbox" through_launcher
# Nothing can open a result: no terminal, no gtk-launch, notifications off. One warning says so.
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null
export DBUS_SESSION_BUS_ADDRESS=$OUTER_BUS
DAEMON_ENV=(PATH="$BUILD_DIR" POKEDEX_LANDLOCK=no)
start_daemon --notify=no || { summary desktop-search; exit 1; }
nothing_opens() {
    gn ActivateResult "'25'" "['pika']" 0 >/dev/null || return 1
    for _ in $(seq 30); do grep -q "nothing could open" "$TMP/pokedexd.log" && break; sleep 0.1; done
    grep "nothing could open" "$TMP/pokedexd.log" | tail -1 | grep -q "no terminal or gtk-launch was found, and notifications are off"
}
check "activation: with no terminal, gtk-launch or notifications, ActivateResult logs what is missing" nothing_opens
