#!/usr/bin/env python3
"""Reads README.md, man/pokectl.1 and man/pokedexd.1 and prints, one tab-separated record a
line, every claim docs-test.sh can try against the real service:

  run     SRC  COMMAND  MODE        a command as the docs show it, placeholders filled in;
                                    MODE: exit code expected ("0"), or "long" (runs until stopped)
  skip    SRC  COMMAND  REASON      shown but not runnable in a test
  make    SRC  TARGET               `make TARGET` shown: the Makefile must have it
  every   SRC  OPTION               pokectl's SYNOPSIS: every command takes it
  option  SRC  OPTION               an option named alone in prose: some parser must know it
  daemon  SRC  OPTION  ENV  DEFAULT a pokedexd option (README's table, pokedexd(1) OPTIONS)
  exit    SRC  PROG  CODE  TEXT     a documented exit status
  member  SRC  KIND  NAME  IN  OUT  CHANGE   a D-Bus method, signal or property
  error   SRC  NAME                 a D-Bus error name
  keys    SRC  MEMBER  WORDS        the words a member's entry uses for its reply's keys
  json    SRC  COMMAND  MODE  KEYS  a --json shape's keys; MODE "all" (the whole shape) or
                                    "some" (an example: "e.g.", "every key of")
  path    SRC  PATH                 a file of this repository
  file    SRC  PATH                 a file the service writes ($XDG_… paths)

Everything is found by reading the documents: a new line in them is a new record."""
import os
import re
import sys

import roff
from placeholders import expand
from shapes import help_json, json_shape, out, readme_json

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
# Programs a documented command may start with that a test cannot run, and why.
NOT_HERE = {
    "sudo": "needs root and installs packages",
    "systemctl": "needs the user's service manager (Tests/end-to-end/session covers the unit)",
    "journalctl": "needs the journal",
    "tmux": "changes the user's tmux server",
    "xterm": "needs a display",
    "msgfmt": "a build step (make catalogues)",
    "dbus-run-session": "starts a bus of its own",
}
# Options of other programs that the prose names.
FOREIGN_OPTIONS = {"-ti": "xterm", "--ascii": "neofetch", "--file-raw": "fastfetch"}
REPO_DIRS = "Sources|Tests|docs|bench|examples|tools|systemd|dbus|man|debian|desktop|po|\\.ci"
PROPERTY_CHANGE = {"emit": "emits-change", "emits": "emits-change", "constant": "const"}


def command(src, cmd, inline=False):
    """A shell command as written: run it (every form its placeholders give), check its make
    target, or say why not."""
    cmd = re.sub(r"\](\.\.\.|…)", "]", cmd.strip())
    first = cmd.split()[0] if cmd.split() else ""
    if "…" in cmd or "..." in cmd.replace("; do ...; done", ""):
        return out("skip", src, cmd, "elided (…): not a whole command")
    if first == "make":
        for target in cmd.split("&&")[0].split()[1:]:
            out("make", src, target)
        if "&&" in cmd:
            out("skip", src, cmd, "after make: " + NOT_HERE.get(cmd.split("&&")[1].split()[0], "not run"))
        return
    for prog in re.findall(r"(?:^|[|;&]\s*|\$\()\s*([a-z][\w.-]*)", cmd):
        if prog in NOT_HERE:
            return out("skip", src, cmd, f"{prog}: {NOT_HERE[prog]}")
    if not re.match(r"^([A-Z_]+=\S+\s+)*(pokectl|pokedexd|busctl|examples/|neofetch|fastfetch)", cmd):
        return
    if inline and re.fullmatch(r"pokectl [a-z]+", cmd):
        return out("run", src, cmd + " --help", "0")
    for form in expand(cmd):
        mode = "long" if re.search(r"pokectl watch(?!.*--count)|--follow|busctl --user monitor", form) else "0"
        out("run", src, form.replace("; do ...; done", "; do :; done"), mode)


