"""The --json shapes the docs show ("`list`: `{"entries":[ENTRY…], …}`", pokectl(1)'s
"JSON: {"id", "name"}", a command's --help), as the keys they name; and the keys of what a
command prints, for compare.py. Maps keyed by data (kind names, stats) are not keys."""
import json
import re


def out(*fields):
    """One record: tab-separated fields, each on one line."""
    print("\t".join(str(f).replace("\t", " ").replace("\n", " ") for f in fields))


# Maps keyed by data (kind names, stat names, types, property names): their keys are not the shape's.
DYNAMIC = {"kinds", "stats", "matchups", "stat_names", "changed"}


def json_keys(value, parent=""):
    """Every key of a parsed JSON value, at any depth, but a data-keyed map's own keys."""
    keys = []
    if isinstance(value, dict):
        for k, v in value.items():
            if parent not in DYNAMIC:
                keys.append(k)
            keys += json_keys(v, k)
    elif isinstance(value, list):
        for v in value:
            keys += json_keys(v, parent)
    return keys


def shape_keys(shape):
    """The keys a JSON shape names. A README shape is JSON once its "…" and ENTRY/KIND are
    filled in; the pages' {"id", "name"} lists are not: there, every string not after a colon."""
    filled = re.sub(r",\s*…(?=[}\]])", "", shape.replace("ENTRY…", "ENTRY"))
    filled = re.sub(r"(?<=[:\[,])\s*…", "null", filled)
    filled = filled.replace("ENTRY", '{"__entry__": 0}').replace("KIND", '"__kind__"')
    try:
        keys = json_keys(json.loads(filled))
    except ValueError:
        keys = [m.group(1) for m in re.finditer(r'(?<!:)(?<!: )"([a-z_]+)"', shape)]
    if "__entry__" in keys:
        keys = [k for k in keys if k != "__entry__"] + ENTRY
    return [k for k in keys if k != "__kind__"]


ENTRY = []


def json_shape(src, cmd, shape, mode="all"):
    out("json", src, cmd, mode, " ".join(dict.fromkeys(shape_keys(shape))))


def readme_json(lines, path):
    """The README's list of --json shapes: "- `list`: `{…}`"; ENTRY defined after it."""
    for line in lines:
        m = re.match(r"where `ENTRY` is `(\{[^`]*\})`", line)
        if m:
            ENTRY.extend(shape_keys(m.group(1)))
    for n, line in enumerate(lines, 1):
        # An item goes on over the indented lines under it.
        for more in lines[n:]:
            if not more.startswith("  ") or not line.startswith("- "):
                break
            line += " " + more.strip()
        m = re.match(r"- ((?:`[a-z ]+`(?:, )?)+)(?: \([^)]*\))?: (.*)", line)
        if not m or "{" not in m.group(2):
            continue
        shape = re.search(r"`(\{[^`]*\})`", m.group(2)).group(1)
        mode = "some" if re.search(r"e\.g\.|every key of", m.group(2)) else "all"
        for cmd in re.findall(r"`([a-z ]+)`", m.group(1)):
            if cmd != "watch":  # one shape per event: not one command's answer
                json_shape(f"{path}:{n}", cmd, shape, mode)


def help_json(cmd, text):
    """A command's --help: its "JSON: {…}" (and "with --random: {…}")."""
    text = " ".join(text.split())
    for m in re.finditer(r"(JSON: (?:every key of[^;{]*; )?(?:with (--[a-z]+): )?|with (--[a-z]+): )(\{.*?\})(?=[.;]? |[.;]?$)", text):
        option = m.group(2) or m.group(3)
        mode = "some" if not option and "every key of" in text[m.start():] else "all"
        json_shape(f"pokectl {cmd} --help", cmd + (" " + option if option else ""), m.group(4), mode)
