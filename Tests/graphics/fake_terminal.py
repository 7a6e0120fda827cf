#!/usr/bin/env python3
"""Runs a command on a pty that plays a terminal: it answers pokectl's graphics queries as kitty,
as a sixel terminal, or not at all, and reports what the command wrote and how long it took.

  fake_terminal.py {kitty|sixel|silent} -- COMMAND...
Prints one JSON object: {"seconds", "exit", "output" (latin-1), "queried"}.
"""
import json, os, pty, select, sys, time

ANSWERS = {
    "kitty": b"\x1b_Gi=31;OK\x1b\\\x1b[6;20;10t\x1b[?62;22c",
    "sixel": b"\x1b[6;20;10t\x1b[?62;4;22c",
    "silent": b"",
}


def main():
    kind = sys.argv[1]
    cmd = sys.argv[sys.argv.index("--") + 1:]
    env = dict(os.environ, TERM="xterm-256color", COLORTERM="truecolor")
    env.pop("NO_COLOR", None)
    env.pop("TMUX", None)
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(cmd[0], cmd, env)
    out, queried, answered = b"", False, False
    while True:
        r, _, _ = select.select([fd], [], [], 5)
        if not r:
            break
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        out += data
        if not answered and b"\x1b[c" in out:
            queried = True
            answered = True
            if ANSWERS[kind]:
                os.write(fd, ANSWERS[kind])
    _, status = os.waitpid(pid, 0)
    print(json.dumps({"seconds": time.perf_counter() - start, "exit": os.waitstatus_to_exitcode(status),
                      "output": out.decode("latin-1"), "queried": queried}))


if __name__ == "__main__":
    main()
