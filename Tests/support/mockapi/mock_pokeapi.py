#!/usr/bin/env python3
"""A small PokeAPI look-alike for pokedexd's own tests (standard library only).

It serves hand-written bodies shaped like PokeAPI's for a few dozen Pokémon:
  GET /api/v2/pokemon/?offset=&limit=      the list (count, next, previous, results)
  GET /api/v2/pokemon/{id|name}/           a pokemon body; its "forms" names /pokemon-form/{id}/ (the
                                           Pokémon's own id), its stats' URLs the real stat ids; its moves
                                           1–24 (by level-up in scarlet-violet and x-y, machines, eggs,
                                           tutors, and Champions' roster), 2 speed EVs, Lightning Rod hidden;
                                           #25 holds a Metal Coat in Ultra Sun/Ultra Moon
  GET /api/v2/pokemon-species/{id|name}/   a species body (genus, flavour text with \\f and \\n): English
                                           genus "Mouse Pokémon" (#25) or "Test Pokémon {id}", ja genus
                                           "ネズミポケモン", English flavour text, the newest ("It naps in
                                           the sun…", shield) the last English entry, en and ja-hrkt names (de
                                           "Glurak" for #6). For the species in SPECIES_TEXT (1, 3, 4, 6, 7, 25,
                                           26, 29, 386) also the real names in ko, zh-hant, fr, de, ja,
                                           zh-hans (ja-hrkt real too), genera, and a flavour text of the
                                           project's own in de and ja-hrkt, appended after those
  GET /api/v2/type/ and /api/v2/generation/   the lists; /type/{name}/ (a type's pokemon, and the real
                                           `names` in every language for the types in TYPES and normal),
                                           /generation/{id|name}/ (its species)
  GET /api/v2/ability/{id|name}/           {id, name, names, effect_entries, flavor_text_entries} for static
                                           (9) and lightning-rod (31), their real texts
  GET /api/v2/move/{id}/                   moves 1–24 (and those families name): names, type, damage_class,
                                           power, accuracy, pp from the id, every seventh's past_values (x-y)
  GET /api/v2/{move-damage-class|egg-group}/{name}/   {id, name, names}: the three categories; ground, fairy
  (a species body: egg groups ground and fairy, gender 4, 10 egg cycles, catch rate 190, friendship 70, medium)
  GET /api/v2/stat/{id|name}/              {id, name, names} for hp (1), attack, defense,
                                           special-attack, special-defense, speed (6)
  GET /api/v2/pokemon-form/{id|name}/      {id, name, form_name, is_default, names, form_names, pokemon:
                                           {name, url}} for every Pokémon the list has, its id the
                                           Pokémon's: the real names for the forms in FORMS (deoxys-attack,
                                           venusaur-mega), empty lists for the default forms
  GET /api/v2/evolution-chain/{id}/        every real family (evolution-chains.json, tools/gen-mock-chains.py:
                                           every trigger kind, Eevee's eight branches, three stages, each
                                           way's base_form, evolved_form and is_default) in PokeAPI's shape,
                                           every detail key present; a species body names its chain
                                           (`evolution_chain`) for every species of the file
  GET /api/v2/{item|move|evolution-trigger|version}/{id|name}/
                                           {id, name, names}: what families name, in every language PokeAPI
                                           has (evolution-terms.json, tools/gen-mock-terms.py)
  GET /api/v2/language/                    {count, results: [{name, url}]}: PokeAPI's 14 languages
  GET /api/v2/language/{id|name}/          {id, name, iso639, iso3166, official, names}
  (`names` and `form_names` are PokeAPI's [{name, language: {name, url}}], real texts from pokeapi.co's
  data kept in this file; an unknown ability, stat, form or language is a 404, as any unknown is.)
  GET /sprites/{id}.png                    a real 8x8 PNG, one colour per id
  GET /sprites/anim/{id}.gif               a real 2-frame 8x8 GIF (forms past 10000 have none)
  GET /sprites/shiny/{id}.png              the shiny sprite: 8x8, the default's colour inverted
  GET /cries/{id}.ogg                      the cry a pokemon body names (`cries.latest`, on the sprite host;
                                           forms name none): every one cry.ogg, 0.35 s of a rising tone in Ogg
                                           Vorbis (tools/gen-mock-cry.py: 660 to 1,320 Hz, oggenc -q 0)
with ETag / If-None-Match (304), Cache-Control max-age, gzip when asked, keep-alive.
Absolute URLs in bodies use the request's Host header: http://HOST, or https://HOST when the
mock serves TLS itself (--tls-cert) or the request says X-Forwarded-Proto: https (a TLS front
such as Tests/support/mockapi/h2-front.sh sends it).

Control (not PokeAPI):
  POST /__control  JSON: latency_ms, latency_prefix (only paths starting with it are
                   delayed), offline (close every connection unanswered), fail_status
                   (answer every API request with it), max_age, evil_sprite (name a sprite
                   on a host outside any allowlist for #44), retry_after, fail_count (with
                   fail_status: only the next N API requests fail, then it answers again;
                   null, the default: every request fails), total (list this many Pokémon,
                   inventing mon-N past the real names: 1351 gives PokeAPI's 68 pages),
                   fault_500 / fault_cut / fault_429 (the share of requests answered 500, cut
                   off halfway through the body, or 429 with Retry-After: retry_after or 1),
                   seed (for those draws), redirect_sprites (answer sprite requests with a
                   302 to this base URL + the path), sprite_base (default "": when set, bodies
                   name their sprites at sprite_base/sprites/{id}.png and
                   sprite_base/sprites/anim/{id}.gif: the second listener, another host name,
                   or one that does not answer; evil_sprite still wins for #44),
                   sprite_host_offline (default false: the second listener closes every
                   connection unanswered; the first one is unaffected),
                   oversize (default {}: {kind: bytes}, kind as in by_kind: pokemon,
                   pokemon-species, pokemon-list, filters, names, sprite, animated-sprite; a JSON body
                   gets a "padding" string so that, uncompressed, it is at least that many bytes
                   and still valid JSON; an image gets zero bytes after it; Content-Length is
                   honest), oversize_no_length (default false: send those padded bodies chunked,
                   with no Content-Length), cache_control (default "": the whole Cache-Control
                   value, verbatim, on 200 and 304 alike), huge_sprites (default 0: when
                   set, every /sprites/N.png and /sprites/shiny/N.png is a valid PNG of that
                   many pixels each way, one colour, built once: 4096 is ~64 KB on the wire
                   and 64 MB of pixels; --huge-sprites starts with 4096), hold_prefix
                   (default "": a request for a path starting with it waits unanswered until
                   hold_prefix is set to anything else; /__stats' held counts them); max_age is written verbatim into
                   "public, max-age=VALUE" too: a string ("inf", "nan", "-1", "1e9", "abc") as
                   it is, a number as the JSON spelled it
  GET  /__stats    JSON: by_kind counts (pokemon-list, pokemon, pokemon-species, filters: /type and
                   /generation, names: /ability, /stat, /pokemon-form and /language, evolution-chain, sprite,
                   animated-sprite, cry, other; every kind but other can draw a fault_*), requests,
                   gzip, not_modified, connections, user_agents, if_none_match, faults (by kind), abandoned, held (requests hold_prefix held), by_listener ({api,
                   sprites}: requests each listener took), in_flight (GETs being answered now,
                   control and stats requests aside) and max_in_flight (the most at once since
                   the last reset)
  POST /__stats/reset  every count to 0; in_flight stays the live count of requests still
                   being answered, and max_in_flight starts again from 0

Hostile mode (--hostile, or POST /__control {"hostile": true}; default off, and nothing changes
while it is off): a server that trusts nothing plays against one. It serves
  * Text: every human text field (species genus, flavour text and localized names, in every
    language; the `names` and `form_names` of /ability, /stat, /pokemon-form and /language
    bodies; the `names` of a /type/{name} and /generation/{id} body, which in this mode are en
    and ja-hrkt ones of its own, in place of a type's real ones) is
    legit text wrapped in EVERY payload of HOSTILE_PAYLOADS, rotated per field (the first payload
    before the legit text, the others after it): OSC 52 clipboard write, ESC[2J, C1 CSI U+009B,
    BEL, RLO U+202E, isolate U+2066, BS, DEL, "\\n<0>forged", conky ${exec …}, polybar
    %{A1:…:}x%{A}, Pango <b>/<span>/&, "&amp;". The legit text stays whole in the middle
    ("Mouse Pokémon", "ネズミポケモン", "Pikachu", "ピカチュウ" for #25), and must survive.
    Bodies are raw UTF-8 (C1, DEL and bidi characters unescaped; C0 as JSON \\u escapes):
    valid JSON.
  * Names: API `name` fields of real entries stay valid. The list (/api/v2/pokemon/) ends with
    HOSTILE_NAMES at ids 99001.. (past any real id; those ids answer 404), `count` included:
    ESC[2J, ../../etc/passwd, 300 × "a", Pika<b>, conky and polybar syntax, a newline, an RLO.
  * Cache-Control "public, max-age=X" on every API and sprite answer (200 and 304), X by the
    Pokémon id the path names (a number, or a name looked up; the same for /pokemon/N,
    /pokemon-species/N, /sprites/N.png, /sprites/anim/N.gif): id % 4 == 0: -1, 1: inf (#25),
    2: nan (#26), 3: 99999999999999999999; a path with no id (list, /type, /generation, and
    /ability, /stat, /pokemon-form, /language): inf.
    An explicit cache_control setting still wins.
  * Transport attacks, on GET /api/v2/pokemon/{id|name}/ (their species stay hostile-text only):
      #21 spearow  oversized: valid JSON padded to 5 MiB, never gzipped, honest Content-Length
      #22 fearow   never ends: chunked, a valid JSON start then 1 KiB of padding every 0.1 s,
                   until the client goes away (checked on every chunk) or 10 minutes pass
      #23 ekans    gzip bomb: Content-Encoding: gzip whatever was asked, ~1 MB on the wire that
                   inflates to 1 GiB + the body (spaces inside the JSON: still valid), built
                   once, block by block
    and on sprites:
      #24 arbok    /sprites/24.png: a PNG whose IHDR claims 100000×100000 RGBA (valid
                   signature and CRCs, one row of data, ~1 KB)
      #26 raichu   /sprites/anim/26.gif: logical screen 8×8; frame 1's descriptor claims
                   65535×65535 with 64 pixels of data; frame 2 sits at (60000, 60000), claims
                   8×8 and carries 4096 pixels (structurally valid: blocks and trailer)
    Every other id, pikachu (#25) and the first page (1-20) included, answers hostile text in
    otherwise valid bodies and sprites. /__stats gains "hostile": how many of each attack were
    served (oversized, endless, endless_gone (the client left), gzip_bomb, png_bomb, gif_lie).
Usage: mock_pokeapi.py --port 0 --port-file FILE [--sprite-port-file FILE] [--tls-cert PEM] [--hostile] [--huge-sprites]
  --every-species: list every species and form of the project's bundled name table, with their
  names (Sources/PokedexCore/Search/BundledNamesTable.swift, every-species.json).
  --port-file: the port, written atomically once the listener is open.
  --sprite-port-file: a second listener (same answers, settings and stats) on 127.0.0.1 on a
  free port, written atomically to FILE, for a sprite host of its own: set sprite_base to
  http://localhost:THAT_PORT (another host name than 127.0.0.1).

The code is in mock/: state.py (the settings and the counts), faults.py (the middleware every
API GET goes through: counting, latency, offline, fail_status, fault_*, redirect_sprites,
oversize), routes.py (the route table; hostile mode's attacks and huge_sprites wrap their
routes), server.py (control endpoints, writing answers), bodies.py, dex.py, data.py, media.py
and hostile.py (what the answers hold). Tests/support/mockapi/mock_test.py checks every answer against
a golden record.
"""
import argparse

from mock import dex, server, state
# What scripts import from here: examples-test.sh HOSTILE_PAYLOADS, bench/search-providers huge_png.
from mock.hostile import HOSTILE_PAYLOADS  # noqa: F401
from mock.media import huge_png  # noqa: F401


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file")
    ap.add_argument("--tls-cert", help="serve HTTPS with this certificate (PEM, key included)")
    ap.add_argument("--sprite-port-file", help="open a second listener and write its port here")
    ap.add_argument("--hostile", action="store_true", help='start in hostile mode (as {"hostile": true})')
    ap.add_argument("--huge-sprites", action="store_true", help='serve 4096×4096 sprites (as {"huge_sprites": 4096})')
    ap.add_argument("--every-species", action="store_true",
                    help="list every species and form of the project's bundled name table, with their names")
    args = ap.parse_args()
    if args.every_species:
        dex.list_every_species()
    mock = state.Mock()
    mock.settings.update({"hostile": args.hostile})
    if args.huge_sprites:
        mock.settings.update({"huge_sprites": 4096})
    server.serve(mock, args.port, args.port_file, args.tls_cert, args.sprite_port_file)


if __name__ == "__main__":
    main()
