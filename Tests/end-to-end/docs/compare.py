#!/usr/bin/env python3
"""The docs' facts against the live service and the binaries' own help, for docs-test.sh.
Reads extract.py's records on stdin; prints one line per check: "ok WHAT" or "FAIL WHAT".

  compare.py members INTROSPECTION.xml        D-Bus members, signatures, properties' change
  compare.py keys REPLIES.json                each a{sv} reply's keys named in its entry
  compare.py daemon HELP.txt STATUS.json      pokedexd's options, variables and defaults
  compare.py json OUTPUTS.json                --json shapes against what each command prints"""
import json
import re
import sys
import xml.etree.ElementTree as ET

records = [line.rstrip("\n").split("\t") for line in sys.stdin if line.strip()]


def say(good, what):
    print(("ok   " if good else "FAIL ") + what)


def members(path):
    iface = next(i for i in ET.parse(path).getroot() if i.get("name") == "io.github.pokedexd.Pokedex1")
    live = {}
    for m in iface:
        if m.tag == "method":
            ins = "".join(a.get("type") for a in m if a.tag == "arg" and a.get("direction", "in") == "in")
            outs = "".join(a.get("type") for a in m if a.tag == "arg" and a.get("direction") == "out")
            live[m.get("name")] = ("method", ins, outs, "")
        elif m.tag == "signal":
            live[m.get("name")] = ("signal", "".join(a.get("type") for a in m if a.tag == "arg"), "", "")
        elif m.tag == "property":
            flag = next((a.get("value") for a in m if a.tag == "annotation"
                         and a.get("name") == "org.freedesktop.DBus.Property.EmitsChangedSignal"), "true")
            change = {"true": "emits-change", "const": "const"}.get(flag, "-")
            live[m.get("name")] = ("property", "", m.get("type"), change)
    documented = {}
    for r in records:
        if r[0] != "member":
            continue
        _, src, kind, name, ins, outs, change = r
        documented.setdefault(src.split(":")[0], set()).add(name)
        if name not in live:
            say(False, f"{src}: {kind} {name} is documented but the service has no such member")
            continue
        want = live[name]
        got = (kind, ins, outs, change) if kind != "signal" else (kind, ins, "", "")
        if kind == "property":
            got = (kind, "", outs, change)
        shown = lambda t: " ".join(f"{label}={v}" for label, v in zip(("in", "out", "change"), t[1:]) if v)
        say(got == want, f"{src}: {kind} {name} ({shown(got)}) matches introspection" + ("" if got == want else f" (live: {shown(want)})"))
    for doc, names in sorted(documented.items()):
        missing = sorted(set(live) - names)
        say(not missing, f"{doc}: documents every member of the interface" + (f" (missing: {', '.join(missing)})" if missing else ""))


def keys(path):
    data = json.load(open(path))
    replies, also = data["replies"], data["also"]
    entries = {}
    for r in records:
        if r[0] == "keys":
            entries.setdefault(r[2], []).append((r[1], set(r[3].split())))
    for member, reply in replies.items():
        for src, words in entries.get(member, []):
            # "As Search, with …", "Detail in a language": the other member's keys come with it.
            for other, inherited in {**replies, **also}.items():
                if other != member and other in words:
                    words |= set(inherited)
            missing = sorted(k for k in reply if k not in words)
            say(not missing, f"{src}: {member}'s entry names every key of its reply" + (f" (not named: {', '.join(missing)})" if missing else ""))


def daemon(help_path, status_path):
    text = open(help_path).read()
    options = {}
    for m in re.finditer(r"^  (-\w, )?(--[\w/-]+)[^\n]*\n((?:(?!  -)[^\n]*\n)*)", text.split("OPTIONS:")[1], re.M):
        body = " ".join(m.group(0).split())  # the option's line and its help, on one line
        first = m.group(0).split("\n")[0]
        for name in re.findall(r"--[\w-]+", first):  # --prefetch, --no-prefetch: both spellings
            options[name] = body
    for flag, body in options.items():
        count = body.count("(default:")
        say(count <= 1, f"pokedexd --help: {flag} prints one default" + ("" if count <= 1 else f" (prints {count})"))
    status = json.load(open(status_path))
    by_doc = {}
    for r in records:
        if r[0] != "daemon":
            continue
        _, src, opt, env, default = r
        by_doc.setdefault(src.split(":")[0], set()).add(opt)
        body = options.get(opt)
        if body is None:
            say(False, f"{src}: {opt} is an option of pokedexd")
            continue
        help_env = re.search(r"\[env: (POKEDEX_\w+)", body)
        say(bool(help_env) and help_env.group(1) == env, f"{src}: {opt} falls back to {env} (--help: {help_env.group(1) if help_env else 'none'})")
        help_default = re.search(r"\(default: ([^)]*)\)", body)
        if default and help_default and re.match(r"^[\w.:/$-]+$", default):
            say(help_default.group(1).startswith(default), f"{src}: {opt} defaults to {default} (--help: {help_default.group(1)})")
    for opt, cap in (("--memory-cache-mib", "memory_cap_bytes"), ("--disk-cache-mib", "disk_cap_bytes")):
        for r in records:
            if r[0] == "daemon" and r[2] == opt and r[4].isdigit():
                say(int(r[4]) << 20 == status[cap], f"{r[1]}: {opt}'s default {r[4]} is what the service uses ({cap} {status[cap]})")
    listed = {o for o in options if o.startswith("--") and o not in ("--help", "--version", "--prefetch")}
    for doc, opts in sorted(by_doc.items()):
        missing = sorted(listed - opts)
        say(not missing, f"{doc}: lists every option pokedexd --help shows" + (f" (missing: {', '.join(missing)})" if missing else ""))


def json_shapes(path):
    from shapes import json_keys
    outputs = json.load(open(path))
    for r in records:
        if r[0] != "json":
            continue
        _, src, cmd, mode, words = r
        if cmd not in outputs:
            say(False, f"{src}: pokectl {cmd} --json printed nothing to compare")
            continue
        live, doc = set(json_keys(outputs[cmd])), set(words.split())
        invented, missing = sorted(doc - live), sorted(live - doc) if mode == "all" else []
        say(not invented and not missing, f"{src}: pokectl {cmd} --json has the keys shown"
            + (f" (not printed: {', '.join(invented)})" if invented else "")
            + (f" (printed, not shown: {', '.join(missing)})" if missing else ""))


if __name__ == "__main__":
    {"members": members, "keys": keys, "daemon": daemon, "json": json_shapes}[sys.argv[1]](*sys.argv[2:])
