"""The API's routes: a table of path patterns and the handlers that answer them, the first match
winning; hostile mode's attacks and huge_sprites wrap the routes they replace. classify() names
the kind of a path for /__stats, the random faults and oversize."""
import json, re
from urllib.parse import parse_qs

from .bodies import chain_body, filter_body, names_body, pokemon_body, species_body
from .dex import CHAINS, CRY, entries, lookup
from .exchange import Answer, Endless, not_found
from .hostile import (ENDLESS_ID, GIF_LIE_ID, GZIP_BOMB_ID, HOSTILE_FIRST_ID, HOSTILE_NAMES, OVERSIZED_BYTES,
                      OVERSIZED_ID, PNG_BOMB_ID, gif_lie, gzip_bomb, hostile_json, png_bomb)
from .media import gif, huge_png, png


def classify(path):
    """The kind a path is counted as: by_kind's keys."""
    if path.startswith("/api/v2/pokemon-species/"):
        return "pokemon-species"
    if path.startswith("/api/v2/pokemon/"):
        return "pokemon-list" if path.rstrip("/") == "/api/v2/pokemon" else "pokemon"
    if path.startswith("/api/v2/type") or path.startswith("/api/v2/generation"):
        return "filters"
    if re.match(r"^/api/v2/(ability|stat|pokemon-form|language|item|move|evolution-trigger|version|move-damage-class|egg-group)(/|$)", path):
        return "names"
    if path.startswith("/api/v2/evolution-chain/"):
        return "evolution-chain"
    if path.startswith("/cries/"):
        return "cry"
    if path.startswith("/sprites/anim/"):
        return "animated-sprite"
    if path.startswith("/sprites/"):
        return "sprite"
    return "other"


def dumps(body):
    return json.dumps(body).encode()


def encoder(config):
    """Hostile mode's bodies are raw UTF-8 (see hostile_json)."""
    return hostile_json if config.hostile else dumps


# The handlers: (request, the path's match) → an answer.

def pokemon_list(req, m):
    c = req.config
    q = parse_qs(req.url.query)
    limit = int(q.get("limit", ["20"])[0])
    offset = int(q.get("offset", ["0"])[0])
    all_entries = entries(c.total)
    if c.hostile:
        all_entries = all_entries + [(HOSTILE_FIRST_ID + k, n) for k, n in enumerate(HOSTILE_NAMES)]
    page = [{"name": n, "url": f"{req.base}/api/v2/pokemon/{i}/"} for i, n in all_entries[offset:offset + limit]]
    body = {"count": len(all_entries), "next": None, "previous": None, "results": page}
    return Answer(200, encoder(c)(body))


def filters(req, m):
    c = req.config
    return Answer(200, encoder(c)(filter_body(req.base, m.group(1), m.group(2), c.total, c.hostile)))


def named(req, m):
    c = req.config
    body = names_body(req.base, m.group(1), (m.group(2) or "").lower(), c.total, c.hostile)
    return not_found() if body is None else Answer(200, encoder(c)(body))


def chain(req, m):
    if int(m.group(1)) not in CHAINS:
        return not_found()
    return Answer(200, dumps(chain_body(req.base, int(m.group(1)))))


def pokemon(req, m):
    """/pokemon/{id|name} and /pokemon-species/{id|name} (deoxys, #386, has a species of its own)."""
    c = req.config
    found = lookup(m.group(2).lower(), c.total)
    if m.group(1) == "pokemon-species" and found is None and m.group(2) == "386":
        found = (386, "deoxys")
    if found is None:
        return not_found()
    if m.group(1) == "pokemon":
        return Answer(200, encoder(c)(pokemon_body(req.base, *found, c)))
    return Answer(200, encoder(c)(species_body(req.base, *found, hostile=c.hostile)))


def sprite(req, m):
    i = int(m.group(1))
    return Answer(200, png(((i * 37) % 256, (i * 91) % 256, (i * 53) % 256)), "image/png")


def shiny(req, m):
    """The default sprite's colour, inverted."""
    i = int(m.group(1))
    return Answer(200, png((255 - (i * 37) % 256, 255 - (i * 91) % 256, 255 - (i * 53) % 256)), "image/png")


def animated(req, m):
    return Answer(200, gif(int(m.group(1))), "image/gif")


def cry(req, m):
    """Every cry is the same short synthetic one (cry.ogg: 0.35 s, a rising tone, Vorbis)."""
    return Answer(200, CRY, "audio/ogg")


# What wraps a route: an answer in place of the route's, under a setting.

def transport_attacks(route):
    """Hostile mode, on /pokemon/{id}: #21 padded to 5 MiB, #22 never ends, #23 a gzip bomb;
    none of them gzipped or oversized again."""
    def handle(req, m):
        answer = route(req, m)
        if not req.config.hostile or m.group(1) != "pokemon" or answer.status != 200:
            return answer
        ident, body = lookup(m.group(2).lower(), req.config.total)[0], answer.body
        if ident == OVERSIZED_ID:
            req.mock.stats.bump("hostile", "oversized")
            return Answer(200, body[:-1] + b', "padding": "' + b"x" * OVERSIZED_BYTES + b'"}', compress=False, sizable=False)
        if ident == ENDLESS_ID:
            req.mock.stats.bump("hostile", "endless")
            return Endless(body)
        if ident == GZIP_BOMB_ID:
            req.mock.stats.bump("hostile", "gzip_bomb")
            return Answer(200, gzip_bomb(body), compress=False, sizable=False, extra={"Content-Encoding": "gzip"})
        return answer
    return handle


def image_attack(ident, attack, build, ctype):
    """Hostile mode: sprite `ident` is `build()` (png_bomb, gif_lie) in place of the route's."""
    def wrapper(route):
        def handle(req, m):
            if req.config.hostile and int(m.group(1)) == ident:
                req.mock.stats.bump("hostile", attack)
                return Answer(200, build(), ctype, sizable=False)
            return route(req, m)
        return handle
    return wrapper


def huge_sprites(route):
    """huge_sprites: every PNG sprite, shiny or not, that many pixels each way (before hostile's)."""
    def handle(req, m):
        if req.config.huge_sprites:
            return Answer(200, huge_png(int(req.config.huge_sprites)), "image/png", sizable=False)
        return route(req, m)
    return handle


ROUTES = [(re.compile(pattern), handler) for pattern, handler in [
    (r"^/api/v2/pokemon/+$", pokemon_list),
    (r"^/api/v2/(type|generation)/?([^/]*)/?$", filters),
    (r"^/api/v2/(ability|stat|pokemon-form|language|item|move|evolution-trigger|version|move-damage-class|egg-group)(?:/([^/]*)/?)?$", named),
    (r"^/api/v2/evolution-chain/(\d+)/?$", chain),
    (r"^/api/v2/(pokemon|pokemon-species)/([^/]+)/?$", transport_attacks(pokemon)),
    (r"^/sprites/(\d+)\.png$", huge_sprites(image_attack(PNG_BOMB_ID, "png_bomb", png_bomb, "image/png")(sprite))),
    (r"^/sprites/shiny/(\d+)\.png$", huge_sprites(shiny)),
    (r"^/cries/(\d+)\.ogg$", cry),
    (r"^/sprites/anim/(\d+)\.gif$", image_attack(GIF_LIE_ID, "gif_lie", lambda: gif_lie(GIF_LIE_ID), "image/gif")(animated)),
]]


def route(req):
    """The first route whose pattern matches the path answers; none: 404."""
    for pattern, handler in ROUTES:
        m = pattern.match(req.url.path)
        if m:
            return handler(req, m)
    return not_found()
