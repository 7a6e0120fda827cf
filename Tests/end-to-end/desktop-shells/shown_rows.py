#!/usr/bin/python3
"""Reads a gdbus reply on stdin, GNOME's GetResultMetas or KRunner's Match, and prints its rows
as a shell shows them, "#NNN<tab>name", the number taken from the description or subtext.

  gdbus call … GetResultMetas "['25', '938']" | shown_rows.py gnome
  gdbus call … Match "pika" | shown_rows.py krunner
"""
import re
import sys

TEXT = r"'((?:[^'\\]|\\.)*)'"  # a GVariant string as gdbus prints it, escapes and all
PATTERNS = {
    "gnome": re.compile(r"'name': <" + TEXT + r">, 'description': <'(#\d+)"),
    "krunner": re.compile(r"\('\d+', " + TEXT + r", '[^']*', -?\d+, [\d.e-]+, \{'subtext': <'(#\d+)"),
}
for m in PATTERNS[sys.argv[1]].finditer(sys.stdin.read()):
    print(m.group(2) + "\t" + m.group(1).encode().decode("unicode_escape").encode("latin-1").decode("utf-8"))
