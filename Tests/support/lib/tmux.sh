# Sourced by the shell suites that drive pokectl through tmux, after suite.sh (which gives $SOCK,
# $TMP, ok and fail, and kills the server on $SOCK at exit). Everything acts on the session
# "browse" of the tmux server on $SOCK: a shell in a 100×32 pane.
t() { tmux -S "$SOCK" "$@"; }
screen() { t capture-pane -p -t browse; }
keys() { t send-keys -t browse "$@"; }
flag() { t display -p -t browse "#{$1}"; }
# Waits until the pane shows a pattern (grep -E); fails the check after 10 s.
wait_for() {  # pattern, description
    for _ in $(seq 100); do screen | grep -qE -- "$1" && { ok "$2"; return 0; }; sleep 0.1; done
    fail "$2 (no /$1/ on screen)"; screen | sed 's/^/     |/'; return 1
}
# The session on $SOCK: a plain shell (with `-i`, say, as the argument: options for bash), no
# status line.
new_pane() {  # [bash options]
    t -f /dev/null new-session -d -s browse -x 100 -y 32 "env -u TMUX bash --norc --noprofile${1:+ $1}"
    t set-option -t browse status off >/dev/null
}
# The same on a server of its own, $TMP/tmux.NAME.sock: the last one may still be going away.
fresh_pane() {  # name, [bash options]
    t kill-server 2>/dev/null
    SOCK=$TMP/tmux.$1.sock
    new_pane "${2:-}"
}
