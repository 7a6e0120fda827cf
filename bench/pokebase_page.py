#!/usr/bin/env python3
"""The reference: a page as PokeAPI's Python client, pokebase, browses it.

A page is what a mobile Pokédex shows: the list, then for 20 entries the pokemon and
species resources and the default sprite, through pokebase's API layer with its own disk
caches (shelve for JSON, files for sprites). pokebase's object layer (pb.pokemon) would also
resolve every nested resource (abilities, moves…), which the stand-in does not serve.
Prints cold and warm timings of one page.
Usage: pokebase_page.py STANDIN_URL CACHE_DIR PAGE
STANDIN_URL "real": the live names, https://pokeapi.co and raw.githubusercontent.com, as under
../shared/pokeapi/real-hosts (pokebase's own default base is plain http).
"""
import sys, time

from pokebase import api, cache, common

standin, cache_dir, page = sys.argv[1], sys.argv[2], int(sys.argv[3])
if standin == "real":
    common.BASE_URL = "https://pokeapi.co/api/v2"
    common.SPRITE_URL = "https://raw.githubusercontent.com/PokeAPI/sprites/master/sprites"
else:
    common.BASE_URL = standin + "/api/v2"
    common.SPRITE_URL = standin + "/raw/PokeAPI/sprites/master/sprites"
cache.set_cache(cache_dir)


def browse(page):
    entries = api.get_data("pokemon")["results"][page * 20: page * 20 + 20]
    for e in entries:
        i = int(e["url"].rstrip("/").rsplit("/", 1)[1])
        api.get_data("pokemon", i)
        api.get_data("pokemon-species", i)
        api.get_sprite("pokemon", i)


t = time.perf_counter(); browse(page); cold = time.perf_counter() - t
t = time.perf_counter(); browse(page); warm = time.perf_counter() - t
print(f"cold_ms={cold * 1000:.1f} warm_ms={warm * 1000:.1f}")
