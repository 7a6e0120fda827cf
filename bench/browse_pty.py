#!/usr/bin/env python3
"""pokectl browse in a pseudo-terminal, read back by a terminal emulator (pyte), as a person's
terminal would run it. Prints one line of key=value figures.

  browse_pty.py POKECTL [--cols 100] [--rows 32] [--steps 67] [--step-ms 400]

1. keypress to finished frame on the first screen (cached), 200 presses, against a baseline run
   alongside: a process that answers each byte with a frame mark through the same kind of pty;
2. scrolling a page (20 Pokémon) every --step-ms for --steps steps: tiles still blank (the
   sprite placeholder or a page not loaded) right after each step and just before the next,
   and the slowest keypress to frame meanwhile;
3. browse's CPU time over 10 s of idling.
A frame ends with the synchronized-output mark ESC [ ? 2026 l, which pokectl writes after each.
"""
import argparse, fcntl, os, pty, select, struct, sys, termios, time

import pyte

END = b"\x1b[?2026l"


def spawn(argv, cols, rows, env):
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        os.execvpe(argv[0], argv, env)
    os.set_blocking(fd, False)
    return pid, fd


class Term:
    def __init__(self, fd, cols, rows):
        self.fd = fd
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.tail = b""

    def read_frame(self, timeout=5.0):
        """Reads until a frame ends; the time it ended, or None."""
        end = time.perf_counter() + timeout
        while True:
            left = end - time.perf_counter()
            if left <= 0:
                return None
            r, _, _ = select.select([self.fd], [], [], left)
            if not r:
                return None
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return None
            now = time.perf_counter()
            self.stream.feed(data)
            seen = self.tail + data
            self.tail = seen[-len(END):]
            if END in seen:
                # Drain what is already there, so the next read starts at a frame boundary.
                while select.select([self.fd], [], [], 0)[0]:
                    try:
                        more = os.read(self.fd, 65536)
                    except OSError:
                        break
                    self.stream.feed(more)
                    self.tail = (self.tail + more)[-len(END):]
                return now

    def settle(self, quiet=0.3, limit=10.0):
        """Reads frames until none came for `quiet` seconds."""
        end = time.perf_counter() + limit
        while time.perf_counter() < end and self.read_frame(quiet) is not None:
            pass

    def key(self, k):
        t0 = time.perf_counter()
        os.write(self.fd, k)
        t1 = self.read_frame()
        return None if t1 is None else t1 - t0

    def blanks(self):
        """Tiles on screen still blank: a sprite placeholder or a page not here yet."""
        text = "\n".join(self.screen.display[1:-1])
        return text.count("░░░░") + sum(line.count("·") for line in self.screen.display[1:-1])

    def status(self):
        return self.screen.display[-1].strip()


def pct(xs, p):
    s = sorted(xs)
    return s[min(len(s) - 1, int(len(s) * p))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pokectl")
    ap.add_argument("--cols", type=int, default=100)
    ap.add_argument("--rows", type=int, default=32)
    ap.add_argument("--steps", type=int, default=67)
    ap.add_argument("--step-ms", type=int, default=400)
    a = ap.parse_args()
    env = dict(os.environ, TERM="xterm-256color", COLORTERM="truecolor")
    env.pop("NO_COLOR", None)

    # The baseline: one byte in, one frame mark out, through a pty of its own.
    echo = "import os,tty\ntty.setraw(0)\nwhile True:\n b=os.read(0,1)\n if b in (b'q',b''): break\n os.write(1,b'\\x1b[?2026l')\n"
    bpid, bfd = spawn([sys.executable, "-c", echo], a.cols, a.rows, env)
    base = Term(bfd, a.cols, a.rows)
    pid, fd = spawn([a.pokectl, "browse"], a.cols, a.rows, env)
    t = Term(fd, a.cols, a.rows)
    start = time.perf_counter()
    first = t.read_frame(10)
    # The first screen: wait until its tiles are there and none is blank (cold cache: fetched
    # now), at most 15 s.
    while (t.blanks() or "#001" not in "\n".join(t.screen.display)) and time.perf_counter() - start < 15:
        t.read_frame(0.5)
    first_full = time.perf_counter() - start
    t.settle(0.5)

    lat, blat = [], []
    time.sleep(0.2)
    for i in range(200):
        d = t.key(b"l" if i % 2 == 0 else b"h")
        if d is not None:
            lat.append(d)
        d = base.key(b"x")
        if d is not None:
            blat.append(d)
    t.settle(0.3)

    # Scrolling: a page of 20 every step.
    blank_after, blank_before, steps_blank, worst = 0, 0, 0, 0.0
    per_step = a.step_ms / 1000
    for step in range(a.steps):
        t0 = time.perf_counter()
        for _ in range(20):
            d = t.key(b"l")
            if d is not None:
                worst = max(worst, d)
        now_blank = t.blanks()
        blank_after += now_blank
        while time.perf_counter() - t0 < per_step - 0.02:
            t.read_frame(max(0.001, per_step - 0.02 - (time.perf_counter() - t0)))
        late = t.blanks()
        blank_before += late
        steps_blank += 1 if late else 0
    position = t.status().split("  ")[0]

    # Idle: no input for 10 s.
    t.settle(1.0)
    def cpu():
        f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
    c0, w0 = cpu(), time.perf_counter()
    frames_idle = 0
    while time.perf_counter() - w0 < 10:
        if t.read_frame(10 - (time.perf_counter() - w0)) is not None:
            frames_idle += 1
    idle_cpu = (cpu() - c0) / (time.perf_counter() - w0) * 100

    os.write(fd, b"q")
    os.write(bfd, b"q")
    _, status = os.waitpid(pid, 0)
    os.waitpid(bpid, 0)
    p50, p99, b50 = pct(lat, 0.5) * 1e3, pct(lat, 0.99) * 1e3, pct(blat, 0.5) * 1e3
    print(f"first_frame_ms={(first - start) * 1e3 if first else -1:.1f} first_screen_full_ms={first_full * 1e3:.0f} "
          f"key_p50_ms={p50:.2f} key_p99_ms={p99:.2f} baseline_p50_ms={b50:.3f} key_vs_baseline_x={p50 / b50:.1f} "
          f"scroll_steps={a.steps} last_position='{position}' blank_tiles_right_after_steps={blank_after} "
          f"blank_tiles_400ms_later={blank_before} steps_with_blanks={steps_blank} scroll_worst_key_ms={worst * 1e3:.1f} "
          f"idle_cpu_percent={idle_cpu:.2f} idle_frames={frames_idle} exit={os.waitstatus_to_exitcode(status)}")


if __name__ == "__main__":
    main()
