#!/usr/bin/env bash
# pokectl's cost in a script loop: `pokectl list --json` against
# `busctl --user call … ListPage uu 0 20` for the same warm page, interleaved, same daemon.
# Goal: pokectl at most 1.5× busctl's time.
source "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-200}
bench_bus
bench_standin
bench_daemon
POKECTL=${POKECTL:-$BENCH_ROOT/.build/release/pokectl}  # POKECTL=… measures another build
BUSCALL=(busctl --user call io.github.pokedexd.Pokedex1 /io/github/pokedexd/Pokedex1 io.github.pokedexd.Pokedex1 ListPage uu 0 20)
"$POKECTL" list --json >/dev/null   # warm the page
"${BUSCALL[@]}" >/dev/null
: >"$BENCH_TMP/p"; : >"$BENCH_TMP/b"
for _ in $(seq "$RUNS"); do
    t0=$(now_ns); "$POKECTL" list --json >/dev/null; t1=$(now_ns)
    "${BUSCALL[@]}" >/dev/null; t2=$(now_ns)
    echo $(( (t1 - t0) / 1000 )) >>"$BENCH_TMP/p"
    echo $(( (t2 - t1) / 1000 )) >>"$BENCH_TMP/b"
done
p=$(median <"$BENCH_TMP/p"); b=$(median <"$BENCH_TMP/b")
ratio=$(awk -v p="$p" -v b="$b" 'BEGIN {printf "%.2f", p / b}')
printf '%-44s %10s\n' "command ($RUNS runs each, interleaved, $STANDIN stand-in)" "median µs"
printf '%-44s %10s\n' "busctl --user call … ListPage uu 0 20" "$b"
printf '%-44s %10s\n' "pokectl list --json" "$p"
printf 'ratio pokectl / busctl: %s (goal ≤ 1.50) %s\n' "$ratio" "$(awk -v r="$ratio" 'BEGIN {print (r <= 1.5) ? "met" : "NOT met"}')"
