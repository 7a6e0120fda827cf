#!/bin/bash
# Every way pokectl browse can die gives the terminal back, checked through tmux as a person
# sees it: after SIGILL and SIGTRAP (what a Swift trap raises), SIGSEGV, SIGBUS, SIGABRT,
# SIGFPE, SIGTERM, SIGHUP, SIGQUIT and SIGINT, `stty -g` is what it was before, tmux is back on
# the main screen (#{alternate_on} 0), the cursor shows (#{cursor_flag} 1), mouse reporting is
# off, and the shell sees the signal (exit status 128+N). Then suspend and resume (issue 28):
# Ctrl-Z and SIGTSTP give the terminal back and stop; `fg` (SIGCONT) takes it again in raw mode
# and draws the whole screen; with `stty susp undef`, Ctrl-Z does nothing.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
SUITE=signals
source "$ROOT/Tests/support/lib/suite.sh"
as_colour_terminal

source "$ROOT/Tests/support/lib/private-service.sh"
start_private_bus
start_mock
start_daemon --sprite-url-template "$MOCK/sprites/{id}.png" --notify=no || { echo "signals: 0 passed, 1 failed"; exit 1; }

source "$ROOT/Tests/support/lib/tmux.sh"
# The pokectl the pane's shell runs (its child: other pokectl processes on the machine are not ours).
browse_pid() { pgrep -P "$(pgrep -P "$(flag pane_pid)" -x bash)" -x pokectl; }
# The terminal as it is now, read from outside (the shell's own settings while it waits at its
# prompt differ: readline's).
tty_now() { stty -a -F "$(flag pane_tty)"; }
# A fresh shell with job control, no core files; `pokectl browse` started with stty -g before
# and after it and its exit status in files.
open_browse() {  # name, [stty settings first]
    fresh_pane "$1" -i
    rm -f "$TMP/$1".*
    # In a script of its own (its job, with pokectl): an interactive shell ends a list whose
    # command died of SIGINT, and goes on with it when one stops.
    printf '%s\n' "stty -g > $TMP/$1.before; pokectl browse; echo \$? > $TMP/$1.exit; stty -g > $TMP/$1.after" > "$TMP/$1.sh"
    keys "ulimit -c 0; ${2:-true}; bash $TMP/$1.sh" Enter
    wait_for 'of 46' "$1: browse opens"
}
# As a person sees it after leaving: the main screen, a cursor, no mouse reporting.
terminal_back() {  # description
    [ "$(flag alternate_on)" = 0 ] && ok "$1: main screen (#{alternate_on} 0)" || fail "$1: still on the alternate screen"
    [ "$(flag cursor_flag)" = 1 ] && ok "$1: cursor visible" || fail "$1: cursor hidden"
    [ "$(flag mouse_any_flag)$(flag mouse_standard_flag)$(flag mouse_sgr_flag)" = 000 ] && ok "$1: mouse reporting off" \
        || fail "$1: mouse reporting still on"
}
closed() {  # name, expected exit status, description
    for _ in $(seq 100); do [ -s "$TMP/$1.after" ] && break; sleep 0.1; done
    if [ -s "$TMP/$1.after" ] && cmp -s "$TMP/$1.before" "$TMP/$1.after"; then ok "$3: stty -g unchanged"
    else fail "$3: stty -g changed or browse did not end ($(cat "$TMP/$1.before" 2>/dev/null) vs $(cat "$TMP/$1.after" 2>/dev/null))"; fi
    [ "$(cat "$TMP/$1.exit" 2>/dev/null)" = "$2" ] && ok "$3: exit status $2" || fail "$3: exit status $(cat "$TMP/$1.exit" 2>/dev/null), not $2"
    terminal_back "$3"
}

