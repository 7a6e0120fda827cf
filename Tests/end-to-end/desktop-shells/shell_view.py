#!/usr/bin/python3
"""What a shell showed of pokedexd, read back from dbus-monitor's record of its calls and of
pokedexd's replies (method calls and returns, `dbus-monitor --session` with both match rules).

  shell_view.py gnome --shell UNIQUE --service UNIQUE < monitor.log
  shell_view.py krunner --shell UNIQUE --service UNIQUE < monitor.log

gnome: GNOME Shell keeps the answer to the search it called last (the earlier ones are
cancelled on its side) and asks a row's metas once (js/ui/search.js): the rows it shows are the
first five of that answer, each with the first meta it got for it. Prints JSON:
  {"calls": ["GetInitialResultSet(pika)", …], "results": ["25", …],
   "rows": [{"id", "name", "description", "icon": "file"|"themed"}, …]}
krunner: the answer to its last Match, each row as KRunner drew it, and its Actions:
  {"calls": […], "query": "pika", "rows": [{"id", "text", "subtext", "icon_data": bool}], "actions": […]}
"""
import json
import re
import sys

HEADER = re.compile(r"^(method call|method return|error|signal) .*?sender=(\S+) -> (?:destination=)?(\S+)"
                    r"(?: serial=(\d+))?(?: reply_serial=(\d+))?(?: path=[^;]*; interface=([^;]+); member=(\S+))?")


def messages(lines):
    """Each message: (kind, sender, destination, serial, reply_serial, interface, member, body lines)."""
    current = None
    for line in lines:
        if line.startswith(" ") or not line.strip():
            if current is not None:
                current[-1].append(line.rstrip("\n"))
            continue
        if current is not None:
            yield current
        m = HEADER.match(line)
        current = list(m.groups()) + [[]] if m else None
    if current is not None:
        yield current


def parse(body):
    """dbus-monitor's dump of a message's arguments as Python values (a struct and a dict entry
    as lists, an array of bytes as bytes)."""
    tokens = [l.strip() for l in body if l.strip()]
    pos = 0

    def value():
        nonlocal pos
        t = tokens[pos]
        pos += 1
        if t.startswith("variant"):
            t = t[len("variant"):].strip()
        if t.startswith("string "):
            return t[t.index('"') + 1:t.rindex('"')]
        if t.startswith(("int32 ", "uint32 ", "int64 ", "uint64 ", "int16 ", "uint16 ", "byte ")):
            return int(t.split()[1])
        if t.startswith("double "):
            return float(t.split()[1])
        if t.startswith("boolean "):
            return t.split()[1] == "true"
        if t.startswith("array of bytes"):
            if t.endswith("]") or '"' in t:
                return b"?"
            data = b""
            while tokens[pos] != "]":
                data += bytes(int(x, 16) for x in tokens[pos].split())
                pos += 1
            pos += 1
            return data
        if t in ("array [", "struct {", "dict entry("):
            end = {"array [": "]", "struct {": "}", "dict entry(": ")"}[t]
            out = []
            while tokens[pos] != end:
                out.append(value())
            pos += 1
            return out
        if t == "array [\n]" or t == "array []":
            return []
        raise ValueError(f"unknown token {t!r}")

    out = []
    while pos < len(tokens):
        out.append(value())
    return out


def exchanges(lines, shell, service):
    """The shell's calls to the service, each with the service's reply (None when none came)."""
    calls, replies = [], {}
    for kind, sender, dest, serial, reply_serial, iface, member, body in messages(lines):
        if kind == "method call" and sender == shell and iface in ("org.gnome.Shell.SearchProvider2", "org.kde.krunner1"):
            calls.append({"serial": serial, "member": member, "args": parse(body)})
        elif kind == "method return" and sender == service and dest == shell:
            replies[reply_serial] = parse(body)
    for c in calls:
        c["reply"] = replies.get(c["serial"])
    return calls


def shown(args):
    """A call's arguments on one line; a long list keeps its head and says how many more."""
    def one(a):
        if isinstance(a, list):
            items = [one(x) for x in a]
            return "[" + ", ".join(items if len(items) <= 8 else items[:6] + [f"… {len(items) - 6} more"]) + "]"
        return str(a)
    return ", ".join(one(a) for a in args)


def gnome(calls):
    searches = [c for c in calls if c["member"] in ("GetInitialResultSet", "GetSubsearchResultSet")]
    results = [str(x) for x in (searches[-1]["reply"] or [[]])[0]] if searches else []
    first_meta = {}
    for c in calls:
        if c["member"] != "GetResultMetas" or not c["reply"]:
            continue
        for meta in c["reply"][0]:
            d = {entry[0]: entry[1] for entry in meta}
            icon = d.get("icon")
            row = {"id": d.get("id"), "name": d.get("name"), "description": d.get("description"),
                   "icon": icon[0] if isinstance(icon, list) and icon else None}
            first_meta.setdefault(row["id"], row)
    return {"calls": [f"{c['member']}({shown(c['args'])})" for c in calls], "results": results,
            "rows": [first_meta.get(i, {"id": i, "missing": True}) for i in results[:5]]}


def krunner(calls):
    matches = [c for c in calls if c["member"] == "Match" and c["reply"] is not None]
    actions = [c for c in calls if c["member"] == "Actions" and c["reply"] is not None]
    rows = []
    if matches:
        for m in matches[-1]["reply"][0]:
            props = {entry[0]: entry[1] for entry in m[5]}
            rows.append({"id": m[0], "text": m[1], "subtext": props.get("subtext", ""), "icon_data": "icon-data" in props})
    return {"calls": [f"{c['member']}({shown(c['args'])})" for c in calls], "query": matches[-1]["args"][0] if matches else None,
            "rows": rows, "actions": [a[1] for a in actions[-1]["reply"][0]] if actions else []}


def main(argv):
    what, opts = argv[1], dict(zip(argv[2::2], argv[3::2]))
    calls = exchanges(sys.stdin, opts["--shell"], opts["--service"])
    print(json.dumps(gnome(calls) if what == "gnome" else krunner(calls), ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv)
