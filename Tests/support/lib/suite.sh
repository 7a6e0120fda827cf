# Sourced first by the shell suites that drive the real service through a terminal or the bus,
# once ROOT is set and SUITE names the suite: the binaries of BUILD_DIR (default .build/debug)
# first on PATH; a throwaway HOME with its XDG directories in $TMP; PIDS, which cleanup stops
# at exit, with the tmux server on $SOCK (and whatever a suite's own `on_cleanup` does); and
# check.sh's ok, fail, check and summary. `as_colour_terminal` makes the environment that of a
# 24-bit colour terminal outside tmux.
BUILD_DIR=${BUILD_DIR:-$ROOT/.build/debug}
TMP=$(mktemp -d -p /run "pokedex-$SUITE.XXXXXX" 2>/dev/null || mktemp -d)
export HOME=$TMP/home XDG_CACHE_HOME=$TMP/home/.cache XDG_DATA_HOME=$TMP/home/.local/share
export PATH=$BUILD_DIR:$PATH LC_ALL=C.UTF-8
# The daemons a suite starts retry and probe at a hundredth of the real schedule: none waits out
# a real backoff (the session, user and package suites' daemons, started by systemd, keep theirs).
export POKEDEX_TEST_SCHEDULE_SCALE=${POKEDEX_TEST_SCHEDULE_SCALE:-0.01}
mkdir -p "$HOME"
SOCK=$TMP/tmux.sock
PIDS=()
cleanup() {
    declare -F on_cleanup >/dev/null && on_cleanup
    tmux -S "$SOCK" kill-server 2>/dev/null
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$TMP" 2>/dev/null || { sleep 1; rm -rf "$TMP"; }
}
trap cleanup EXIT
source "$ROOT/Tests/support/lib/check.sh"
as_colour_terminal() {
    export TERM=xterm-256color COLORTERM=truecolor
    unset NO_COLOR TMUX
}
