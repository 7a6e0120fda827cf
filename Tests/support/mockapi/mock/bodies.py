"""The JSON bodies, in PokeAPI's shapes: a Pokémon, a species, an evolution chain, /type and
/generation, and the named resources (/ability, /stat, /pokemon-form, /language). `base` is the
scheme and host absolute URLs name; what settings change (total, sprite_base, evil_sprite,
no_sprite) comes in as arguments."""
from .data import (ABILITY_EFFECTS, ABILITY_NAMES, DAMAGE_CLASSES, EGG_GROUPS, FORM_NAMES, FORMS, LANGUAGES, MOVE_TYPES,
                   SPECIES_TEXT, STAT_NAMES, TYPES, TYPE_NAMES)
from .dex import CHAINS, EVERY_GENERA, NO_SPRITE, SPECIES_CHAIN, TABLE_NAMES, TERMS, entries, lookup
from .hostile import hostile_text


def pokemon_body(base, ident, name, config):
    species_id = next((s for i, _, s in FORMS if i == ident), ident)
    types = TYPES.get(ident, ["normal"])
    sprites = config.sprite_base or base
    sprite = f"{sprites}/sprites/{ident}.png"
    if ident == 44 and config.evil_sprite:
        sprite = "http://evil.invalid/sprites/44.png"
    # As PokeAPI draws none of some forms (Partner Eevee, Koraidon's builds): their species' stands in.
    if ident in config.no_sprite or name in NO_SPRITE:
        sprite = None
    return {
        "id": ident, "name": name, "height": 4 + ident % 10, "weight": 60 + ident,
        "base_experience": 112, "order": ident, "is_default": True,
        "forms": [{"name": name, "url": f"{base}/api/v2/pokemon-form/{ident}/"}],
        "types": [{"slot": s + 1, "type": {"name": t, "url": f"{base}/api/v2/type/{s}/"}} for s, t in enumerate(types)][::-1],
        "abilities": [{"ability": {"name": "static", "url": f"{base}/api/v2/ability/9/"}, "is_hidden": False, "slot": 1},
                      {"ability": {"name": "lightning-rod", "url": f"{base}/api/v2/ability/31/"}, "is_hidden": True, "slot": 3}],
        "stats": [{"base_stat": v, "effort": 2 if k == "speed" else 0, "stat": {"name": k, "url": f"{base}/api/v2/stat/{STAT_NAMES[k][0]}/"}}
                  for k, v in [("hp", 35), ("attack", 55), ("defense", 40), ("special-attack", 50),
                               ("special-defense", 50), ("speed", 90)]],
        "sprites": {"front_default": sprite, "back_default": None, "front_shiny": f"{sprites}/sprites/shiny/{ident}.png",
                    "versions": {"generation-v": {"black-white": {"animated": {
                        "front_default": f"{sprites}/sprites/anim/{ident}.gif" if ident < 10000 else None}}}}},
        "species": {"name": name.split("-")[0], "url": f"{base}/api/v2/pokemon-species/{species_id}/"},
        # On the sprite host, as PokeAPI's are on raw.githubusercontent.com; forms have none here.
        "cries": {"latest": f"{sprites}/cries/{ident}.ogg" if ident < 10000 else None, "legacy": None},
        "moves": [{"move": {"name": f"move-{m}", "url": f"{base}/api/v2/move/{m}/"}, "version_group_details": learnt(base, m)}
                  for m in range(1, 25)],
        "held_items": [{"item": {"name": "metal-coat", "url": f"{base}/api/v2/item/233/"}, "version_details": [
            {"rarity": 5, "version": {"name": v, "url": ""}} for v in ("ultra-sun", "ultra-moon")]}] if ident == 25 else [],
    }


