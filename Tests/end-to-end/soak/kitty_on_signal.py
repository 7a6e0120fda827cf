#!/usr/bin/env python3
"""pokectl browse --image-protocol kitty in a pty, killed by a signal once it has sent pictures:
the bytes after the signal must free every image it sent (a=d,d=I for ids 1…N), leave the
alternate screen and show the cursor, and it must die of that signal.

  kitty_on_signal.py POKECTL [SIGNAL …]   (default: TERM SEGV ILL)
"""
import os, pty, re, select, signal, sys, time


def run(pokectl, sig):
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(pokectl, [pokectl, "browse", "--image-protocol", "kitty"],
                   dict(os.environ, TERM="xterm-kitty", COLORTERM="truecolor"))
    out = bytearray()

    def read(wait):
        end = time.monotonic() + wait
        while time.monotonic() < end:
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    data = os.read(fd, 1 << 16)
                except OSError:
                    return
                if not data:
                    return
                out.extend(data)

    start = time.monotonic()
    while time.monotonic() - start < 15 and len(set(re.findall(rb"\x1b_Ga=t,f=100,i=(\d+)", out))) < 3:
        read(0.1)
    sent = sorted({int(i) for i in re.findall(rb"\x1b_Ga=t,f=100,i=(\d+)", out)})
    mark = len(out)
    os.kill(pid, getattr(signal, "SIG" + sig))
    read(1.0)
    _, status = os.waitpid(pid, 0)
    after = bytes(out[mark:])
    freed = {int(i) for i in re.findall(rb"\x1b_Ga=d,d=I,i=(\d+),q=2\x1b\\", after)}
    problems = []
    if not sent:
        problems.append("no picture was sent")
    if not set(sent) <= freed:
        problems.append(f"sent {sent}, freed {sorted(freed)}")
    if b"\x1b[?1049l" not in after or b"\x1b[?25h" not in after:
        problems.append("did not leave the alternate screen and show the cursor")
    if not (os.WIFSIGNALED(status) and os.WTERMSIG(status) == getattr(signal, "SIG" + sig)):
        problems.append(f"ended with status {status}, not SIG{sig}")
    print(("ok   " if not problems else "FAIL ") + f"kitty, SIG{sig}: {len(sent)} images sent, all freed"
          + ("" if not problems else ": " + "; ".join(problems)))
    return not problems


if __name__ == "__main__":
    pokectl, sigs = sys.argv[1], sys.argv[2:] or ["TERM", "SEGV", "ILL"]
    sys.exit(0 if all([run(pokectl, s) for s in sigs]) else 1)
