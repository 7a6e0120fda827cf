#!/usr/bin/env bash
# pokectl's cost in a script loop, each against the busctl call that asks the daemon the same,
# interleaved, same daemon, warm:
#   1. `pokectl list --json` against `busctl --user call … ListPage uu 0 20`. Goal ≤ 1.2×.
#   2. `pokectl show --random --hide-name` (a fetch tool's logo at every shell start) against
#      `busctl --user call … org.freedesktop.DBus.Peer Ping`. Goal ≤ 1.5×.
# (Goals of issue 38.) POKECTL=… measures another build; RUNS sets the rounds (default 200).
source "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-200}
bench_bus
bench_standin
bench_daemon
POKECTL=${POKECTL:-$RELEASE_POKECTL}
BUS=(busctl --user call io.github.pokedexd.Pokedex1 /io/github/pokedexd/Pokedex1)
LIST=("${BUS[@]}" io.github.pokedexd.Pokedex1 ListPage uu 0 20)
PING=("${BUS[@]}" org.freedesktop.DBus.Peer Ping)
"$POKECTL" list --json >/dev/null   # warm the page
# Warm the logos: every draw fetches the shown one's shiny sprite in the background.
for _ in $(seq 60); do "$POKECTL" show --random --hide-name >/dev/null; done
sleep 1

# pair LABEL GOAL "pokectl args" busctl-command…: interleaved runs, medians, the ratio.
pair() {
    local label=$1 goal=$2 args=$3; shift 3
    : >"$BENCH_TMP/p"; : >"$BENCH_TMP/b"
    "$@" >/dev/null
    for _ in $(seq "$RUNS"); do
        t0=$(now_ns); "$POKECTL" $args >/dev/null; t1=$(now_ns)
        "$@" >/dev/null; t2=$(now_ns)
        echo $(( (t1 - t0) / 1000 )) >>"$BENCH_TMP/p"
        echo $(( (t2 - t1) / 1000 )) >>"$BENCH_TMP/b"
    done
    local p b ratio
    p=$(median <"$BENCH_TMP/p"); b=$(median <"$BENCH_TMP/b")
    ratio=$(awk -v p="$p" -v b="$b" 'BEGIN {printf "%.2f", p / b}')
    printf '%-44s %10s\n' "busctl … $label" "$b"
    printf '%-44s %10s\n' "pokectl $args" "$p"
    printf 'ratio: %s (goal ≤ %s) %s\n\n' "$ratio" "$goal" "$(awk -v r="$ratio" -v g="$goal" 'BEGIN {print (r <= g) ? "met" : "NOT met"}')"
}
printf '%-44s %10s\n\n' "command ($RUNS runs each, interleaved, $STANDIN stand-in)" "median µs"
pair "ListPage uu 0 20" 1.2 "list --json" "${LIST[@]}"
pair "org.freedesktop.DBus.Peer Ping" 1.5 "show --random --hide-name" "${PING[@]}"
