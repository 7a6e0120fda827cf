"""The script mock_test.py walks: requests and control settings, in a fixed order (the
golden record numbers the answers). Each part records its answers through `sc`."""
import http.client, json, threading, time

from mock_test import HOST, exchange, header, normalize, without_live_counts


class Client:
    """Requests to one mock, each answer recorded."""

    def __init__(self, m, sc):
        self.m, self.sc, self.p = m, sc, m.port

    def get(self, path, *headers, port=None, name=None, **kw):
        return self.sc.record(name or f"GET {path} {dict(headers) or ''}".strip(), exchange(port or self.p, "GET", path, headers, **kw))

    def control(self, **settings):
        return self.post("/__control", json.dumps(settings).encode())

    def post(self, path, body, name=None):
        return self.sc.record(name or f"POST {path} {body.decode()}", exchange(self.p, "POST", path, body=body))

    def stats(self):
        time.sleep(0.05)
        return self.sc.record("GET /__stats", without_live_counts(exchange(self.p, "GET", "/__stats")))


def run_plain(m, sc):
    """The plain mock, with a second listener: every route, then every setting, then hostile mode."""
    c = Client(m, sc)
    routes(c)
    settings(c)
    sizes(c)
    hostile(c)


def routes(c):
    """Every route, plain; compression, ETags, 304s; other methods."""
    get, control, post, stats, p, sc = c.get, c.control, c.post, c.stats, c.p, c.sc
    post("/__control", b"{}")
    lists = ["/api/v2/pokemon/", "/api/v2/pokemon/?offset=0&limit=5", "/api/v2/pokemon/?offset=20&limit=20",
             "/api/v2/pokemon/?limit=100", "/api/v2/pokemon//", "/api/v2/pokemon"]
    pokemon = ["/api/v2/pokemon/1/", "/api/v2/pokemon/25", "/api/v2/pokemon/pikachu/", "/api/v2/pokemon/PIKACHU/",
               "/api/v2/pokemon/6/", "/api/v2/pokemon/44/", "/api/v2/pokemon/10001/", "/api/v2/pokemon/deoxys-attack/",
               "/api/v2/pokemon/10033/", "/api/v2/pokemon/9999/", "/api/v2/pokemon/nope/", "/api/v2/pokemon/mon-50/",
               "/api/v2/pokemon/386/", "/api/v2/pokemon/1/extra"]
    species = [f"/api/v2/pokemon-species/{k}/" for k in (1, 3, 4, 6, 7, 25, 26, 29, 386, 133, 10001, "deoxys", "eevee", 44)]
    species += ["/api/v2/pokemon-species/", "/api/v2/pokemon-species"]
    filters = ["/api/v2/type/", "/api/v2/type", "/api/v2/type/electric/", "/api/v2/type/normal/", "/api/v2/type/fire",
               "/api/v2/type/bogus/", "/api/v2/typeXYZ", "/api/v2/generation/", "/api/v2/generation/1/",
               "/api/v2/generation/generation-iii/", "/api/v2/generation/abc/", "/api/v2/type/fire/x"]
    names = ["/api/v2/ability/", "/api/v2/ability/9/", "/api/v2/ability/static/", "/api/v2/ability/lightning-rod",
             "/api/v2/ability/999/", "/api/v2/stat/", "/api/v2/stat/1/", "/api/v2/stat/speed/", "/api/v2/stat/SPEED/",
             "/api/v2/pokemon-form/10001/", "/api/v2/pokemon-form/deoxys-attack/", "/api/v2/pokemon-form/venusaur-mega/",
             "/api/v2/pokemon-form/25/", "/api/v2/pokemon-form/99999/", "/api/v2/pokemon-form/", "/api/v2/language",
             "/api/v2/language/", "/api/v2/language/9/", "/api/v2/language/ja-hrkt/", "/api/v2/language/xx/",
             "/api/v2/ability/x/y", "/api/v2/abilityx", "/api/v2/item/kings-rock/", "/api/v2/item/84/", "/api/v2/item/nothing/",
             "/api/v2/item/", "/api/v2/move/dragon-cheer/", "/api/v2/evolution-trigger/shed/", "/api/v2/version/ultra-sun/"]
    chains = ["/api/v2/evolution-chain/1/", "/api/v2/evolution-chain/10", "/api/v2/evolution-chain/67/",
              "/api/v2/evolution-chain/99999/", "/api/v2/evolution-chain/abc/", "/api/v2/evolution-chain/"]
    media = ["/sprites/1.png", "/sprites/25.png", "/sprites/shiny/25.png", "/sprites/anim/25.gif", "/sprites/anim/10001.gif",
             "/sprites/10001.png", "/cries/25.ogg", "/cries/abc.ogg", "/sprites/x.png", "/sprites/anim/x.gif",
             "/sprites/24.png", "/sprites/anim/26.gif"]
    other = ["/favicon.ico", "/api/v2/move/1/", "/__control", "/__stats/reset", "/"]
    every = lists + pokemon + species + filters + names + chains + media + other
    for path in every:
        get(path)
    stats()
    # Compression, ETags and 304s, the TLS front's header, user agents.
    for path in ("/api/v2/pokemon/25/", "/api/v2/pokemon/?limit=3", "/api/v2/type/fire/", "/api/v2/language/9/",
                 "/sprites/25.png", "/api/v2/evolution-chain/10/", "/api/v2/pokemon-species/25/"):
        first = get(path, ("Accept-Encoding", "gzip, deflate"))
        tag = header(first, "ETag")
        get(path, ("If-None-Match", tag or "none"))
        get(path, ("If-None-Match", tag or "none"), ("Accept-Encoding", "gzip"))
        get(path, ("If-None-Match", '"stale"'))
    get("/api/v2/pokemon/25/", ("X-Forwarded-Proto", "https"))
    get("/api/v2/pokemon/?limit=2", ("X-Forwarded-Proto", " HTTPS "))
    get("/api/v2/pokemon/1/", ("User-Agent", "pokedexd/1.0"))
    get("/api/v2/pokemon/1/", ("User-Agent", ""))
    # Other methods.
    sc.record("HEAD /api/v2/pokemon/", exchange(p, "HEAD", "/api/v2/pokemon/"))
    sc.record("PUT /api/v2/pokemon/", exchange(p, "PUT", "/api/v2/pokemon/"))
    post("/nowhere", b"{}")
    # What the mock cannot read: no answer, the connection closed.
    get("/api/v2/pokemon/?limit=abc")
    post("/__control", b"[]")
    post("/__control", b"{")
    post("/__stats/reset", b"[]")
    post("/__control", b'{"max_age": 1e400, "latency_ms": 0}')
    get("/api/v2/pokemon/?offset=44&limit=5")
    get("/api/v2/pokemon/?offset=-3")
    post("/__stats/reset", b"")
    stats()