# Every signal that ends it.
for sig in ILL TRAP SEGV BUS ABRT FPE TERM HUP QUIT INT; do
    open_browse "sig$sig" || continue
    keys j j /   # mid-search: the search line open, the grid scrolled
    sleep 0.3
    kill -"$sig" "$(browse_pid)"
    closed "sig$sig" $((128 + $(kill -l "$sig"))) "SIG$sig"
done

# Suspend and resume (issue 28): Ctrl-Z, then fg; SIGTSTP, then fg; at each step the terminal
# as the shell expects it, then browse raw and whole again.
raw_again() {  # description
    [ "$(flag alternate_on)" = 1 ] && ok "$1: back on the alternate screen" || fail "$1: not on the alternate screen"
    tty_now | grep -q -- '-icanon' && tty_now | grep -q -- '-echo ' && ok "$1: raw mode again (-icanon -echo)" \
        || fail "$1: not in raw mode ($(tty_now | tr '\n' ' '))"
    [ "$(flag cursor_flag)" = 0 ] && ok "$1: cursor hidden again" || fail "$1: cursor visible"
}
stopped() {  # name, step, description
    for _ in $(seq 50); do [ "$(ps -o stat= -p "$pid" 2>/dev/null | cut -c1)" = T ] && break; sleep 0.1; done
    [ "$(ps -o stat= -p "$pid" | cut -c1)" = T ] && ok "$3: stopped" || fail "$3: not stopped ($(ps -o stat= -p "$pid"))"
    wait_for 'Stopped' "$3: the shell says it stopped"
    terminal_back "$3"
    keys "stty -g > $TMP/$1.$2" Enter
    for _ in $(seq 50); do [ -s "$TMP/$1.$2" ] && break; sleep 0.1; done
    cmp -s "$TMP/$1.before" "$TMP/$1.$2" && ok "$3: stty -g as before" || fail "$3: stty -g $(cat "$TMP/$1.$2") vs $(cat "$TMP/$1.before")"
}
open_browse suspend
pid=$(browse_pid)
keys j j
sleep 0.3
keys C-z
stopped suspend ctrlz "Ctrl-Z"
keys clear Enter
keys fg Enter
wait_for '[0-9]+–[0-9]+ of 46' "fg after Ctrl-Z: the whole screen drawn again"
screen | grep -q 'Stopped' && fail "fg after Ctrl-Z: the shell's lines still on screen" || ok "fg after Ctrl-Z: nothing of the shell left on screen"
raw_again "fg after Ctrl-Z"
keys l
wait_for '[0-9]+–[0-9]+ of 46' "fg after Ctrl-Z: keys work"
kill -TSTP "$pid"
stopped suspend tstp "SIGTSTP"
keys clear Enter
keys fg Enter
wait_for '[0-9]+–[0-9]+ of 46' "fg after SIGTSTP: the whole screen drawn again"
raw_again "fg after SIGTSTP"
keys q
closed suspend 0 "q after two suspends"

# SIGSTOP gives nothing back (it cannot be caught); SIGCONT still redraws the whole screen.
open_browse stopcont
pid=$(browse_pid)
kill -STOP "$pid"
sleep 0.2
t send-keys -t browse -R   # the terminal reset under it: main screen, cursor shown, mouse off
sleep 0.2
kill -CONT "$pid"
wait_for '[0-9]+–[0-9]+ of 46' "SIGCONT: the whole screen drawn again"
raw_again "SIGCONT"
keys q
closed stopcont 0 "q after SIGSTOP, SIGCONT"

# With no suspend character, Ctrl-Z is a key like another: nothing stops.
open_browse nosusp "stty susp undef"
pid=$(browse_pid)
keys C-z
sleep 0.5
[ "$(ps -o stat= -p "$pid" | cut -c1)" != T ] && [ "$(flag alternate_on)" = 1 ] && ok "stty susp undef: Ctrl-Z does not suspend" \
    || fail "stty susp undef: Ctrl-Z suspended"
keys q
closed nosusp 0 "q with susp undef"

echo "signals: $passed passed, $failed failed"
[ "$failed" = 0 ]
