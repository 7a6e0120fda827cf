# Sourced by docs-test.sh: how to bring about each documented exit status, error and
# variable's effect, and the checks that need a service of their own. A status or an error the
# docs name with no probe here fails, so a new one is not passed over in silence.
BUS=(busctl --user call io.github.pokedexd.Pokedex1 /io/github/pokedexd/Pokedex1 io.github.pokedexd.Pokedex1)
FAVORITES=$XDG_DATA_HOME/pokedex/favorites.json

# The favorites file made a directory, which the service refuses to replace: saving fails.
storage_broken() { mv "$FAVORITES" "$TMP/favorites.bak" && mkdir "$FAVORITES"; }
storage_fixed() { rmdir "$FAVORITES" && mv "$TMP/favorites.bak" "$FAVORITES"; }
# The network gone with nothing cached; back, and the service online again, after.
offline() {
    "${BUS[@]}" ClearCache >/dev/null
    curl -sf -X POST "$MOCK/__control" -d '{"offline": true}' >/dev/null
}
online() {
    curl -sf -X POST "$MOCK/__control" -d '{"offline": false}' >/dev/null
    for _ in $(seq 100); do pokectl list >/dev/null 2>&1 && return; sleep 0.2; done
}

# One cached record damaged while the network is gone: verify reports a failure.
verify_fails() {
    pokectl show bulbasaur >/dev/null 2>&1  # a record to damage: the cache may have been cleared
    # A byte of its newest entry's payload flipped, in place (the pack format: PackEntry.swift).
    python3 - "$XDG_CACHE_HOME/pokedex/v2/records" pokemon/1 <<'PY'
import os, struct, sys
d, key = sys.argv[1], sys.argv[2].encode()
found = None
for name in sorted(n for n in os.listdir(d) if n.endswith(".pack")):
    data, at = open(os.path.join(d, name), "rb").read(), 0
    while at + 40 <= len(data) and data[at:at + 4] == b"PXR1":
        klen, elen, plen = struct.unpack_from("<HHI", data, at + 6)[0], struct.unpack_from("<H", data, at + 8)[0], struct.unpack_from("<I", data, at + 12)[0]
        if data[at + 40:at + 40 + klen] == key:
            found = None if data[at + 4] & 1 else (os.path.join(d, name), at + 40 + klen + elen, plen)
        at += 40 + klen + elen + plen
path, start, plen = found
with open(path, "r+b") as f:
    f.seek(start + plen // 2); b = f.read(1); f.seek(start + plen // 2); f.write(bytes([b[0] ^ 0x5A]))
PY
    curl -sf -X POST "$MOCK/__control" -d '{"offline": true}' >/dev/null
    "$@"; local c=$?
    online
    return $c
}

pokectl_provoke() {  # code: runs what gives it, prints its exit status
    case $1 in
        0) pokectl list ;;
        1) pokectl show missingno ;;
        2) pokectl list --per-page 0 ;;
        3) offline; pokectl show oddish; local c=$?; online; return $c ;;
        4) storage_broken; pokectl fav pikachu; local c=$?; storage_fixed; return $c ;;
        *) return 255 ;;
    esac >/dev/null 2>&1
}

# A bus of its own, with no pokedexd on it: prints its address.
free_bus() {
    local out
    out=$(dbus-daemon --config-file="$ROOT/Tests/support/dbus/test-bus.conf" --fork --print-address=1 --print-pid=1)
    echo "$(sed -n 2p <<<"$out")" >>"$TMP/bus-pids"
    sed -n 1p <<<"$out"
}
on_cleanup() { [ -f "$TMP/bus-pids" ] && kill $(cat "$TMP/bus-pids") 2>/dev/null; }

