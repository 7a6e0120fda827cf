#!/usr/bin/env bash
# h2-front.sh: the project's mock behind nginx, over TLS and HTTP/2, for tests.
#
#   h2-front.sh --upstream-port P --state-dir D [--names "a.test b.test"]
#       start; returns once https://127.0.0.1:PORT/api/v2/pokemon/?limit=1 answers (10 s at most)
#   h2-front.sh stop --state-dir D
#       stop it
#
# nginx listens on 127.0.0.1 on a free port with TLS 1.2/1.3 and HTTP/2 (at most 128 streams a
# connection) and proxies everything to http://127.0.0.1:P over HTTP/1.1 with keep-alive and no
# buffering. It sends Host: HOST:PORT and X-Forwarded-Proto: https, so the absolute URLs the mock
# writes into bodies are https://127.0.0.1:PORT/… and point back at the front.
#
# A throwaway CA and a server certificate for IP 127.0.0.1, localhost and every --names are made
# in D; nothing on the machine is changed (the daemon trusts D/ca.crt through --ca-file). Written
# in D: ca.crt, port (the TLS port), nginx.pid, nginx.conf, error.log, and nginx's temp paths.
# nginx runs as the current user with every path under D. Exits 77 when nginx is not installed
# (the test then skips), 2 on a bad argument, 1 when nginx does not start or does not answer.
set -euo pipefail
cmd=start
[ "${1:-}" = stop ] && { cmd=stop; shift; }
upstream="" state="" names=""
while [ $# -gt 0 ]; do
    case "$1" in
        --upstream-port) upstream=${2:?--upstream-port needs a value}; shift 2 ;;
        --state-dir) state=${2:?--state-dir needs a value}; shift 2 ;;
        --names) names=${2?--names needs a value}; shift 2 ;;
        *) echo "h2-front: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ -n "$state" ] || { echo "h2-front: --state-dir is required" >&2; exit 2; }

if [ "$cmd" = stop ]; then
    pid=$(cat "$state/nginx.pid" 2>/dev/null || true)
    [ -n "$pid" ] || exit 0
    kill "$pid" 2>/dev/null || exit 0
    # Gone within 5 s (the master removes its pid file as it leaves), or killed outright.
    for _ in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || exit 0
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    exit 0
fi

[ -n "$upstream" ] || { echo "h2-front: --upstream-port is required" >&2; exit 2; }
case "$upstream" in *[!0-9]*) echo "h2-front: --upstream-port must be a number" >&2; exit 2 ;; esac
# Debian puts nginx in /usr/sbin, which a user's PATH may lack.
NGINX=$(command -v nginx || true)
[ -n "$NGINX" ] || { [ -x /usr/sbin/nginx ] && NGINX=/usr/sbin/nginx; }
[ -n "$NGINX" ] || { echo "h2-front: nginx is not installed" >&2; exit 77; }
mkdir -p "$state"
state=$(cd "$state" && pwd)
rm -f "$state/port"

# The certificates: a CA of its own, and a server certificate it signs.
san="IP:127.0.0.1,DNS:localhost"
for n in $names; do san="$san,DNS:$n"; done
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=pokedexd test CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -keyout "$state/ca.key" -out "$state/ca.crt" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$state/server.key" -out "$state/server.csr" 2>/dev/null
printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n' \
    "$san" > "$state/san.ext"
openssl x509 -req -in "$state/server.csr" -CA "$state/ca.crt" -CAkey "$state/ca.key" -CAcreateserial \
    -days 2 -extfile "$state/san.ext" -out "$state/server.crt" 2>/dev/null

# `listen … ssl http2` up to nginx 1.25.0 (Debian 12 has 1.22); `http2 on` after.
version=$("$NGINX" -v 2>&1 | sed -n 's|.*nginx/\([0-9.]*\).*|\1|p')
if [ "$(printf '%s\n%s\n' "$version" 1.25.1 | sort -V | head -n1)" = 1.25.1 ]; then
    listen_h2="" http2_on="http2 on;"
else
    listen_h2=" http2" http2_on=""
fi

write_conf() {
    cat > "$state/nginx.conf" <<EOF
$([ "$(id -u)" = 0 ] && echo "user root;  # as root, workers would switch to nobody, who cannot read \"$state\"")
worker_processes 1;
daemon on;
pid "$state/nginx.pid";
error_log "$state/error.log";
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path "$state/body";
    proxy_temp_path "$state/proxy";
    fastcgi_temp_path "$state/fastcgi";
    uwsgi_temp_path "$state/uwsgi";
    scgi_temp_path "$state/scgi";
    upstream mock { server 127.0.0.1:$upstream; keepalive 64; }
    server {
        listen 127.0.0.1:$1 ssl$listen_h2;
        $http2_on
        ssl_certificate "$state/server.crt";
        ssl_certificate_key "$state/server.key";
        ssl_protocols TLSv1.2 TLSv1.3;
        http2_max_concurrent_streams 128;
        client_max_body_size 1m;
        location / {
            proxy_pass http://mock;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$host:\$server_port;
            proxy_set_header X-Forwarded-Proto https;
            proxy_buffering off;
            proxy_request_buffering off;
            proxy_read_timeout 300s;
        }
    }
}
EOF
}

# nginx stays on as a daemon: it must not keep any descriptor its caller watches (Foundation's
# Process, for one, learns that its child ended when a socket the child holds is closed).
for fd in /proc/$$/fd/*; do
    fd=${fd##*/}
    [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-" 2>/dev/null || true
done

# A free port: one the kernel just handed out; if another process takes it before nginx binds
# it, try again with another.
started=""
for _ in 1 2 3 4 5; do
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    write_conf "$port"
    : > "$state/error.log"
    if "$NGINX" -c "$state/nginx.conf" -e "$state/error.log" </dev/null >/dev/null 2>>"$state/error.log"; then
        started=1
        break
    fi
    grep -q "Address already in use" "$state/error.log" || break
done
[ -n "$started" ] || { echo "h2-front: nginx did not start:" >&2; cat "$state/error.log" >&2; exit 1; }
echo "$port" > "$state/port.tmp" && mv "$state/port.tmp" "$state/port"

deadline=$((SECONDS + 10))
while [ "$SECONDS" -lt "$deadline" ]; do
    curl -sf -o /dev/null --max-time 2 --cacert "$state/ca.crt" "https://127.0.0.1:$port/api/v2/pokemon/?limit=1" && exit 0
    sleep 0.1
done
echo "h2-front: https://127.0.0.1:$port does not answer; see $state/error.log" >&2
bash "${BASH_SOURCE[0]}" stop --state-dir "$state" || true
exit 1
