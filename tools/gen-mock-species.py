#!/usr/bin/env python3
"""Generates Tests/support/mockapi/every-species.json: the types of every Pokémon, the genus of every
species and the names of every type, in every language PokeAPI has them, so that the mock's
--every-species serves rows as real as the live API's ("#006 · Fire / Flying · Flame Pokémon",
"Flammen-Pokémon", "かえんポケモン") for the desktop shells' test, and which forms PokeAPI draws
no sprite of. PokeAPI's data (BSD-3-Clause); no sprite, no flavour text.

  tools/gen-mock-species.py DUMP > Tests/support/mockapi/every-species.json

DUMP is PokeAPI's static dump unpacked (the directory holding api/v2/), as for
tools/gen-name-table.py.
"""
import json
import os
import sys


def slim(texts):
    """Without the entries the service reads as their relative anyway: es-419 as es, ja-hrkt as ja."""
    return {lang: t for lang, t in texts.items()
            if not (lang == "es-419" and texts.get("es") == t) and not (lang == "ja-hrkt" and texts.get("ja") == t)}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1].rstrip("/")
    if os.path.isdir(os.path.join(root, "api", "v2")):
        root = os.path.join(root, "api", "v2")

    def get(kind, key=""):
        with open(os.path.join(root, kind, str(key), "index.json"), encoding="utf-8") as f:
            return json.load(f)

    def ids(kind):
        return sorted(int(r["url"].rstrip("/").rsplit("/", 1)[1]) for r in get(kind)["results"])

    types, no_sprite = {}, []
    for pid in ids("pokemon"):
        body = get("pokemon", pid)
        types[pid] = [t["type"]["name"] for t in sorted(body["types"], key=lambda t: t["slot"])]
        if not (body.get("sprites") or {}).get("front_default"):
            no_sprite.append(body["name"])
    genera = {}
    for sid in ids("pokemon-species"):
        body = get("pokemon-species", sid)
        genera[sid] = slim({g["language"]["name"]: g["genus"] for g in body["genera"]})
    type_names = {}
    for tid in ids("type"):
        body = get("type", tid)
        type_names[body["name"]] = slim({n["language"]["name"]: n["name"] for n in body["names"]})
    out = {"types": types, "genera": genera, "type_names": type_names, "no_sprite": no_sprite}
    json.dump(out, sys.stdout, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    sys.stdout.write("\n")


main()