# A pokedexd of its own on a bus of its own: extra options in "$@"; sets D_PID, D_BUS, D_LOG.
second_daemon() {
    local out
    out=$(dbus-daemon --config-file="$ROOT/Tests/support/dbus/test-bus.conf" --fork --print-address=1 --print-pid=1)
    D_BUS=$(sed -n 1p <<<"$out"); sed -n 2p <<<"$out" >>"$TMP/bus-pids"
    D_LOG=$TMP/second.$RANDOM.log
    DBUS_SESSION_BUS_ADDRESS=$D_BUS env "${D_ENV[@]}" pokedexd --api-url "$MOCK/api/v2" --notify=no "$@" </dev/null 2>"$D_LOG" &
    D_PID=$!; echo $D_PID >>"$TMP/bus-pids"
    for _ in $(seq 100); do DBUS_SESSION_BUS_ADDRESS=$D_BUS pokectl status >/dev/null 2>&1 && return; sleep 0.1; done
}
D_ENV=()
exit_of() { wait "$1" 2>/dev/null; echo $?; }

pokedexd_condition() {  # a condition as the page words it: prints the exit status it gives, or "none"
    local dead="unix:path=$TMP/no-bus"
    case $1 in
        SIGTERM|SIGINT) second_daemon --idle-timeout 0; kill -"${1#SIG}" $D_PID; exit_of $D_PID ;;
        *idle*) second_daemon --idle-timeout 1; exit_of $D_PID ;;
        *"no session bus"*) DBUS_SESSION_BUS_ADDRESS=$dead pokedexd >/dev/null 2>&1; echo $? ;;
        *"name is taken"*) pokedexd --api-url "$MOCK/api/v2" --cache-dir "$TMP/taken" >/dev/null 2>&1; echo $? ;;
        *"cache directory"*) touch "$TMP/a-file"; DBUS_SESSION_BUS_ADDRESS=$(free_bus) pokedexd --cache-dir "$TMP/a-file/c" >/dev/null 2>&1; echo $? ;;
        *usage*) pokedexd --no-such-option >/dev/null 2>&1; echo $? ;;
        *) echo none ;;
    esac
}

exit_statuses() {
    local src prog code what cond got
    # The codes are the same wherever they are listed: the README, pokectl(1) and --help.
    pokectl --help | sed -n '/^EXIT STATUS/,/^$/p' | grep -oE '^  [0-9]+' | tr -d ' ' | sort >"$TMP/codes.help"
    for doc in README.md man/pokectl.1; do
        records exit | awk -F'\t' -v d="$doc" '$3 == "pokectl" && index($2, d ":") == 1 {print $4}' | sort >"$TMP/codes.doc"
        cmp -s "$TMP/codes.doc" "$TMP/codes.help" && ok "$doc: pokectl's exit statuses are those of pokectl --help" ||
            fail "$doc: pokectl's exit statuses $(tr '\n' ' ' <"$TMP/codes.doc")differ from pokectl --help's $(tr '\n' ' ' <"$TMP/codes.help")"
    done
    while IFS=$'\t' read -r _ src prog code what; do
        if [ "$prog" = pokectl ]; then
            pokectl_provoke "$code"; got=$?
            [ "$got" = "$code" ] && ok "$src: pokectl exits $code: $what" || fail "$src: pokectl exits $got, not $code, for: $what"
            continue
        fi
        # "when it cannot start (no session bus, the name is taken, …)": each condition on its own.
        sed -E 's/^[a-z ]*\((.*)\)$/\1/; s/^(after|on|when) //; s/(, | or )/\n/g' <<<"$what" | while read -r cond; do
            got=$(pokedexd_condition "$cond")
            if [ "$got" = none ]; then fail "$src: no probe for pokedexd's exit status $code '$cond'"
            elif [ "$got" = "$code" ]; then ok "$src: pokedexd exits $code: $cond"
            else fail "$src: pokedexd exits $got, not $code: $cond"; fi
        done
    done < <(records exit | sort -t$'\t' -k3,4 -u)
}

