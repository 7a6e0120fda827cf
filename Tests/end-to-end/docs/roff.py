"""Just enough of man(7) to read the project's pages as a person reads them: sections, the
tag line of each .TP, the .EX examples, and each line's text with fonts and escapes gone.
Used by extract.py; knows nothing about pokedexd."""
import re
import shlex

ESCAPES = [
    (r"\(->", "→"), (r"\(<-", "←"), (r"\(mu", "×"), (r"\(-", "—"), (r"\('e", "é"), (r"\('E", "É"),
    (r"\[12]", "½"), (r"\[14]", "¼"), (r"\[u2640]", "♀"), (r"\[u2642]", "♂"),
    (r"\~", " "), (r"\-", "-"), (r"\e", "\\"), (r"\&", ""), (r"\ ", " "),
]


def text(s):
    """A roff line's words: font changes dropped, escapes written out."""
    s = re.sub(r"\\f[BIRP]", "", s)
    for a, b in ESCAPES:
        s = s.replace(a, b)
    return s


def macro(line):
    """A request line (.B, .BR, .TP ...) as the text it prints. The alternating-font macros
    join their arguments with no space, as troff does; .B and .I with spaces."""
    name, _, rest = line[1:].partition(" ")
    try:
        args = shlex.split(rest.replace("\\", "\x00"), posix=True)
    except ValueError:
        args = rest.split()
    args = [a.replace("\x00", "\\") for a in args]
    if name in ("BR", "RB", "BI", "IB", "RI", "IR"):
        return text("".join(args))
    return text(" ".join(args))


def parse(path):
    """The page as (section, kind, payload, line number) items: kind 'tag' for a .TP's tag line,
    'line' for running text, 'example' for a line of an .EX block (continuations joined)."""
    items, section, tp, in_ex, pending = [], "", False, False, None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for n, raw in enumerate(lines, 1):
        if raw.startswith(".SH"):
            section = text(raw[3:].strip().strip('"'))
            continue
        if raw.startswith(".EX"):
            in_ex = True
            continue
        if raw.startswith(".EE"):
            in_ex = False
            continue
        if in_ex:
            line = text(raw)
            if pending:
                pending = (pending[0] + " " + line.strip(), pending[1])
            else:
                pending = (line, n)
            if line.endswith("\\"):
                pending = (pending[0][:-1].rstrip(), pending[1])
                continue
            items.append((section, "example", pending[0], pending[1]))
            pending = None
            continue
        if raw.startswith(".TP") or raw.startswith(".TQ"):
            tp = True
            continue
        if raw.startswith((".PP", ".SS", ".br", ".TH", '.\\"')) or raw == "":
            continue
        line = macro(raw) if raw.startswith(".") else text(raw)
        items.append((section, "tag" if tp else "line", line, n))
        tp = False
    return items
