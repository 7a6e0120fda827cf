"""HTTP: the control endpoints, every other GET through the middleware to its route, and the
answers written out (ETag and 304, Cache-Control, gzip, chunked, cut, endless)."""
import gzip, hashlib, json, os, select, socket, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from . import faults, routes
from .dex import path_id
from .exchange import Abandon, Answer, Drop, Endless, Request
from .hostile import ENDLESS_SECONDS, HOSTILE_MAX_AGES

# Every API GET: the middleware, then the route table.
API = faults.wrap(faults.PIPELINE, routes.route)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 300         # a connection that says nothing for 5 min (a stalled TLS handshake) is closed

    def log_message(self, *a):
        pass

    def send_error(self, code, message=None, explain=None):
        """The stdlib's error answers (an unsupported method's 501, a malformed request's 400),
        with a body of the mock's own: the stdlib's page changes with Python's version (3.13's
        and 3.14's differ in length), and the golden record must hold on each."""
        message = message or self.responses.get(code, ("Error",))[0]
        body = f"{code} {message}\n".encode("utf-8", "replace")
        self.send_response(code, message)
        self.send_header("Connection", "close")
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    @property
    def mock(self):
        return self.server.mock

    def setup(self):
        super().setup()
        self.mock.stats.bump("connections")

    def base(self):
        tls = getattr(self.server, "tls", False) or (self.headers.get("X-Forwarded-Proto") or "").strip().lower() == "https"
        return f"{'https' if tls else 'http'}://{self.headers.get('Host')}"

    def cache_control(self, config):
        if config.cache_control:
            return str(config.cache_control)
        if config.hostile:
            ident = path_id(urlsplit(self.path).path, config.total)
            return f"public, max-age={'inf' if ident is None else HOSTILE_MAX_AGES[ident % 4]}"
        age = config.max_age
        return f"public, max-age={age if isinstance(age, str) else json.dumps(age)}"

    # Control and stats (not PokeAPI): neither counted nor faulted.

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) or b"{}"
        data = json.loads(raw)
        if self.path == "/__control" and isinstance(data.get("max_age"), float):
            # Written verbatim: 1e9 stays "1e9", not 1000000000.0 (Infinity and NaN too).
            data["max_age"] = json.loads(raw, parse_float=str, parse_constant=str)["max_age"]
        if self.path == "/__control":
            self.mock.settings.update(data)
            return self.send(Answer(200, self.mock.settings.to_json()))
        if self.path == "/__stats/reset":
            self.mock.stats.reset()
            return self.send(Answer(200, b"{}"))
        self.send(Answer(404, b"Not Found", "text/plain"))

    def do_HEAD(self):
        # The service's probes: a server that is offline does not answer them either.
        if faults.dropped(self.mock.settings.snapshot(), getattr(self.server, "listener", "api")):
            return self.write(Drop(), None)
        self.send_error(501, "Unsupported method ('HEAD')")

    def do_GET(self):
        url = urlsplit(self.path)
        if url.path == "/__stats":
            return self.send(Answer(200, self.mock.stats.to_json()))
        req = Request(self, self.mock, routes.classify(url.path))
        try:
            self.write(API(req), req.config)
        finally:
            # Every way out: answers, drops, faults, exceptions.
            for done in req.on_done:
                done()

    # Writing answers out.

    def write(self, answer, config):
        if isinstance(answer, Drop):
            self.close_connection = True
            self.connection.shutdown(2)
        elif isinstance(answer, Abandon):
            self.close_connection = True
        elif isinstance(answer, Endless):
            self.endless(answer.body, config)
        else:
            self.send(answer, config)

    def send(self, a, config=None):
        config = config or self.mock.settings.snapshot()
        body = a.body
        etag = '"' + hashlib.sha1(body).hexdigest()[:16] + '"'
        if a.status == 200 and self.headers.get("If-None-Match") == etag:
            self.mock.stats.bump("not_modified")
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Cache-Control", self.cache_control(config))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        payload = body
        if a.compress and a.status == 200 and a.ctype == "application/json" and "gzip" in (self.headers.get("Accept-Encoding") or ""):
            payload = gzip.compress(body)
            self.mock.stats.bump("gzip")
        self.send_response(a.status)
        self.send_header("Content-Type", a.ctype)
        if a.chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(len(payload)))
        if a.status == 200:
            self.send_header("ETag", etag)
            self.send_header("Cache-Control", self.cache_control(config))
            if payload is not body:
                self.send_header("Content-Encoding", "gzip")
        for k, v in (a.extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if a.cut:
            # A body cut off halfway: the length promised, half of it sent, then the connection closed.
            half = payload[:len(payload) // 2]
            self.wfile.write(b"%x\r\n" % len(payload) + half if a.chunked else half)
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if a.chunked:
            try:
                for k in range(0, len(payload), 65536):
                    part = payload[k:k + 65536]
                    self.wfile.write(b"%x\r\n" % len(part) + part + b"\r\n")
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
            except OSError:
                self.close_connection = True
            return
        self.wfile.write(payload)

    def endless(self, body, config):
        """A chunked body that never ends: a valid JSON start, then padding every 0.1 s until the
        client goes away (checked before every chunk) or ENDLESS_SECONDS pass."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Cache-Control", self.cache_control(config))
        self.end_headers()
        self.close_connection = True
        start = body[:-1] + b', "padding": "'
        part = b"x" * 1024
        deadline = time.monotonic() + ENDLESS_SECONDS
        try:
            self.wfile.write(b"%x\r\n" % len(start) + start + b"\r\n")
            self.wfile.flush()
            while time.monotonic() < deadline:
                time.sleep(0.1)
                if self.peer_gone():
                    raise ConnectionResetError
                self.wfile.write(b"%x\r\n" % len(part) + part + b"\r\n")
                self.wfile.flush()
        except OSError:
            self.mock.stats.bump("hostile", "endless_gone")
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def peer_gone(self):
        """Whether the client closed its end (a cancelled transfer) while the answer waited."""
        try:
            readable, _, _ = select.select([self.connection], [], [], 0)
            return bool(readable) and self.connection.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True


class QuietServer(ThreadingHTTPServer):
    """Clients that hang up (cut faults, deadlines, TLS refusals) are expected: no traceback."""
    daemon_threads = True
    # socketserver's default listen backlog is 5: a burst of new connections past it (nginx's
    # upstream connections for a cold HTTP/2 burst) had SYNs dropped, and one answer in the
    # burst came a whole TCP retransmission (1 s) late. A real server's backlog is far larger.
    request_queue_size = 128

    def handle_error(self, request, client_address):
        import sys
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError, OSError)):
            super().handle_error(request, client_address)


def write_port(path, port):
    """Atomically: a reader never sees half of it."""
    with open(path + ".tmp", "w") as f:
        f.write(str(port))
    os.replace(path + ".tmp", path)


def serve(mock, port, port_file=None, tls_cert=None, sprite_port_file=None):
    """The API listener on 127.0.0.1:port (TLS with tls_cert), and with sprite_port_file a
    second one on a free port (the same answers, settings and stats); runs until killed."""
    if sprite_port_file:
        sprites = QuietServer(("127.0.0.1", 0), Handler)
        sprites.listener, sprites.mock = "sprites", mock
        threading.Thread(target=sprites.serve_forever, daemon=True).start()
        write_port(sprite_port_file, sprites.server_address[1])
    server = QuietServer(("127.0.0.1", port), Handler)
    server.mock = mock
    if tls_cert:
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(tls_cert)
        # The handshake happens in each connection's own thread (on its first read), not in
        # accept(): one client that stalls or aborts its handshake must not hold up the others.
        server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
        server.tls = True
    port = server.server_address[1]
    if port_file:
        write_port(port_file, port)
    print(f"listening on http://127.0.0.1:{port}", flush=True)
    server.serve_forever()