def settings(c):
    """Every setting of /__control in turn, but oversize and hostile."""
    get, control, post, stats, p, sc = c.get, c.control, c.post, c.stats, c.p, c.sc
    m = c.m
    for age in ("60", '"inf"', "1e9", "-1", '"abc"', "1.5", "NaN", "Infinity", "0"):
        post("/__control", b'{"max_age": ' + age.encode() + b"}")
        first = get("/api/v2/pokemon/1/")
        get("/api/v2/pokemon/1/", ("If-None-Match", header(first, "ETag")))
        get("/sprites/1.png")
    control(max_age=86400, cache_control="no-store")
    first = get("/api/v2/pokemon/1/")
    get("/api/v2/pokemon/1/", ("If-None-Match", header(first, "ETag")))
    control(cache_control="")
    control(evil_sprite=True)
    get("/api/v2/pokemon/44/")
    get("/api/v2/pokemon/45/")
    control(evil_sprite=False, no_sprite=[25, 3])
    get("/api/v2/pokemon/25/")
    get("/api/v2/pokemon/3/")
    control(no_sprite=[])
    control(fail_status=503)
    for path in ("/api/v2/pokemon/1/", "/sprites/1.png", "/favicon.ico"):
        get(path)
    control(retry_after=7)
    get("/api/v2/pokemon/1/")
    control(fail_status=500, fail_count=2)
    for _ in range(4):
        get("/api/v2/pokemon/?limit=1")
    post("/__control", b"{}")
    control(fail_status=429, fail_count=0, retry_after=0)
    get("/api/v2/pokemon/1/")
    control(fail_status=0, fail_count=None)
    get("/api/v2/pokemon/1/")
    control(latency_ms=30)
    get("/api/v2/pokemon/2/")
    control(latency_prefix="/sprites/")
    get("/sprites/2.png")
    get("/api/v2/pokemon/2/")
    control(latency_ms=400, latency_prefix="/api/v2/pokemon/7")
    sc.record("abandoned GET /api/v2/pokemon/7/", exchange(p, "GET", "/api/v2/pokemon/7/", close_after=0.1))
    time.sleep(0.6)
    get("/api/v2/pokemon/8/")
    control(latency_ms=0, latency_prefix="")
    stats()
    # A held request answers when the test releases it, and one whose client left is abandoned.
    control(hold_prefix="/api/v2/pokemon/9")
    sc.record("abandoned held GET /api/v2/pokemon/9/", exchange(p, "GET", "/api/v2/pokemon/9/", close_after=0.1))
    released = {}
    held = threading.Thread(target=lambda: released.update(answer=exchange(p, "GET", "/api/v2/pokemon/9/")))
    held.start()
    time.sleep(0.2)
    stats()
    control(hold_prefix="")
    held.join()
    sc.record("held GET /api/v2/pokemon/9/, released", released["answer"])
    stats()
    control(offline=True)
    get("/api/v2/pokemon/1/")
    get("/favicon.ico")
    sc.record("HEAD offline", exchange(p, "HEAD", "/api/v2/pokemon/"))
    stats()
    control(offline=False)
    control(total=1351)
    for path in ("/api/v2/pokemon/?offset=1340&limit=20", "/api/v2/pokemon/?offset=40&limit=10", "/api/v2/pokemon/mon-500/",
                 "/api/v2/pokemon/500/", "/api/v2/pokemon-species/500/", "/api/v2/pokemon/1349/", "/api/v2/pokemon/1350/",
                 "/api/v2/pokemon-form/500/", "/api/v2/type/normal/", "/api/v2/generation/1/", "/api/v2/pokemon/mon-5/"):
        get(path)
    control(total=0)
    # Random faults: the same seed draws the same faults in the same order.
    control(seed=7, fault_500=0.3, fault_cut=0.3, fault_429=0.2)
    for k in range(3):
        for path in ("/api/v2/pokemon/1/", "/api/v2/pokemon-species/1/", "/api/v2/pokemon/?limit=3", "/api/v2/type/fire/",
                     "/api/v2/stat/1/", "/api/v2/evolution-chain/1/", "/sprites/1.png", "/sprites/anim/1.gif",
                     "/cries/1.ogg", "/favicon.ico", "/api/v2/pokemon/9999/"):
            get(path, *([("Accept-Encoding", "gzip")] if k == 1 else []))
    control(retry_after=3, seed=11)
    for _ in range(8):
        get("/api/v2/pokemon/4/")
    control(fault_500=0.0, fault_cut=1.0, fault_429=0.0, retry_after=0)
    get("/api/v2/pokemon/5/")
    get("/api/v2/pokemon/5/", ("Accept-Encoding", "gzip"))
    get("/api/v2/pokemon/9999/")
    control(oversize={"pokemon": 20000}, oversize_no_length=True)
    get("/api/v2/pokemon/5/")
    control(fault_cut=0.0, oversize={}, oversize_no_length=False)
    stats()
    # Redirects, another sprite host, and that host going offline.
    control(redirect_sprites="http://localhost:9")
    for path in ("/sprites/3.png", "/sprites/anim/3.gif", "/sprites/shiny/3.png", "/sprites/3.png?redirected=1",
                 "/cries/3.ogg", "/api/v2/pokemon/3/"):
        get(path)
    control(redirect_sprites="", sprite_base="http://localhost:9")
    get("/api/v2/pokemon/3/")
    get("/api/v2/pokemon/10001/")
    get("/api/v2/pokemon-species/3/")
    control(sprite_base="")
    get("/sprites/3.png", port=m.sprite_port, name="GET sprites listener /sprites/3.png")
    get("/api/v2/pokemon/3/", port=m.sprite_port, name="GET sprites listener /api/v2/pokemon/3/")
    control(sprite_host_offline=True)
    get("/sprites/3.png", port=m.sprite_port, name="GET offline sprites listener /sprites/3.png")
    sc.record("HEAD offline sprites listener", exchange(m.sprite_port, "HEAD", "/sprites/3.png"))
    get("/sprites/3.png")
    sc.record("HEAD api listener", exchange(p, "HEAD", "/sprites/3.png"))
    control(sprite_host_offline=False)
    stats()