dbus_errors() {
    local src name got
    while IFS=$'\t' read -r _ src name; do
        # busctl prints only the message; gdbus prints the error's name too.
        case ${name##*.} in
            NotFound) got=$(gdbus call --session -d io.github.pokedexd.Pokedex1 -o /io/github/pokedexd/Pokedex1 -m io.github.pokedexd.Pokedex1.Detail pikachuu 2>&1) ;;
            InvalidArgument) got=$(gdbus call --session -d io.github.pokedexd.Pokedex1 -o /io/github/pokedexd/Pokedex1 -m io.github.pokedexd.Pokedex1.ListPage 0 0 2>&1) ;;
            Unavailable) offline; got=$(gdbus call --session -d io.github.pokedexd.Pokedex1 -o /io/github/pokedexd/Pokedex1 -m io.github.pokedexd.Pokedex1.Detail oddish 2>&1); online ;;
            Storage) storage_broken; got=$(gdbus call --session -d io.github.pokedexd.Pokedex1 -o /io/github/pokedexd/Pokedex1 -m io.github.pokedexd.Pokedex1.SetFavorite pikachu true 2>&1); storage_fixed ;;
            *) fail "$src: no probe for $name"; continue ;;
        esac
        grep -qF "$name" <<<"$got" && ok "$src: $name is what the service answers" || fail "$src: $name: the service answered $(head -c 200 <<<"$got")"
    done < <(records error | sort -t$'\t' -k3,3 -u)
}

# Each a{sv} reply's keys (nested dictionaries' keys too, and CacheStats' kind names).
live_replies() {
    python3 - "${BUS[@]}" <<'EOF'
import json, subprocess, sys
bus = [a if a != "call" else "call" for a in sys.argv[1:]]
bus.insert(1, "-j")
def call(*a):
    d = json.loads(subprocess.check_output(bus + list(a)))["data"][0]
    return d[0] if isinstance(d, list) else d
def keys(d):
    out = set(d)
    for v in d.values():
        for item in (v.get("data") if isinstance(v, dict) and isinstance(v.get("data"), list) else []):
            if isinstance(item, dict):
                out |= set(item)
                if "kind" in item:
                    out.add(item["kind"]["data"])
    return sorted(out)
replies = {m: keys(call(*a)) for m, a in {
    "Detail": ("Detail", "s", "pikachu"), "LocalizedDetail": ("LocalizedDetail", "ss", "pikachu", "de"),
    "SearchDetailed": ("SearchDetailed", "su", "charzard", "1"), "Status": ("Status",),
    "CacheStats": ("CacheStats",), "VerifyCache": ("VerifyCache",)}.items()}
# What "As Search" brings: an entry (ussb), as the README spells its fields.
print(json.dumps({"replies": replies, "also": {"Search": ["favorite", "id", "name", "sprite_path"]}}))
EOF
}

