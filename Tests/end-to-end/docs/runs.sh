# Sourced by docs-test.sh: running what the docs show, one function per kind of record.
# Each prints "ok …" or "FAIL …" through ok/fail (check.sh), or lines that count_lines counts.

count_lines() {  # ok/FAIL lines on stdin, counted and shown
    local line
    while IFS= read -r line; do
        case $line in "ok "*) ok "${line#ok   }" ;; "FAIL "*) fail "${line#FAIL }" ;; *) echo "$line" ;; esac
    done
}

# The part of a pipeline this machine can run: up to the first program that is not installed
# (nothing, when that is the first).
runnable_part() {
    local cmd=$1 out="" seg prog
    IFS='|' read -ra segs <<<"$cmd"
    for seg in "${segs[@]}"; do
        prog=$(sed -E 's/^ *([A-Z_]+=[^ ]+ +)*//; s/ .*//' <<<"$seg")
        command -v "$prog" >/dev/null 2>&1 || [ -x "$ROOT/$prog" ] || break
        out+=${out:+|}$seg
    done
    printf '%s' "$out"
}

# `--json` output: one object a line, keys sorted at every depth (pokectl(1), the README).
json_sorted() {
    python3 -c '
import json, sys
def sorted_keys(o):
    if isinstance(o, dict):
        return list(o) == sorted(o) and all(map(sorted_keys, o.values()))
    return all(map(sorted_keys, o)) if isinstance(o, list) else True
lines = [l for l in sys.stdin.read().splitlines() if l.strip()]
objs = [json.loads(l) for l in lines]
sys.exit(0 if objs and all(isinstance(o, dict) and sorted_keys(o) for o in objs) else 1)' <"$1" 2>/dev/null
}

run_one() {  # src, command, expected exit ("0") or "long"
    local src=$1 cmd=$2 mode=$3 runnable code limit=30 note=""
    runnable=$(runnable_part "$cmd")
    [ -n "$runnable" ] || { echo "skip $src: $cmd (its program is not installed here)"; return; }
    [ "$runnable" != "$cmd" ] && note=" (ran '$runnable': the rest is not installed)"
    [ "$mode" = long ] && limit=1
    (cd "$ROOT" && timeout "$limit" bash -c "$runnable") </dev/null >"$TMP/run.out" 2>"$TMP/run.err"; code=$?
    if grep -qE "$PARSE_ERROR" "$TMP/run.err"; then
        fail "$src: $cmd: $(grep -m1 -E "$PARSE_ERROR" "$TMP/run.err")"
    elif [ "$mode" = long ] && [ "$code" = 124 ]; then
        ok "$src: $cmd (runs until stopped, as documented)$note"
    elif [ "$code" = "${mode/long/0}" ]; then
        ok "$src: $cmd$note"
    else
        fail "$src: $cmd exits $code, not ${mode/long/0}$note: $(head -c 300 "$TMP/run.err" | tr '\n' ' ')"
    fi
    if [[ $cmd == pokectl*--json* && $cmd != *"|"* && $code = 0 ]]; then
        json_sorted "$TMP/run.out" && ok "$src: $cmd prints JSON objects with sorted keys" ||
            fail "$src: $cmd does not print JSON objects with sorted keys: $(head -c 200 "$TMP/run.out")"
    fi
}

# browse needs a terminal: in tmux, drawn, then q; it must quit with 0 and no parse error.
browse_run() {  # src, command
    local src=$1 cmd=$2 sock=$TMP/tmux-browse.sock
    rm -f "$TMP/browse.exit" "$TMP/browse.err"
    tmux -S "$sock" -f /dev/null new-session -d -s b -x 100 -y 32 \
        "env -u TMUX TERM=xterm-256color bash --norc --noprofile -c 'cd $ROOT; $cmd 2>$TMP/browse.err; echo \$? >$TMP/browse.exit; sleep 5'"
    sleep 1.5
    tmux -S "$sock" send-keys -t b q 2>/dev/null
    for _ in $(seq 30); do [ -s "$TMP/browse.exit" ] && break; sleep 0.1; done
    tmux -S "$sock" kill-server 2>/dev/null
    if grep -qE "$PARSE_ERROR" "$TMP/browse.err" 2>/dev/null; then fail "$src: $cmd: $(grep -m1 -E "$PARSE_ERROR" "$TMP/browse.err")"
    elif [ "$(cat "$TMP/browse.exit" 2>/dev/null)" = 0 ]; then ok "$src: $cmd (in a terminal, then q)"
    else fail "$src: $cmd in a terminal exits '$(cat "$TMP/browse.exit" 2>/dev/null)', not 0: $(head -c 200 "$TMP/browse.err" 2>/dev/null)"; fi
}