def learnt(base, m):
    """How every Pokémon learns move m (the module's MOVE_TYPES note): PokeAPI's version_group_details."""
    def detail(group, method, level=0):
        return {"level_learned_at": level, "move_learn_method": {"name": method, "url": f"{base}/api/v2/move-learn-method/1/"},
                "order": None, "version_group": {"name": group, "url": f"{base}/api/v2/version-group/25/"}}
    if m <= 6:
        return [detail("scarlet-violet", "level-up", 0 if m == 1 else 1 if m == 2 else m * 5), detail("x-y", "level-up", m * 4)]
    method = "machine" if m <= 18 else "egg" if m <= 21 else "tutor"
    return [detail("scarlet-violet", method)] + ([detail("champions", "train")] if m % 8 == 0 else [])


def move_values(ident):
    """A move's type, category, power, accuracy and PP, from its id; every seventh changed in X/Y."""
    category = ["physical", "special", "status"][ident % 3]
    return {"type": {"name": MOVE_TYPES[ident % 6], "url": ""}, "damage_class": {"name": category, "url": ""},
            "power": None if category == "status" else 20 + ident * 5 % 120, "accuracy": None if ident % 5 == 0 else 100,
            "pp": 5 + ident % 8 * 5,
            "past_values": [{"power": 10 + ident, "type": None, "accuracy": None, "pp": None, "effect_chance": None,
                             "effect_entries": [], "version_group": {"name": "x-y", "url": ""}}] if ident % 7 == 0 else []}


def localized(base, texts):
    """{language: text} as PokeAPI lists it: [{"name", "language": {"name", "url"}}], in order."""
    return [{"name": text, "language": {"name": lang, "url": f"{base}/api/v2/language/{LANGUAGES[lang][0]}/"}}
            for lang, text in texts.items()]



# Every key of an evolution_details entry, as PokeAPI sends it when unset.
DETAIL_DEFAULTS = {"base_form": None, "evolved_form": None, "gender": None, "held_item": None, "is_default": True, "item": None,
                   "known_move": None, "known_move_type": None, "location": None, "min_affection": None, "min_beauty": None,
                   "min_damage_taken": None, "min_happiness": None, "min_level": None, "min_move_count": None, "min_steps": None,
                   "near_special_rock": False, "needs_multiplayer": False, "needs_overworld_rain": False, "party_species": None,
                   "party_type": None, "region": None, "relative_physical_stats": None, "time_of_day": "", "trade_species": None,
                   "trigger": None, "turn_upside_down": False, "used_move": None, "version_group": None}
RESOURCE_KINDS = {"held_item": "item", "item": "item", "known_move": "move", "used_move": "move", "known_move_type": "type",
                  "party_type": "type", "location": "location", "party_species": "pokemon-species",
                  "trade_species": "pokemon-species", "region": "region", "trigger": "evolution-trigger"}


def chain_body(base, cid):
    """GET /evolution-chain/{id}: the family in PokeAPI's shape."""
    def link(l):
        name, sid, details, children = l
        out_details = []
        for d in details:
            e = dict(DETAIL_DEFAULTS)
            for k, v in d.items():
                if k == "version_group":
                    e[k] = {"name": f"version-group-{v}", "url": f"{base}/api/v2/version-group/{v}/"}
                elif k in ("base_form", "evolved_form"):
                    e[k] = {"name": v[0], "url": f"{base}/api/v2/pokemon/{v[1]}/"}
                elif k in RESOURCE_KINDS:
                    e[k] = {"name": v, "url": f"{base}/api/v2/{RESOURCE_KINDS[k]}/{v}/"}
                else:
                    e[k] = v
            out_details.append(e)
        return {"evolution_details": out_details, "evolves_to": [link(c) for c in children], "is_baby": False,
                "species": {"name": name, "url": f"{base}/api/v2/pokemon-species/{sid}/"}}
    return {"baby_trigger_item": None, "chain": link(CHAINS[cid]), "id": cid}