# A variable the docs name is read: a value no option takes is refused (64), or, for those that
# take any text, its effect shows on a service of its own.
daemon_variables() {
    local var dead="unix:path=$TMP/no-bus"
    for var in $(records daemon | cut -f4 | grep . | sort -u); do
        # In a folder of its own: a relative %bad% directory is made where it runs.
        mkdir -p "$TMP/var-$var"
        if (cd "$TMP/var-$var" && env "$var=%bad%" DBUS_SESSION_BUS_ADDRESS=$dead pokedexd >/dev/null 2>&1); [ $? = 64 ]; then
            ok "$var is read (a bad value is a usage error)"; continue
        fi
        case $var in
            POKEDEX_CACHE_DIR|POKEDEX_DATA_DIR)
                D_ENV=("$var=$TMP/env-dir"); second_daemon --idle-timeout 0; D_ENV=()
                DBUS_SESSION_BUS_ADDRESS=$D_BUS pokectl status --json | grep -q "\"$TMP/env-dir\"" &&
                    ok "$var is read (Status shows it)" || fail "$var: Status does not show it"; kill $D_PID ;;
            POKEDEX_SPRITE_HOSTS)
                D_ENV=("$var=127.0.0.1"); second_daemon --idle-timeout 0 --sprite-url-template "$MOCK/sprites/{id}.png"; D_ENV=()
                DBUS_SESSION_BUS_ADDRESS=$D_BUS pokectl sprite pikachu >/dev/null 2>&1 &&
                    ok "$var is read (a sprite from the host it allows)" || fail "$var: the host it names is refused"; kill $D_PID ;;
            POKEDEX_PREFETCH)
                local before after
                before=$(curl -s "$MOCK/__stats" | jq .requests)
                D_ENV=("$var=0"); second_daemon --idle-timeout 0 --cache-dir "$TMP/prefetch-cache"; D_ENV=(); sleep 1.5
                after=$(curl -s "$MOCK/__stats" | jq .requests)
                [ "$after" = "$before" ] && ok "$var=0: no request before a call" || fail "$var=0: $((after - before)) request(s) before any call"
                kill $D_PID ;;
            POKEDEX_VERBOSE)
                # "Log every request": each request to the API is in the log.
                local before after logged
                before=$(curl -s "$MOCK/__stats" | jq .requests)
                D_ENV=("$var=1"); second_daemon --idle-timeout 0 --cache-dir "$TMP/verbose-cache" --sprite-host 127.0.0.1; D_ENV=()
                DBUS_SESSION_BUS_ADDRESS=$D_BUS pokectl show oddish >/dev/null 2>&1; sleep 0.5
                after=$(curl -s "$MOCK/__stats" | jq .requests); kill $D_PID; wait $D_PID 2>/dev/null
                logged=$(grep -c "${MOCK#http://}\|GET " "$D_LOG")
                [ "$logged" -ge $((after - before)) ] && ok "$var=1 logs every request ($logged lines, $((after - before)) requests)" ||
                    fail "$var=1 (--verbose) logs $logged of $((after - before)) requests: 'Log every request' does not hold" ;;
            *) fail "$var: no probe shows that pokedexd reads it" ;;
        esac
    done
}

files_and_paths() {
    local src p
    while IFS=$'\t' read -r _ src p; do
        compgen -G "$ROOT/${p//\{id\}/*}" >/dev/null && ok "$src: $p exists" || fail "$src: $p does not exist"
    done < <(records path | sort -t$'\t' -k3,3 -u)
    while IFS=$'\t' read -r _ src p; do
        local real=${p//\$XDG_CACHE_HOME/$XDG_CACHE_HOME}
        real=${real//\$XDG_DATA_HOME/$XDG_DATA_HOME}
        compgen -G "${real//\{id\}/*}" >/dev/null && ok "$src: the service writes $p" || fail "$src: no $p after the runs above"
    done < <(records file | sort -t$'\t' -k3,3 -u)
}

# pokectl(1): browse ends "the service going away (exit 3, with a message)".
browse_outlives_service() {
    local src sock=$TMP/tmux-gone.sock
    src=$(grep -n 'service going away (exit' "$ROOT/man/pokectl.1" | cut -d: -f1)
    [ -n "$src" ] || { ok "man/pokectl.1 no longer says browse exits when the service goes away"; return; }
    rm -f "$TMP/gone.exit"
    tmux -S "$sock" -f /dev/null new-session -d -s g -x 100 -y 32 \
        "env -u TMUX TERM=xterm-256color bash --norc -c 'pokectl browse 2>$TMP/gone.err; echo \$? >$TMP/gone.exit; sleep 5'"
    sleep 1.5
    kill $DAEMON; wait $DAEMON 2>/dev/null
    for _ in $(seq 40); do [ -s "$TMP/gone.exit" ] && break; sleep 0.1; done
    local got; got=$(cat "$TMP/gone.exit" 2>/dev/null)
    tmux -S "$sock" kill-server 2>/dev/null
    [ "$got" = 3 ] && ok "man/pokectl.1:$src: browse exits 3 when the service goes away" ||
        fail "man/pokectl.1:$src: browse does not exit 3 when the service goes away (after 4 s: '${got:-still running}')"
}
