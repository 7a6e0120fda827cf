#!/usr/bin/python3
"""Reads dbus-monitor's output on stdin and prints the calls to the desktop search interfaces,
one a line, as `Member(arguments)`: what a shell really asked pokedexd, for the test and the note.

  monitored_calls.py [INTERFACE...] < monitor.log
"""
import re
import sys

interfaces = sys.argv[1:] or ["org.gnome.Shell.SearchProvider2", "org.kde.krunner1"]
header = re.compile(r"^method call .*interface=([^;]+); member=(\S+)")
value = re.compile(r'^\s+(string|uint32|int32|double|boolean) (.*)$')
calls, current = [], None
for line in sys.stdin:
    if not line.startswith(" "):
        if current:
            calls.append(current)
        m = header.match(line)
        current = (m.group(2), []) if m and m.group(1) in interfaces else None
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
