#!/usr/bin/env bash
# h2-front.sh: the project's mock behind nginx, over TLS and HTTP/2, for tests.
#
#   h2-front.sh --upstream-port P --state-dir D     start; D/port is the TLS port, D/ca.crt the CA
#   h2-front.sh stop --state-dir D                  stop it
#
# A throwaway CA and a certificate for 127.0.0.1 and localhost are made in D; nothing on the
# machine is changed (the daemon trusts D/ca.crt through --ca-file). nginx runs as the current
# user with every path under D. Exits 77 when nginx is not installed (the test then skips).
set -euo pipefail
cmd=start
[ "${1:-}" = stop ] && { cmd=stop; shift; }
upstream="" state=""
while [ $# -gt 0 ]; do
    case "$1" in
        --upstream-port) upstream=$2; shift 2 ;;
        --state-dir) state=$2; shift 2 ;;
        *) echo "h2-front: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ -n "$state" ] || { echo "h2-front: --state-dir is required" >&2; exit 2; }

if [ "$cmd" = stop ]; then
    [ -f "$state/nginx.pid" ] && kill "$(cat "$state/nginx.pid")" 2>/dev/null || true
    exit 0
fi

[ -n "$upstream" ] || { echo "h2-front: --upstream-port is required" >&2; exit 2; }
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] || { echo "h2-front: nginx is not installed" >&2; exit 77; }
mkdir -p "$state"

openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=pokedexd test CA" \
    -keyout "$state/ca.key" -out "$state/ca.crt" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$state/server.key" -out "$state/server.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' > "$state/san.ext"
openssl x509 -req -in "$state/server.csr" -CA "$state/ca.crt" -CAkey "$state/ca.key" -CAcreateserial \
    -days 2 -extfile "$state/san.ext" -out "$state/server.crt" 2>/dev/null

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$state/nginx.conf" <<EOF
worker_processes 1;
daemon on;
pid $state/nginx.pid;
error_log $state/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $state/body;
    proxy_temp_path $state/proxy;
    fastcgi_temp_path $state/fastcgi;
    uwsgi_temp_path $state/uwsgi;
    scgi_temp_path $state/scgi;
    upstream mock { server 127.0.0.1:$upstream; keepalive 64; }
    server {
        listen 127.0.0.1:$port ssl http2;
        ssl_certificate $state/server.crt;
        ssl_certificate_key $state/server.key;
        ssl_protocols TLSv1.2 TLSv1.3;
        http2_max_concurrent_streams 128;
        location / {
            proxy_pass http://mock;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$host:\$server_port;
            proxy_set_header X-Forwarded-Proto https;
            proxy_buffering off;
        }
    }
}
EOF
# nginx stays on as a daemon: it must not keep any descriptor its caller watches (Foundation's
# Process, for one, learns that its child ended when a socket the child holds is closed).
for fd in /proc/$$/fd/*; do
    fd=${fd##*/}
    [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-" 2>/dev/null || true
done
# As root, nginx would switch its workers to nobody, who cannot read $state: run them as root.
[ "$(id -u)" = 0 ] && sed -i '1i user root;' "$state/nginx.conf"
"$NGINX" -c "$state/nginx.conf" -e "$state/error.log" </dev/null >/dev/null 2>>"$state/error.log" || { cat "$state/error.log" >&2; exit 1; }
echo "$port" > "$state/port"
for _ in $(seq 100); do
    curl -sf -o /dev/null --cacert "$state/ca.crt" "https://127.0.0.1:$port/api/v2/pokemon/?limit=1" && exit 0
    sleep 0.1
done
echo "h2-front: https://127.0.0.1:$port does not answer; see $state/error.log" >&2
exit 1
