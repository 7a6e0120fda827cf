#!/usr/bin/env python3
"""Generates Tests/support/mockapi/evolution-chains.json: every evolution chain of PokeAPI's data, cut
down to what the mock serves back in PokeAPI's own shape (tests/mockapi/mock_pokeapi.py fills in
every key PokeAPI sends as null or false). It holds every trigger kind PokeAPI has, branched
families (Eevee's eight, Wurmple's, Tyrogue's) and three stages, so the service and its tests
meet real families with no network. PokeAPI's data (BSD-3-Clause).

  tools/gen-mock-chains.py DUMP > Tests/support/mockapi/evolution-chains.json

DUMP is PokeAPI's static dump unpacked (the directory holding api/v2/), as for
tools/gen-name-table.py. Each chain is {"id", "chain": LINK}; a LINK is
[species, species_id, [DETAIL…], [LINK…]]; a DETAIL is the entry's keys that are set, resources
by name, "version_group" by id, "base_form" and "evolved_form" (the Pokémon a way starts from and
gives: Galarian Slowpoke's Galarica Cuff gives Galarian Slowbro) as [name, id], and "is_default"
only where it is false (a way of older games).
"""
import glob
import json
import os
import sys


def detail(e):
    out = {}
    for k, v in e.items():
        if k == "is_default":
            if v is False:
                out[k] = False
            continue
        if v is None or v is False or v == "":
            continue
        if k in ("base_form", "evolved_form"):
            out[k] = [v["name"], int(v["url"].rstrip("/").split("/")[-1])]
        elif k == "version_group":
            out[k] = int(v["url"].rstrip("/").split("/")[-1])
        elif isinstance(v, dict):
            out[k] = v["name"]
        else:
            out[k] = v
    return out


def link(n):
    sid = int(n["species"]["url"].rstrip("/").split("/")[-1])
    return [n["species"]["name"], sid, [detail(e) for e in n["evolution_details"]], [link(c) for c in n["evolves_to"]]]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1].rstrip("/")
    if os.path.isdir(os.path.join(root, "api", "v2")):
        root = os.path.join(root, "api", "v2")
    chains = []
    for path in glob.glob(os.path.join(root, "evolution-chain", "*", "index.json")):
        with open(path, encoding="utf-8") as f:
            body = json.load(f)
        chains.append({"id": body["id"], "chain": link(body["chain"])})
    chains.sort(key=lambda c: c["id"])
    sys.stdout.write("[\n" + ",\n".join(json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in chains) + "\n]\n")


main()
