# Sourced by the shell tests: `check DESCRIPTION COMMAND...` runs the command, counts it in
# $passed or $failed, prints "ok" or "FAIL" with the first 20 lines it wrote (in $TMP/check.out),
# and sets $last to ok or fail. `summary NAME` prints the counts and fails if any check did.
# `ok` and `fail` count a result a suite judged itself.
passed=0 failed=0 last=
ok()   { passed=$((passed + 1)); echo "ok   $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
check() {
    local what=$1; shift
    if "$@" >"$TMP/check.out" 2>&1; then ok "$what"; last=ok
    else fail "$what"; last=fail; sed 's/^/     /' "$TMP/check.out" | head -20; fi
}
summary() {
    echo "$1: $passed passed, $failed failed"
    [ "$failed" = 0 ]
}

# jq 1.6 exits 0 under -e when its input holds no value at all, so a command that printed
# nothing would pass every `COMMAND | jq -e FILTER` check. Here, with -e, jq must also have
# printed something (a filter that holds prints `true`); otherwise it fails with status 4.
jq() {
    local a checking=0 out code
    for a in "$@"; do case $a in -e|--exit-status) checking=1 ;; esac; done
    [ "$checking" = 1 ] || { command jq "$@"; return; }
    out=$(command jq "$@"); code=$?
    if [ -z "$out" ]; then echo "jq: no value in the input" >&2; return 4; fi
    printf '%s\n' "$out"
    return "$code"
}
export -f jq  # for the checks that run in `bash -c`