def sizes(c):
    """oversize, keep-alive after a chunked answer, huge_sprites."""
    get, control, post, stats, p, sc = c.get, c.control, c.post, c.stats, c.p, c.sc
    m = c.m
    # Oversized bodies, with a length and without.
    sizes = {"pokemon": 20000, "pokemon-species": 30000, "pokemon-list": 50000, "filters": 40000, "names": 9000,
             "sprite": 5000, "animated-sprite": 3000, "evolution-chain": 12000, "cry": 100000}
    oversized = ["/api/v2/pokemon/5/", "/api/v2/pokemon-species/5/", "/api/v2/pokemon/?limit=4", "/api/v2/type/fire/",
                 "/api/v2/ability/9/", "/sprites/5.png", "/sprites/shiny/5.png", "/sprites/anim/5.gif",
                 "/api/v2/evolution-chain/2/", "/cries/5.ogg", "/api/v2/pokemon/9999/"]
    for no_length in (False, True):
        control(oversize=sizes, oversize_no_length=no_length)
        for path in oversized:
            get(path)
        get("/api/v2/pokemon/5/", ("Accept-Encoding", "gzip"))
        first = get("/api/v2/pokemon-species/5/")
        get("/api/v2/pokemon-species/5/", ("If-None-Match", header(first, "ETag")))
    control(oversize={"pokemon": 10}, oversize_no_length=True)
    get("/api/v2/pokemon/5/")
    control(oversize={}, oversize_no_length=False)
    # Keep-alive: what one answer asked for (chunked) does not reach the next on the connection.
    control(oversize={"pokemon": 20000}, oversize_no_length=True)
    c = http.client.HTTPConnection("127.0.0.1", p, timeout=10)
    for path, headers in (("/api/v2/pokemon/6/", {}), ("/api/v2/pokemon-species/6/", {}), ("/api/v2/pokemon/6/", {})):
        c.request("GET", path, headers={"Host": HOST, "User-Agent": "keep-alive", **headers})
        r = c.getresponse()
        body = r.read()
        kept = [(k, v) for k, v in r.getheaders() if k.lower() not in ("date", "server")]
        sc.record(f"keep-alive GET {path}", f"HTTP/1.1 {r.status}\r\n{kept}\r\n\r\n".encode() + body)
    c.close()
    control(oversize={}, oversize_no_length=False)
    # Huge sprites, small enough to be quick.
    control(huge_sprites=64)
    for path in ("/sprites/1.png", "/sprites/shiny/1.png", "/sprites/anim/1.gif", "/sprites/24.png"):
        get(path)
    control(huge_sprites=0)
    control(unknown_key={"a": [1]})
    stats()
    post("/__stats/reset", b"")


