#!/usr/bin/env python3
"""pokectl browse in a pseudo-terminal, hit with random keys, mouse reports and resizes from
fixed seeds, as a person mashing a keyboard and dragging the window would: it must never die,
and after the last key Esc…q must end it with exit status 0 and `stty -g` as it was.

  browse_soak.py POKECTL [--seeds 1-20] [--keys 2000] [--cols 100] [--rows 32]

Keys: arrows, h j k l, PgUp/PgDn, Home/End, g/G, /, letters and digits (not q), Enter, Esc,
Backspace, Delete, Tab, f, F, ?, non-ASCII text, pastes, clicks and wheel reports (some at
coordinates no screen has), in bursts of 1 to 8; a resize (down to 1×1, up to 300×100) before
3% of the bursts. Every third seed starts on a card (`browse --open N -- char`), as the desktop's
search opens it. Prints one line per seed and a summary; exits 1 if any seed died.
"""
import argparse, fcntl, os, pty, random, re, select, shutil, struct, subprocess, sys, termios, time

FRAME_END = b"\x1b[?2026l"
KEYS = ([b"\x1b[A", b"\x1b[B", b"\x1b[C", b"\x1b[D"] * 6 + [b"h", b"j", b"k", b"l"] * 4 +
        [b"\x1b[5~", b"\x1b[6~", b"\x1b[H", b"\x1b[F", b"\x1b[1~", b"\x1b[4~", b"g", b"G"] * 2 +
        [b"/", b"/", b"\r", b"\x1b", b"\x7f", b"\x7f", b"\x1b[3~", b"\t", b"f", b"F", b"?"] +
        [bytes([c]) for c in b"abcdefghijklmnoprstuvwxyz0123456789 :-."] +
        ["é".encode(), "😀".encode(), "中".encode(), "\u0301".encode(), b"\x1b[200~pika chu\x1b[201~", b"\x1bOA"])
SIZES = [(1, 1), (3, 12), (12, 3), (300, 100), (80, 24), (100, 32), (28, 9), (14, 8), (2, 50), (200, 2)]


def mouse(rng):
    button = rng.choice([0, 0, 64, 65, 3, 32])
    x, y = rng.randint(1, 120), rng.randint(1, 40)
    if rng.random() < 0.1:
        x = rng.choice([0, -1, 9223372036854775807, -9223372036854775808, 99999999999999999999])
    return f"\x1b[<{button};{x};{y}{rng.choice('Mm')}".encode()


def last_text(tail):
    """The last frame's words, escapes taken off: where browse was when it failed."""
    frame = tail[tail.rfind("\x1b[?2026h"):] if "\x1b[?2026h" in tail else tail
    return re.sub(r" +", " ", re.sub(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|[PX^_].*?\x1b\\|\].*?(\x07|\x1b\\)|.)", " ", frame, flags=re.S))[-600:]


def what_it_was_doing(shell, workdir, seed):
    """For a seed that did not end: each process under the shell, its state and, when gdb is
    there, every thread's stack (kept in WORKDIR/soakSEED.stacks)."""
    report = ""
    for pid in descendants(shell):
        try:
            stat = open(f"/proc/{pid}/stat").read()
            wchan = open(f"/proc/{pid}/wchan").read()
            comm = stat[stat.find("(") + 1:stat.rfind(")")]
            report += f"\n  pid {pid} {comm}: state {stat[stat.rfind(')') + 2]} wchan {wchan or '-'}"
        except OSError:
            continue
        if comm == "pokectl" and shutil.which("gdb"):
            out = os.path.join(workdir, f"soak{seed}.stacks")
            with open(out, "w") as f:
                subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "thread apply all bt 12"],
                               stdout=f, stderr=subprocess.STDOUT, timeout=60)
            report += f" (stacks in {out})"
    return report


def descendants(pid):
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            for t in os.listdir(f"/proc/{p}/task"):
                kids = open(f"/proc/{p}/task/{t}/children").read().split()
                found += map(int, kids)
                todo += map(int, kids)
        except OSError:
            pass
    return found


