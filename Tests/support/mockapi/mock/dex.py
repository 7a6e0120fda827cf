"""The Pokédex the mock serves: which Pokémon exist (the real ones, mon-N up to `total`, the
forms), how a name or an id is looked up, and the files beside the mock: the evolution chains,
the cry, and --every-species' table."""
import json, os, re

from .data import FORMS, NAMES, TYPES, TYPE_NAMES

# Tests/support/mockapi, where the mock's files are.
FILES = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def entries(total):
    """(id, name) of every Pokémon the list has: the real ones, mon-N up to `total`, the forms."""
    real = [(i + 1, n) for i, n in enumerate(NAMES)]
    invented = [(i, f"mon-{i}") for i in range(len(NAMES) + 1, total - len(FORMS) + 1)]
    return real + invented + [(i, n) for i, n, _ in FORMS]


def lookup(key, total):
    m = re.match(r"^mon-(\d+)$", key)
    if m or key.isdigit():
        i = int(m.group(1) if m else key)
        if len(NAMES) < i <= total - len(FORMS):
            return i, f"mon-{i}"
    for i, n in entries(total)[:len(NAMES)] + [(i, n) for i, n, _ in FORMS]:
        if key == str(i) or key == n:
            return i, n
    return None


def path_id(path, total):
    """The Pokémon id a path names (a number, or a name looked up), or None."""
    m = re.match(r"^/(?:api/v2/(?:pokemon|pokemon-species)|sprites(?:/anim|/shiny)?)/([^/.]+)(?:\.png|\.gif)?/?$", path)
    if not m:
        return None
    key = m.group(1).lower()
    if key.isdigit():
        return int(key)
    found = lookup(key, total)
    return found[0] if found else None


# Every family, from PokeAPI's data (tools/gen-mock-chains.py): chain id → its first link.
with open(os.path.join(FILES, "evolution-chains.json"), encoding="utf-8") as _f:
    CHAINS = {c["id"]: c["chain"] for c in json.load(_f)}
# The names of what families name (tools/gen-mock-terms.py): kind → name → [id, {language: text}].
with open(os.path.join(FILES, "evolution-terms.json"), encoding="utf-8") as _f:
    TERMS = json.load(_f)
with open(os.path.join(FILES, "cry.ogg"), "rb") as _f:
    CRY = _f.read()
SPECIES_CHAIN = {}
def _index_chain(cid, link):
    SPECIES_CHAIN[link[1]] = cid
    for child in link[3]:
        _index_chain(cid, child)
for _cid, _link in CHAINS.items():
    _index_chain(_cid, _link)

# Names from the project's bundled table, by id, when --every-species lists every species.
TABLE_NAMES = {}


def list_every_species():
    """NAMES and FORMS become every species and form of Sources/…/BundledNamesTable.swift (the
    project's own copy of PokeAPI's names), with their names in every language, for the desktop
    shells' test: "pika" finds Pikachu, Tadbulb (ズピカ), Pikipek, Raichu and Pichu."""
    table = os.path.join(FILES, "../../../Sources/PokedexCore/Search/BundledNamesTable.swift")
    text = open(table, encoding="utf-8").read()
    columns = re.search(r"static let columns: \[String\] = \[(.*?)\]", text).group(1).replace('"', "").split(", ")
    rows = text.split('#"""\n', 1)[1].split('\n"""#', 1)[0].split("\n")
    species, forms = [], []
    for row in rows:
        ident, sid, identifier, *names = row.split("\t")
        ident, sid = int(ident), int(sid)
        TABLE_NAMES[ident] = {lang: name or names[0] for lang, name in zip(columns, names + [""] * len(columns))}
        if ident == sid:
            species.append((ident, identifier))
        else:
            forms.append((ident, identifier, sid))
    assert [i for i, _ in species] == list(range(1, len(species) + 1))
    NAMES[:] = [n for _, n in species]
    FORMS[:] = forms
    # Rows as real as the live API's: every Pokémon's types, every species' genus and every
    # type's names in every language (every-species.json, tools/gen-mock-species.py).
    with open(os.path.join(FILES, "every-species.json"), encoding="utf-8") as f:
        data = json.load(f)
    TYPES.update({int(i): t for i, t in data["types"].items()})
    NO_SPRITE.update(data["no_sprite"])
    EVERY_GENERA.update({int(i): g for i, g in data["genera"].items()})
    for n, (name, names) in enumerate(sorted(data["type_names"].items())):
        TYPE_NAMES.setdefault(name, (100 + n, names))


# Every species' genus by language, and the forms PokeAPI draws no sprite of, with --every-species.
EVERY_GENERA = {}
NO_SPRITE = set()
