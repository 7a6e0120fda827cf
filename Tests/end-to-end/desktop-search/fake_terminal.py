#!/usr/bin/python3
"""A terminal as pokedexd's session launcher starts one, for the tests: it runs nothing and
records, one JSON line per start in $LAUNCH_LOG, its argv, the descriptors it got beyond 0-2,
its blocked signals (SigBlk), its seccomp mode (0: no filter, 2: one inherited) and the
activation token it was handed. That it could write the line at all says no Landlock
sandbox forbade it."""
import json
import os
import sys


def is_open(fd):
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False


fds = [fd for fd in range(3, 1024) if is_open(fd)]
with open("/proc/self/status") as f:
    status = dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)
with open(os.environ["LAUNCH_LOG"], "a") as f:
    f.write(json.dumps({"argv": sys.argv, "fds": fds, "sigblk": status["SigBlk"],
                        "seccomp": status.get("Seccomp", "").strip(),
                        "token": os.environ.get("XDG_ACTIVATION_TOKEN")}) + "\n")