def one_seed(pokectl, seed, keys, cols, rows, workdir):
    rng = random.Random(seed)
    files = {k: os.path.join(workdir, f"soak{seed}.{k}") for k in ("before", "after", "exit")}
    for f in list(files.values()) + [files["exit"] + ".new", files["after"] + ".new"]:
        if os.path.exists(f):
            os.unlink(f)
    # Every third seed starts as the desktop's search opens it: on a card, a search behind it.
    start = f"browse --open {seed % 40 + 1} -- char" if seed % 3 == 0 else "browse"
    # The exit status and the settings after are written under another name and renamed: the
    # loops below watch for the files to exist, and one the shell had opened but stty had not
    # yet written read as a terminal left changed (a CI run of issue 58's stop, seed 12).
    exit_file, after = files["exit"], files["after"]
    script = (f"stty -g > {files['before']}; {pokectl} {start}; echo $? > {exit_file}.new; mv {exit_file}.new {exit_file}; "
              f"stty -g > {after}.new; mv {after}.new {after}")
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        os.execvp("sh", ["sh", "-c", script])
    os.set_blocking(fd, False)
    out = bytearray()
    received = [0]  # bytes read in all

    def drain(wait):
        end = time.monotonic() + wait
        while True:
            left = end - time.monotonic()
            r, _, _ = select.select([fd], [], [], max(0, left))
            if not r:
                return
            try:
                data = os.read(fd, 1 << 16)
            except OSError:
                return
            if not data:
                return
            received[0] += len(data)
            out.extend(data[-4096:])
            del out[:-8192]

    def ended():
        return os.path.exists(files["exit"])

    start = time.monotonic()
    # The first frame (the list from the service).
    while FRAME_END not in out and time.monotonic() - start < 15:
        drain(0.05)
    sent, resizes, bursts, died_at = 0, 0, 0, None
    while sent < keys:
        if rng.random() < 0.03:
            w, h = rng.choice(SIZES) if rng.random() < 0.5 else (rng.randint(1, 200), rng.randint(1, 60))
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", h, w, 0, 0))
            resizes += 1
        n = min(rng.randint(1, 8), keys - sent)
        burst = b"".join(mouse(rng) if rng.random() < 0.08 else rng.choice(KEYS) for _ in range(n))
        try:
            os.write(fd, burst)
        except OSError:
            pass
        sent += n
        bursts += 1
        # Mostly as fast as a person mashing keys; now and then long enough to draw.
        drain(0.03 if bursts % 10 == 0 else 0.001)
        if ended():
            died_at = sent
            break
    # Back to the grid from wherever it is (search line, detail, help), then q.
    if died_at is None:
        for k in (b"\x1b", b"\x1b", b"\x1b", b"q"):
            os.write(fd, k)
            drain(0.08)
    # On a busy machine browse may still be working through the keys sent (each one drawn):
    # it is given time while it keeps drawing, and fails once it has been silent for
    # QUIET seconds without ending (or after LONGEST in all).
    quiet, longest = 10, 120
    last_output, deadline = time.monotonic(), time.monotonic() + longest
    while not os.path.exists(files["after"]) and time.monotonic() < deadline and time.monotonic() - last_output < quiet:
        before = received[0]
        drain(0.05)
        if received[0] != before:
            last_output = time.monotonic()
    stuck = "" if os.path.exists(files["after"]) else what_it_was_doing(pid, workdir, seed)
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    os.close(fd)
    read = lambda k: open(files[k]).read().strip() if os.path.exists(files[k]) else ""
    code = read("exit")
    same = read("before") != "" and read("before") == read("after")
    ok = died_at is None and code == "0" and same
    tail = bytes(out).decode("utf-8", "replace")
    crash = "Fatal error" in tail or "Illegal instruction" in tail
    return ok, (f"seed={seed} keys={sent} bursts={bursts} resizes={resizes} died={'at key %d' % died_at if died_at else 'no'} "
                f"exit={code or 'none'} stty={'same' if same else 'CHANGED'} seconds={time.monotonic() - start:.1f}"
                + (" crash=" + repr(tail[tail.find('Fatal'):][:200]) if crash else "")
                + ("" if ok else "\n  last screen: " + repr(last_text(tail)) + stuck))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pokectl")
    ap.add_argument("--seeds", default="1-20", help="a range A-B or a list 1,5,9")
    ap.add_argument("--keys", type=int, default=2000)
    ap.add_argument("--cols", type=int, default=100)
    ap.add_argument("--rows", type=int, default=32)
    ap.add_argument("--workdir", default=os.environ.get("TMPDIR", "/tmp"))
    a = ap.parse_args()
    if "-" in a.seeds:
        lo, hi = map(int, a.seeds.split("-"))
        seeds = list(range(lo, hi + 1))
    else:
        seeds = [int(s) for s in a.seeds.split(",")]
    deaths, t0 = 0, time.monotonic()
    for seed in seeds:
        ok, line = one_seed(a.pokectl, seed, a.keys, a.cols, a.rows, a.workdir)
        deaths += 0 if ok else 1
        print(("ok   " if ok else "FAIL ") + line, flush=True)
    print(f"soak: {len(seeds)} seeds × {a.keys} keys, {deaths} deaths or unclean exits, {time.monotonic() - t0:.0f} s")
    sys.exit(1 if deaths else 0)


if __name__ == "__main__":
    main()
