#!/usr/bin/env python3
"""Generates Tests/support/mockapi/evolution-terms.json: the names, in every language PokeAPI has, of what
an evolution condition names and the card says in words: every item and move the evolution
chains name, every evolution trigger and every game (`version`). The mock serves them as
/item/, /move/, /evolution-trigger/ and /version/ bodies, and the unit tests read them to check
that a family is told in the games' words. PokeAPI's data (BSD-3-Clause).

  tools/gen-mock-terms.py DUMP > Tests/support/mockapi/evolution-terms.json

DUMP is PokeAPI's static dump unpacked (the directory holding api/v2/), as for
tools/gen-mock-chains.py. The file is {KIND: {NAME: [ID, {LANGUAGE: TEXT}]}}, each kind's names
sorted.
"""
import glob
import json
import os
import sys


def chain_terms(root):
    """The items and moves any evolution chain names."""
    found = {"item": set(), "move": set()}

    def link(n):
        for d in n["evolution_details"]:
            for key, kind in (("item", "item"), ("held_item", "item"), ("known_move", "move"), ("used_move", "move")):
                if d.get(key):
                    found[kind].add(d[key]["name"])
        for c in n["evolves_to"]:
            link(c)

    for path in glob.glob(os.path.join(root, "evolution-chain", "*", "index.json")):
        with open(path, encoding="utf-8") as f:
            link(json.load(f)["chain"])
    return found


def names(root, kind, key):
    """[id, {language: name}] of one resource, by its name or id."""
    path = os.path.join(root, kind, str(key), "index.json")
    if not os.path.exists(path):
        listing = json.load(open(os.path.join(root, kind, "index.json"), encoding="utf-8"))["results"]
        key = next(r["url"].rstrip("/").split("/")[-1] for r in listing if r["name"] == key)
        path = os.path.join(root, kind, str(key), "index.json")
    with open(path, encoding="utf-8") as f:
        body = json.load(f)
    return body["name"], [body["id"], {n["language"]["name"]: n["name"] for n in body["names"]}]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1].rstrip("/")
    if os.path.isdir(os.path.join(root, "api", "v2")):
        root = os.path.join(root, "api", "v2")
    wanted = chain_terms(root)
    out = {}
    for kind in ("item", "move"):
        out[kind] = dict(sorted(names(root, kind, n) for n in wanted[kind]))
    for kind in ("evolution-trigger", "version"):
        ids = sorted(int(d) for d in os.listdir(os.path.join(root, kind)) if d.isdigit())
        out[kind] = dict(sorted(names(root, kind, i) for i in ids))
    lines = []
    for kind, entries in out.items():
        rows = [f"  {json.dumps(n)}: {json.dumps(v, ensure_ascii=False, separators=(',', ':'))}" for n, v in entries.items()]
        lines.append(f" {json.dumps(kind)}: {{\n" + ",\n".join(rows) + "\n }")
    sys.stdout.write("{\n" + ",\n".join(lines) + "\n}\n")


main()
