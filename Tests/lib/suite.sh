# Sourced first by the shell suites that drive the real service through a terminal or the bus,
# once ROOT is set and SUITE names the suite: the binaries of BUILD_DIR (default .build/debug)
# first on PATH; a throwaway HOME with its XDG directories in $TMP; PIDS, which cleanup stops
# at exit, with the tmux server on $SOCK; and ok/fail, which count into $passed and $failed.
# `as_colour_terminal` makes the environment that of a 24-bit colour terminal outside tmux.
BUILD_DIR=${BUILD_DIR:-$ROOT/.build/debug}
TMP=$(mktemp -d -p /run "pokedex-$SUITE.XXXXXX" 2>/dev/null || mktemp -d)
export HOME=$TMP/home XDG_CACHE_HOME=$TMP/home/.cache XDG_DATA_HOME=$TMP/home/.local/share
export PATH=$BUILD_DIR:$PATH LC_ALL=C.UTF-8
mkdir -p "$HOME"
SOCK=$TMP/tmux.sock
PIDS=()
cleanup() {
    tmux -S "$SOCK" kill-server 2>/dev/null
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$TMP" 2>/dev/null || { sleep 1; rm -rf "$TMP"; }
}
trap cleanup EXIT
passed=0 failed=0
ok()   { passed=$((passed + 1)); echo "ok   $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
as_colour_terminal() {
    export TERM=xterm-256color COLORTERM=truecolor
    unset NO_COLOR TMUX
}