def hostile(c):
    """Hostile mode: text, names, max-ages and every attack."""
    get, control, post, stats, p, sc = c.get, c.control, c.post, c.stats, c.p, c.sc
    control(hostile=True)
    hostile = ["/api/v2/pokemon/", "/api/v2/pokemon/?offset=40&limit=20", "/api/v2/pokemon/1/", "/api/v2/pokemon/25/",
               "/api/v2/pokemon/pikachu/", "/api/v2/pokemon/26/", "/api/v2/pokemon/27/", "/api/v2/pokemon/28/",
               "/api/v2/pokemon/10001/", "/api/v2/pokemon/99001/", "/api/v2/pokemon/21/", "/api/v2/pokemon/23/",
               "/api/v2/pokemon-species/21/", "/api/v2/pokemon-species/22/", "/api/v2/pokemon-species/25/",
               "/api/v2/pokemon-species/386/", "/sprites/24.png", "/sprites/25.png", "/sprites/shiny/24.png",
               "/sprites/anim/26.gif", "/sprites/anim/25.gif", "/sprites/anim/24.gif", "/api/v2/type/", "/api/v2/type/electric/",
               "/api/v2/generation/1/", "/api/v2/generation/", "/api/v2/ability/9/", "/api/v2/stat/1/",
               "/api/v2/pokemon-form/10001/", "/api/v2/pokemon-form/10033/", "/api/v2/language/", "/api/v2/language/9/",
               "/api/v2/evolution-chain/10/", "/cries/25.ogg", "/api/v2/pokemon/arbok/", "/api/v2/pokemon/PIKACHU"]
    for path in hostile:
        get(path)
    get("/api/v2/pokemon/23/", ("Accept-Encoding", "identity"))
    first = get("/api/v2/pokemon/25/", ("Accept-Encoding", "gzip"))
    get("/api/v2/pokemon/25/", ("If-None-Match", header(first, "ETag")))
    # The endless answer: its head and first chunk, then the client leaves.
    sc.record("GET hostile endless /api/v2/pokemon/22/",
              exchange(p, "GET", "/api/v2/pokemon/22/", until=b'"padding": "\r\n'))
    time.sleep(0.5)
    control(cache_control="max-age=5")
    get("/api/v2/pokemon/25/")
    get("/sprites/25.png")
    control(cache_control="", oversize={"pokemon": 100000, "pokemon-species": 100000})
    get("/api/v2/pokemon/25/")
    get("/api/v2/pokemon/21/")
    get("/api/v2/pokemon-species/25/")
    control(oversize={}, fault_cut=1.0)
    get("/api/v2/pokemon/22/", name="GET hostile endless under fault_cut", until=b'"padding": "\r\n')
    time.sleep(0.5)
    control(fault_cut=0.0, hostile=False)
    get("/api/v2/pokemon/25/")
    stats()



