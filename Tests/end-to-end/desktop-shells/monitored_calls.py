#!/usr/bin/python3
"""Reads dbus-monitor's output on stdin and prints the calls to the desktop search interfaces,
one a line, as `Member(arguments)`: what a shell really asked pokedexd, for the test and the note.

  monitored_calls.py [--sender UNIQUE-NAME] [INTERFACE...] < monitor.log

With --sender, only the calls that connection made (the shell's, not the test's own gdbus).
"""
import re
import sys

args = sys.argv[1:]
sender = None
if args[:1] == ["--sender"]:
    sender, args = args[1], args[2:]
interfaces = args or ["org.gnome.Shell.SearchProvider2", "org.kde.krunner1"]
header = re.compile(r"^method call .*sender=(\S+) -> .*interface=([^;]+); member=(\S+)")
value = re.compile(r'^\s+(string|uint32|int32|double|boolean) (.*)$')
calls, current = [], None
for line in sys.stdin:
    if not line.startswith(" "):
        if current:
            calls.append(current)
        m = header.match(line)
        current = (m.group(3), []) if m and m.group(2) in interfaces and sender in (None, m.group(1)) else None
    elif current:
        v = value.match(line)
        if v:
            current[1].append(v.group(2))
if current:
    calls.append(current)
for member, args in calls:
    # A long list (a subsearch's previous results) keeps its head and its last value (the terms).
    shown = ", ".join(args if len(args) <= 12 else args[:6] + [f"… {len(args) - 7} more …", args[-1]])
    print(f"{member}({shown})")
