"""One GET as the routes and the middleware see it, and what they give back: an answer, or a way
of not answering. The server (server.py) writes it."""
import dataclasses
from urllib.parse import urlsplit


class Request:
    """A GET the API answers. `config` is set by the counting middleware, when the request is
    counted; `on_done` callbacks run once its answer is written (or abandoned, or failed)."""

    def __init__(self, handler, mock, kind):
        self.url = urlsplit(handler.path)
        self.headers = handler.headers
        self.listener = getattr(handler.server, "listener", "api")
        self.kind = kind
        self.mock = mock
        self.config = None
        self.peer_gone = handler.peer_gone
        self.base = handler.base()
        self.on_done = []


@dataclasses.dataclass
class Answer:
    """An HTTP answer. 200s get an ETag (304 when If-None-Match has it), Cache-Control, and gzip
    when asked and `compress`; `sizable`: oversize may pad it; `chunked`: sent with no
    Content-Length; `cut`: half the body, then the connection closed (fault_cut)."""
    status: int
    body: bytes = b""
    ctype: str = "application/json"
    extra: dict = None
    compress: bool = True
    sizable: bool = True
    chunked: bool = False
    cut: bool = False


@dataclasses.dataclass
class Endless:
    """A chunked 200 that never ends (hostile #22): `body` without its last brace, then padding."""
    body: bytes


class Drop:
    """Close the connection unanswered: shut down both ways (offline)."""


class Abandon:
    """Say nothing more: the client already left (it cancelled while the answer waited)."""


def not_found():
    return Answer(404, b"Not Found", "text/plain")