def species_body(base, ident, name, hostile=False):
    real = SPECIES_TEXT.get(ident)
    body = {
        "id": ident, "name": name,
        "genera": [{"genus": "ネズミポケモン", "language": {"name": "ja", "url": ""}},
                   {"genus": "Mouse Pokémon" if ident == 25 else f"Test Pokémon {ident}", "language": {"name": "en", "url": ""}}],
        "flavor_text_entries": [
            {"flavor_text": "Old text.", "language": {"name": "en", "url": ""}, "version": {"name": "red", "url": ""}},
            {"flavor_text": "Texte.", "language": {"name": "fr", "url": ""}, "version": {"name": "x", "url": ""}},
            {"flavor_text": "It naps in the sun\nand wakes up to\fchase the wind.", "language": {"name": "en", "url": ""},
             "version": {"name": "shield", "url": ""}}],
        "egg_groups": [{"name": g, "url": f"{base}/api/v2/egg-group/{EGG_GROUPS[g][0]}/"} for g in ("ground", "fairy")],
        "gender_rate": 4, "hatch_counter": 10, "capture_rate": 190, "base_happiness": 70,
        "growth_rate": {"name": "medium", "url": f"{base}/api/v2/growth-rate/2/"},
        "names": [{"name": name.capitalize(), "language": {"name": "en", "url": ""}},
                  {"name": real["names"]["ja-hrkt"] if real else name, "language": {"name": "ja-hrkt", "url": ""}}]
                 + ([{"name": "Glurak", "language": {"name": "de", "url": ""}}] if ident == 6 else []),
    }
    if ident in SPECIES_CHAIN:
        body["evolution_chain"] = {"url": f"{base}/api/v2/evolution-chain/{SPECIES_CHAIN[ident]}/"}
    if ident in TABLE_NAMES:
        body["names"] = localized(base, {k: v for k, v in TABLE_NAMES[ident].items() if k in LANGUAGES})
    if ident in EVERY_GENERA:
        body["genera"] = [{"genus": g, "language": item["language"]}
                          for g, item in zip(EVERY_GENERA[ident].values(), localized(base, EVERY_GENERA[ident]))]
    if real:
        # After the entries above, which stay as they are: the English genus stays the only one
        # and the shield text the last English one; a language already named is not named twice.
        have = {n["language"]["name"] for n in body["names"]}
        body["names"] += localized(base, {k: v for k, v in real["names"].items() if k not in have})
        if ident not in EVERY_GENERA:
            body["genera"] += [{"genus": g, "language": item["language"]}
                               for g, item in zip(real["genera"].values(), localized(base, real["genera"]))]
        body["flavor_text_entries"] += [{"flavor_text": text, "language": item["language"], "version": {"name": version, "url": ""}}
                                        for (version, text), item in zip(real["flavor"].values(), localized(base, real["flavor"]))]
    if hostile:
        for field, items in (("genus", body["genera"]), ("flavor_text", body["flavor_text_entries"]), ("name", body["names"])):
            for k, item in enumerate(items):
                item[field] = hostile_text(item[field], f"species/{ident}/{field}/{k}")
    return body


def filter_body(base, kind, key, total, hostile=False):
    """/type and /generation, shaped like PokeAPI's: lists, a type's pokemon, a generation's species.
    Hostile: a type's or a generation's body gains localized `names`, hostile."""
    body = plain_filter_body(base, kind, key, total)
    if hostile and key:
        body["names"] = [{"name": hostile_text(legit, f"{kind}/{key}/{lang}"), "language": {"name": lang, "url": ""}}
                         for lang, legit in (("en", body["name"].replace("-", " ").title()), ("ja-hrkt", "ポケモン"))]
    return body


