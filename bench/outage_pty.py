#!/usr/bin/env python3
"""Runs a program in a pseudo-terminal for a while, reading (and dropping) what it draws, as a
terminal left open would. Writes the child's pid to --pid-file once it runs; at the end sends
`q` and waits for it. Prints the last screenful's status line (pyte is not needed: the raw
tail is enough to tell what browse said).

  outage_pty.py --seconds 30 --pid-file F [--tail-file F] [--stop-file F] -- ARGV...
"""
import argparse, fcntl, os, pty, select, signal, struct, sys, termios, time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--pid-file", required=True)
    ap.add_argument("--tail-file")
    ap.add_argument("--stop-file", help="stop (send q) as soon as this file exists")
    ap.add_argument("--cols", type=int, default=100)
    ap.add_argument("--rows", type=int, default=32)
    ap.add_argument("argv", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    argv = a.argv[1:] if a.argv and a.argv[0] == "--" else a.argv
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", a.rows, a.cols, 0, 0))
        os.execvp(argv[0], argv)
    with open(a.pid_file, "w") as f:
        f.write(str(pid))
    tail = b""
    end = time.monotonic() + a.seconds
    while True:
        left = end - time.monotonic()
        if left <= 0:
            break
        if a.stop_file and os.path.exists(a.stop_file):
            break
        r, _, _ = select.select([fd], [], [], min(left, 0.25))
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            tail = (tail + data)[-8192:]
    try:
        os.write(fd, b"q")
    except OSError:
        pass
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        try:
            while select.select([fd], [], [], 0.05)[0] and os.read(fd, 65536):
                pass
        except OSError:
            pass
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    if a.tail_file:
        with open(a.tail_file, "wb") as f:
            f.write(tail)


if __name__ == "__main__":
    main()