def readme(path="README.md"):
    lines = open(os.path.join(ROOT, path), encoding="utf-8").read().split("\n")
    readme_json(lines, path)
    previous, in_block, section, errors, api_item = "", False, "", False, False
    for n, line in enumerate(lines, 1):
        src = f"{path}:{n}"
        if line.startswith("#"):
            section = line.lstrip("# ")
        # An indented code block: four spaces after a blank line, as long as they go on.
        if line.startswith("    ") and (in_block or previous.strip() == ""):
            in_block = True
            command(src, re.sub(r"\s+#.*$", "", line.strip()))
        else:
            in_block = False
        previous = line
        table_cells = [c.strip() for c in line.strip().strip("|").split(" | ")] if line.startswith("|") else []
        # The API's list: an item per member, its lines after the first indented.
        api_item = section == "The D-Bus API" and (line.startswith("- ") or line.startswith("  ") and api_item)
        if section == "The D-Bus API" and line.startswith("- "):
            item = line[2:]
            for more in lines[n:]:
                if not more.startswith("  "):
                    break
                item += " " + more.strip()
            dbus_item(src, item)
        if section == "Configuration" and len(table_cells) == 3 and table_cells[0].startswith("`--"):
            opt = re.match(r"`(--[a-z-]+)", table_cells[0]).group(1)
            env = re.match(r"`(POKEDEX_[A-Z_]+)", table_cells[1])
            out("daemon", src, opt, env.group(1) if env else "", default_of(table_cells[2]))
        errors = line.startswith("Errors:") or (errors and line.strip() != "")
        if errors:
            for name in re.findall(r"`(?:io\.github\.pokedexd\.Pokedex1\.Error)?\.(\w+)`", line):
                out("error", src, "io.github.pokedexd.Pokedex1.Error." + name)
        if line.startswith("**Exit codes**"):
            paragraph = " ".join(lines[n - 1:lines.index("", n)])
            for code, what in re.findall(r"`(\d+)` ([^·`]+)", paragraph):
                out("exit", src, "pokectl", code, what.strip())
        for span in re.findall(r"`([^`]+)`", line):
            span = span.replace("\\|", "|")
            if re.match(r"(pokectl|pokedexd|busctl|examples/|make) ", span) or span in ("pokectl list", "pokectl favs"):
                if not api_item or span.startswith("busctl"):
                    command(src, span, inline=True)
            elif re.match(r"--?[a-z]", span):
                opt = re.match(r"(--?[a-z][a-z-]*)", span).group(1)
                if opt in FOREIGN_OPTIONS:
                    continue
                out("option", src, span.replace("|", "\\|"))
            for p in re.findall(rf"(?<![/~\w.])((?:{REPO_DIRS})/[\w./{{}}*-]*)", span):
                out("path", src, p.rstrip(".,;:"))
            for p in re.findall(r"\$XDG_(?:CACHE|DATA)_HOME/[\w./{}*-]+", span):
                out("file", src, p)


def default_of(cell):
    """A table cell's default: its code span, else its leading number or word."""
    m = re.match(r"`([^`]+)`", cell)
    if m:
        return m.group(1)
    m = re.match(r"(\d+|yes|no|on|off)\b", cell)
    return m.group(1) if m else ""


def signature(text):
    """'(u offset, u limit) → (u total, a(ussb) entries)' as ('uu', 'ua(ussb)')."""
    def args(s):
        s = s.strip()
        if not s.startswith("("):
            return s.split()[0] if s else ""
        inner, depth, parts, cur = s[1:s.rfind(")")], 0, [], ""
        for ch in inner:
            depth += ch in "({"
            depth -= ch in ")}"
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        parts.append(cur)
        return "".join(p.split()[0] for p in parts if p.strip())
    left, _, right = text.partition("→")
    return args(left), args(right) if right else ""


def dbus_item(src, item):
    """One member of the API's list: `[signal |property ]`NAME` `SIGNATURE`[, change]: words`."""
    m = re.match(r"(?:(signal|property) )?`(\w+)` `([^`]*)`(.*)", item)
    if not m:
        return
    kind, name, sig, body = m.group(1) or "method", m.group(2), m.group(3), m.group(4).split(" Example: ")[0]
    if kind == "property":
        head = body.split(":")[0]
        change = "emits-change" if "emits `PropertiesChanged`" in head else "const" if "constant" in head else "-"
        out("member", src, kind, name, "", sig, change)
    else:
        i, o = signature(sig)
        out("member", src, kind, name, i, o if kind == "method" else "", "")
        out("keys", src, name, " ".join(re.findall(r"\b[A-Za-z]+(?:_[a-z]+)*\b", sig + " " + body)))