def plain_filter_body(base, kind, key, total):
    if kind == "type":
        names = sorted({t for ts in TYPES.values() for t in ts} | {"normal"})
        if not key:
            return {"count": len(names), "results": [{"name": n, "url": f"{base}/api/v2/type/{n}/"} for n in names]}
        ids = [i for i, _ in entries(total) if key in TYPES.get(i, ["normal"])]
        body = {"name": key, "pokemon": [{"pokemon": {"name": lookup(str(i), total)[1], "url": f"{base}/api/v2/pokemon/{i}/"}, "slot": 1} for i in ids]}
        if key in TYPE_NAMES:
            body["names"] = localized(base, TYPE_NAMES[key][1])
        return body
    if not key:
        return {"count": 2, "results": [{"name": "generation-i", "url": f"{base}/api/v2/generation/1/"},
                                        {"name": "generation-iii", "url": f"{base}/api/v2/generation/3/"}]}
    gid = {"generation-i": 1, "generation-iii": 3}.get(key, int(key) if key.isdigit() else 0)
    species = [(i, n) for i, n in entries(total) if i <= 151] if gid == 1 else [(386, "deoxys")]
    return {"id": gid, "name": f"generation-{gid}", "pokemon_species": [{"name": n, "url": f"{base}/api/v2/pokemon-species/{i}/"} for i, n in species]}


def names_body(base, resource, key, total, hostile=False):
    """/ability, /stat, /pokemon-form and /language (see the docstring), and /item, /move,
    /evolution-trigger and /version (their id, name and names: what families name), `key` a name or an id;
    None for an unknown one (a 404). Hostile: every names and form_names entry, hostile."""
    if resource == "language" and not key:
        return {"count": len(LANGUAGES), "results": [{"name": n, "url": f"{base}/api/v2/language/{v[0]}/"}
                                                     for n, v in LANGUAGES.items()]}
    if resource == "pokemon-form":
        found = lookup(key, total)
        if found is None:
            return None
        ident, name = found
        form_name, is_default, names, form_names = FORM_NAMES.get(name, ("", True, {}, {}))
        body = {"id": ident, "name": name, "form_name": form_name, "is_default": is_default,
                "names": localized(base, names), "form_names": localized(base, form_names),
                "pokemon": {"name": name, "url": f"{base}/api/v2/pokemon/{ident}/"}}
    elif resource == "move" and (key.isdigit() and 1 <= int(key) <= 24 or key.startswith("move-")) \
            and not any(key in (n, str(v[0])) for n, v in TERMS["move"].items()):
        ident = int(key.removeprefix("move-")) if key.removeprefix("move-").isdigit() else 0
        if not 1 <= ident <= 24:
            return None
        body = {"id": ident, "name": f"move-{ident}",
                "names": localized(base, {"en": f"Move {ident}", "de": f"Attacke {ident}", "ja-hrkt": f"わざ{ident}"})}
        body.update(move_values(ident))
    elif resource in TERMS:
        table = TERMS[resource]
        name = next((n for n, v in table.items() if key in (n, str(v[0]))), None)
        if name is None:
            return None
        body = {"id": table[name][0], "name": name, "names": localized(base, table[name][1])}
        if resource == "move":
            body.update(move_values(table[name][0]))
    else:
        table = {"ability": ABILITY_NAMES, "stat": STAT_NAMES, "language": LANGUAGES, "move-damage-class": DAMAGE_CLASSES,
                 "egg-group": EGG_GROUPS}[resource]
        name = next((n for n, v in table.items() if key in (n, str(v[0]))), None)
        if name is None:
            return None
        body = {"id": table[name][0], "name": name}
        if resource == "language":
            body.update(zip(("iso639", "iso3166", "official"), table[name][1:4]))
        body["names"] = localized(base, table[name][-1])
        if resource == "ability" and name in ABILITY_EFFECTS:
            short, flavor = ABILITY_EFFECTS[name]
            body["effect_entries"] = [{"effect": t, "short_effect": t, "language": item["language"]}
                                      for t, item in zip(short.values(), localized(base, short))]
            body["flavor_text_entries"] = [{"flavor_text": t, "language": item["language"], "version_group": {"name": "sword-shield", "url": ""}}
                                           for t, item in zip(flavor.values(), localized(base, flavor))]
    if hostile:
        for field in ("names", "form_names"):
            for k, item in enumerate(body.get(field, [])):
                item["name"] = hostile_text(item["name"], f"{resource}/{body['name']}/{field}/{k}")
    return body