run_documented() {
    local src cmd mode
    declare -A seen
    while IFS=$'\t' read -r _ src cmd mode; do
        cmd=${cmd//@TMP@/$TMP}
        [ -n "${seen[$cmd]:-}" ] && continue
        seen[$cmd]=1
        if [[ $cmd == "pokectl browse"* && $cmd != *--help* ]]; then browse_run "$src" "$cmd"; else run_one "$src" "$cmd" "$mode"; fi
    done < <(records run)
    records skip | sort -t$'\t' -k3,3 -u | while IFS=$'\t' read -r _ src cmd why; do echo "skip $src: $cmd ($why)"; done
}

# pokectl's commands, "cache stats" style for the nested ones.
subcommands() {
    local sub
    for sub in $(pokectl --help | sed -n '/^SUBCOMMANDS:/,/^$/p' | awk '/^  [a-z]/ {print $1}'); do
        if pokectl "$sub" --help | grep -q '^SUBCOMMANDS:'; then
            pokectl "$sub" --help | sed -n '/^SUBCOMMANDS:/,/^$/p' | awk -v s="$sub" '/^  [a-z]/ {print s " " $1}'
        else echo "$sub"; fi
    done
}

# A command's required arguments, from its own usage line: a Pokémon for each.
required_args() {
    pokectl $1 --help | grep '^USAGE:' | sed 's/\[[^]]*\]//g' | grep -o '<[a-z-]*>' | sed 's/.*/pikachu/' | tr '\n' ' '
}

every_command_options() {
    local src opt sub args value code
    subcommands >"$TMP/subcommands"
    while IFS=$'\t' read -r _ src opt; do
        value=""; [ "$opt" = --color ] && value=never
        while read -r sub; do
            args=$(required_args "$sub")
            timeout 1 pokectl $sub $args $opt $value </dev/null >"$TMP/every.out" 2>"$TMP/every.err"; code=$?
            if grep -qE "$PARSE_ERROR" "$TMP/every.err"; then
                fail "$src: pokectl $sub takes $opt: $(grep -m1 -E "$PARSE_ERROR" "$TMP/every.err")"
            elif [[ $opt == --help || $opt == -h || $opt == --version ]] && [ "$code" != 0 ]; then
                fail "$src: pokectl $sub $opt exits $code"
            elif [ "$opt" = --json ] && [ "$code" = 0 ] && ! json_sorted "$TMP/every.out"; then
                fail "$src: pokectl $sub --json does not print JSON objects with sorted keys: $(head -c 120 "$TMP/every.out" | tr '\n' ' ')"
            else ok "$src: pokectl $sub takes $opt"; fi
        done <"$TMP/subcommands"
    done < <(records every)
}

prose_options() {
    local known src spec opt
    known=$( { while read -r sub; do pokectl $sub --help; done <"$TMP/subcommands"; pokedexd --help; } | grep -oE -- '--[a-z][a-z-]*' | sort -u)
    while IFS=$'\t' read -r _ src spec; do
        opt=$(grep -oE -- '^--?[a-z][a-z-]*' <<<"$spec")
        if grep -qx -- "$opt" <<<"$known"; then ok "$src: $opt is an option"
        elif ! DBUS_SESSION_BUS_ADDRESS=unix:path=$TMP/no-bus timeout 5 pokedexd "$opt" x 2>&1 | grep -qE "$PARSE_ERROR"; then
            ok "$src: $opt is an option (a hidden one of pokedexd)"
        else fail "$src: $opt is no option of pokectl or pokedexd"; fi
    done < <(records option | sort -t$'\t' -k3,3 -u)
}

source "$HERE/probes.sh"

# Each --json shape the docs and the commands' --help show, against what the command prints.
json_shapes() {
    local sub cmd args
    while read -r sub; do pokectl $sub --help | python3 "$HERE/extract.py" --help-json "$sub"; done <"$TMP/subcommands" >>"$TMP/records"
    records json | cut -f3 | sort -u | while read -r cmd; do
        # Its positional arguments (an option's value is no argument): a Pokémon, a query.
        args=$(pokectl ${cmd%% --*} --help | grep '^USAGE:' | sed -E 's/--[a-z-]+ <[a-z-]+>//g' | grep -oE '<(pokemon|query)>' |
            sed 's/<pokemon>/pikachu/; s/<query>/char/' | tr '\n' ' ')
        [[ $cmd == *--random* ]] && args=""
        printf '%s\t' "$cmd"
        # A failure to show in verify's "failures" (an empty list shows none of its keys).
        if [ "$cmd" = "cache verify" ]; then verify_fails pokectl $cmd --json 2>/dev/null | head -1
        else pokectl $cmd $args --json 2>/dev/null | head -1; fi
        echo
    done | python3 -c '
import json, sys
out = {}
for line in sys.stdin:
    cmd, _, text = line.rstrip("\n").partition("\t")
    if text.strip():
        out[cmd] = json.loads(text)
print(json.dumps(out))' >"$TMP/outputs.json"
    records json | PYTHONPATH=$HERE python3 "$HERE/compare.py" json "$TMP/outputs.json" | count_lines
}
