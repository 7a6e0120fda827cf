"""The middleware every API GET goes through before its route, outermost first: counting, then
the faults /__control sets (latency, hold, offline, fail_status, the random fault_*, redirect_sprites)
and, on the way back, oversize. Each is `step(request, next) -> answer`."""
import time

from .exchange import Abandon, Answer, Drop


def count(req, next):
    """Counted in /__stats (and in flight until its answer is written); the settings it is
    answered with are read here, once."""
    stats = req.mock.stats
    stats.request(req.kind, req.listener, req.headers.get("User-Agent") or "", req.headers.get("If-None-Match"))
    req.on_done.append(stats.done)
    req.config = req.mock.settings.snapshot()
    return next(req)


def latency(req, next):
    """latency_ms before any answer to a path under latency_prefix; a client that gave up
    meanwhile (closed its end) is counted abandoned and gets nothing."""
    c = req.config
    if c.latency_ms and req.url.path.startswith(c.latency_prefix or "/"):
        time.sleep(c.latency_ms / 1000)
        if req.peer_gone():
            req.mock.stats.bump("abandoned")
            return Abandon()
    return next(req)


def dropped(config, listener):
    """offline: every connection closed unanswered; sprite_host_offline: the second listener's."""
    return config.offline or (listener == "sprites" and config.sprite_host_offline)


def hold(req, next):
    """hold_prefix: a request for a path under it waits unanswered until hold_prefix is set to
    anything else, so a test decides when a slow server answers instead of guessing a latency.
    /__stats' held counts the requests held at any time; a client that gave up meanwhile is
    counted abandoned and gets nothing."""
    prefix = req.config.hold_prefix
    if not prefix or not req.url.path.startswith(prefix):
        return next(req)
    req.mock.stats.bump("held")
    while req.mock.settings.current("hold_prefix") == prefix:
        if req.peer_gone():
            req.mock.stats.bump("abandoned")
            return Abandon()
        time.sleep(0.005)
    return next(req)


def offline(req, next):
    return Drop() if dropped(req.config, req.listener) else next(req)


def fail_status(req, next):
    """Every request answered fail_status (with Retry-After: retry_after when set), or only
    the next fail_count ones."""
    c = req.config
    failing = bool(c.fail_status)
    if failing and c.fail_count is not None:
        failing = req.mock.settings.take_failure()
    if failing:
        extra = {"Retry-After": str(c.retry_after)} if c.retry_after else None
        return Answer(int(c.fail_status), b"<h1>failure</h1>", "text/html", extra)
    return next(req)


def random_faults(req, next):
    """One draw per request of every kind but other: fault_500, fault_cut and fault_429 are the
    shares answered 500, cut off halfway through the body, or 429."""
    if req.kind == "other":
        return next(req)
    c = req.config
    draw = req.mock.settings.draw()
    fault = None
    if draw < c.fault_500:
        fault = "500"
    elif draw < c.fault_500 + c.fault_cut:
        fault = "cut"
    elif draw < c.fault_500 + c.fault_cut + c.fault_429:
        fault = "429"
    if fault:
        req.mock.stats.bump("faults", fault)
    if fault == "500":
        return Answer(500, b"<h1>internal error</h1>", "text/html")
    if fault == "429":
        return Answer(429, b"slow down", "text/plain", {"Retry-After": str(c.retry_after or 1)})
    answer = next(req)
    if fault == "cut" and isinstance(answer, Answer):
        answer.cut = True
    return answer


def redirect_sprites(req, next):
    """Sprites answered with a 302 to redirect_sprites + the path (once: not the redirected request)."""
    c = req.config
    if c.redirect_sprites and req.kind in ("sprite", "animated-sprite") and "redirected" not in req.url.query:
        return Answer(302, b"", "text/plain", {"Location": c.redirect_sprites + req.url.path + "?redirected=1"})
    return next(req)


def oversize(req, next):
    """A 200 padded to the size `oversize` names for its kind (a JSON body gets a "padding"
    string and stays valid JSON; an image gets zero bytes); chunked under oversize_no_length."""
    answer = next(req)
    if not isinstance(answer, Answer) or answer.status != 200 or not answer.sizable:
        return answer
    body = answer.body
    size = int((req.config.oversize or {}).get(req.kind, 0))
    if size <= len(body):
        return answer
    if body[:1] == b"{":
        answer.body = body[:-1] + b', "padding": "' + b"x" * (size - len(body)) + b'"}'
    else:
        answer.body = body + b"\0" * (size - len(body))
    answer.chunked = bool(req.config.oversize_no_length)
    return answer


PIPELINE = [count, latency, hold, offline, fail_status, random_faults, redirect_sprites, oversize]


def wrap(steps, endpoint):
    """endpoint(request) behind every step, the first one outermost."""
    handle = endpoint
    for step in reversed(steps):
        handle = (lambda step, inner: lambda req: step(req, inner))(step, handle)
    return handle
