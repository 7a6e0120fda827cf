# Sourced by the shell tests: `check DESCRIPTION COMMAND...` runs the command, counts it in
# $passed or $failed, prints "ok" or "FAIL" with the first 20 lines it wrote (in $TMP/check.out),
# and sets $last to ok or fail. `summary NAME` prints the counts and fails if any check did.
passed=0 failed=0 last=
check() {
    local what=$1; shift
    if "$@" >"$TMP/check.out" 2>&1; then passed=$((passed + 1)); last=ok; echo "ok   $what"
    else failed=$((failed + 1)); last=fail; echo "FAIL $what"; sed 's/^/     /' "$TMP/check.out" | head -20; fi
}
summary() {
    echo "$1: $passed passed, $failed failed"
    [ "$failed" = 0 ]
}