def run_flags(m, sc):
    """--hostile --huge-sprites: what they set, and one answer each."""
    sc.record("flags POST /__control {}", exchange(m.port, "POST", "/__control", body=b"{}"))
    for path in ("/api/v2/pokemon/25/", "/sprites/1.png", "/sprites/24.png"):
        sc.record(f"flags GET {path}", exchange(m.port, "GET", path))


def run_every(m, sc):
    """--every-species: every species and form of the bundled table, with their names."""
    for path in ("/api/v2/pokemon/?limit=2000", "/api/v2/pokemon-species/25/", "/api/v2/pokemon-species/1000/",
                 "/api/v2/pokemon-species/133/", "/api/v2/pokemon/10001/", "/api/v2/pokemon/133/", "/api/v2/type/",
                 "/api/v2/type/fairy/", "/api/v2/type/electric/", "/api/v2/pokemon-form/10100/", "/api/v2/generation/1/"):
        sc.record(f"every GET {path}", exchange(m.port, "GET", path))
    body = normalize(exchange(m.port, "GET", "/api/v2/pokemon/?limit=2000")).partition(b"\r\n\r\n")[2]
    for entry in json.loads(body)["results"][1020:1400:37]:
        path = entry["url"].split(HOST, 1)[1]
        sc.record(f"every GET {path}", exchange(m.port, "GET", path))


def run_tls(m, sc):
    for path in ("/api/v2/pokemon/25/", "/api/v2/pokemon/?limit=2"):
        sc.record(f"tls GET {path}", exchange(m.port, "GET", path, tls=True))