def pokectl_page(path="man/pokectl.1"):
    src = lambda n: f"{path}:{n}"
    items = roff.parse(os.path.join(ROOT, path))
    synopsis = " ".join(p for s, k, p, n in items if s == "SYNOPSIS")
    for opt in re.findall(r"\[(--[a-z-]+)[^\]]*\]", synopsis):
        out("every", src(items[0][3]), opt)
    for i, (section, kind, payload, n) in enumerate(items):
        if section == "COMMANDS" and kind == "tag":
            command(src(n), "pokectl " + payload)
        elif section == "OPTIONS" and kind == "tag":
            body = " ".join(p for s, k, p, m in items[i + 1:i + 6] if k == "line")
            named = [c for c in ("show", "list --images", "browse") if re.search(rf"\b{c}\b", body)]
            opts = [o.strip() for o in payload.split(",")]
            for opt in opts:
                if opt in ("-h", "--help", "--version"):
                    out("every", src(n), opt)
                elif named:
                    for c in named:
                        command(src(n), f"pokectl {c}{' POKEMON' if c == 'show' else ''} {opt}")
                else:
                    out("option", src(n), opt)
        elif section == "COMMANDS" and kind == "line" and "JSON:" in payload:
            tag = next(p for s, k, p, m in reversed(items[:i]) if s == "COMMANDS" and k == "tag")
            cmd = re.match(r"[a-z]+(?: (?:stats|verify|clear|--random))?", tag).group(0)
            shape = " ".join(p for s, k, p, m in items[i:i + 4] if k == "line")
            shape = shape[shape.index("JSON:"):]
            if "{" in shape.split(".")[0] + shape:
                depth, end = 0, 0
                for j, ch in enumerate(shape):
                    depth += ch == "{"
                    depth -= ch == "}"
                    if ch == "}" and depth == 0:
                        end = j + 1
                        break
                if end and "every key of" not in shape[:shape.find("{")]:
                    json_shape(src(n), cmd, shape[shape.index("{"):end])
        elif section == "EXIT STATUS" and kind == "tag":
            body = next(p for s, k, p, m in items[i + 1:] if k == "line")
            out("exit", src(n), "pokectl", payload, body)
        elif kind == "example":
            command(src(n), payload)
    for section, kind, payload, n in items:
        for p in re.findall(rf"(?<![/~\w.])((?:{REPO_DIRS})/[\w./{{}}*-]*)", payload):
            out("path", src(n), p.rstrip(".,;:"))


def pokedexd_page(path="man/pokedexd.1"):
    src = lambda n: f"{path}:{n}"
    items = roff.parse(os.path.join(ROOT, path))
    for i, (section, kind, payload, n) in enumerate(items):
        # The lines under a tag, up to the next tag or section (a member's words fill many).
        following = []
        for s, k, p, m in items[i + 1:]:
            if k == "tag" or s != section:
                break
            following.append(p)
        body = " ".join(following)
        if section == "D-BUS INTERFACE" and kind == "tag":
            if payload.startswith("io.github."):
                out("error", src(n), payload)
            elif payload == "properties":
                for clause in body.split(";"):
                    verb = re.search(r"\b(emits?|constant)\b", clause)
                    for name, sig in re.findall(r"([A-Z]\w+) (\(?[a-z{}()]+\)?)", clause):
                        out("member", src(n), "property", name, "", sig, PROPERTY_CHANGE[verb.group(1)] if verb else "-")
            else:
                p = re.match(r"property (\w+) (\S+)", payload)
                m = re.match(r"(signal )?(\w+) (.*)", payload)
                if p:  # "property NAME SIG", its change said first: Emits…, Constant., No change signal
                    change = "emits-change" if body.startswith("Emits") else "const" if body.startswith("Constant") else "-"
                    out("member", src(n), "property", p.group(1), "", p.group(2), change)
                elif m:
                    kind_ = "signal" if m.group(1) else "method"
                    i_, o_ = signature(m.group(3))
                    out("member", src(n), kind_, m.group(2), i_, o_ if kind_ == "method" else "", "")
                    out("keys", src(n), m.group(2), " ".join(re.findall(r"\b[A-Za-z]+(?:_[a-z]+)*\b", body)))
        elif section == "OPTIONS" and kind == "tag":
            env = re.search(r"\[(POKEDEX_[A-Z_]+)", body)
            default = re.search(r"\((?:default: )?([^()]*)\)\s*$", body)
            for opt in re.findall(r"(--[a-z-]+)", payload):
                if opt in ("--help", "--version"):
                    continue  # every program's, with no variable or default to check
                out("daemon", src(n), opt, env.group(1) if env else "", default.group(1) if default else "")
        elif section == "FILES" and kind == "tag" and payload.startswith("$XDG"):
            out("file", src(n), payload)
        elif section == "SYNOPSIS" and kind == "line" and payload.startswith("systemctl"):
            command(src(n), payload)
    status = [(p, n) for s, k, p, n in items if s == "EXIT STATUS"]
    for code, what in re.findall(r"(?:^|; )(\d+) ((?:[^;(]|\([^)]*\))+)", " ".join(p for p, n in status)):
        out("exit", src(status[0][1]), "pokedexd", code, what.strip().rstrip("."))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--help-json"]:  # a command's --help on stdin
        help_json(sys.argv[2], sys.stdin.read())
        sys.exit(0)
    os.chdir(ROOT)
    readme()
    pokectl_page()
    pokedexd_page()
    sys.stdout.flush()
