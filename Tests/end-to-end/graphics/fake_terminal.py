#!/usr/bin/env python3
"""Runs a command on a pty that plays a terminal: it answers pokectl's graphics queries as kitty,
as a sixel terminal, or not at all, and reports what the command wrote and how long it took.

  fake_terminal.py KIND [--env K=V]... [--keys SECONDS:TEXT]... [--keys-on N:PATTERN:TEXT]...
                   [--size COLSxROWS] [--pixels WxH] -- COMMAND...

  KIND    kitty, sixel or silent; or a hostile terminal (sixel and kitty, lying about its
          cells): huge (9223372036854775807 px each way), big (3000×3000), overflow (a
          number past 64 bits), negative (-20;-10), zero (0;0), partial (an answer cut off
          after "ESC[6;20", then nothing)
  --env   set (or, with an empty value, remove) a variable for the command
  --keys  type TEXT (Python escapes: \\x1b[6~ is PgDn) that many seconds after the start
  --keys-on  type TEXT once the command has written PATTERN (escaped as TEXT) N times in all;
          these are typed in the order given, each after the one before and after every
          --keys (and late answer) still waiting, whatever the machine's speed; one whose
          PATTERN never comes is typed after 30 s (and the check that counts the output fails)
  --answer-after  answer that many seconds after the queries came (a terminal over SSH)
  --size  the pty's size in cells (default 80x24; 10x20 pixels a cell)
  --pixels  the pty's size in pixels as TIOCGWINSZ gives it (default cells × 10x20; up to
          65535x65535: a hostile window size)
Prints one JSON object: {"seconds", "exit", "output" (latin-1), "queried", "answered_after",
"restored" (the pty is back in canonical mode with echo once the command exited)}.
"""
import fcntl, json, os, pty, select, struct, sys, termios, time

ANSWERS = {
    "kitty": b"\x1b_Gi=31;OK\x1b\\\x1b[6;20;10t\x1b[?62;22c",
    "sixel": b"\x1b[6;20;10t\x1b[?62;4;22c",
    "silent": b"",
    "huge": b"\x1b_Gi=31;OK\x1b\\\x1b[6;9223372036854775807;9223372036854775807t\x1b[?62;4;22c",
    "big": b"\x1b_Gi=31;OK\x1b\\\x1b[6;3000;3000t\x1b[?62;4;22c",
    "overflow": b"\x1b_Gi=31;OK\x1b\\\x1b[6;99999999999999999999999;99999999999999999999999t\x1b[?62;4;22c",
    "negative": b"\x1b_Gi=31;OK\x1b\\\x1b[6;-20;-10t\x1b[?62;4;22c",
    "zero": b"\x1b_Gi=31;OK\x1b\\\x1b[6;0;0t\x1b[?62;4;22c",
    "partial": b"\x1b_Gi=31;OK\x1b\\\x1b[6;20",
}


def unescape(text):
    """Python escapes in an argument; any other character as its UTF-8 bytes."""
    return text.encode("utf-8").decode("unicode_escape").encode("latin-1")


def main():
    kind = sys.argv[1]
    split = sys.argv.index("--")
    opts, cmd = sys.argv[2:split], sys.argv[split + 1:]
    env = dict(os.environ, TERM="xterm-256color", COLORTERM="truecolor")
    env.pop("NO_COLOR", None)
    env.pop("TMUX", None)
    keys, cols, rows, pixels, answer_after = [], 80, 24, None, 0.0
    keys_on = []  # (count, pattern, text), typed in turn as the output reaches them
    while opts:
        flag, value = opts[0], opts[1]
        opts = opts[2:]
        if flag == "--env":
            k, _, v = value.partition("=")
            if v:
                env[k] = v
            else:
                env.pop(k, None)
        elif flag == "--keys":
            at, _, text = value.partition(":")
            keys.append((float(at), unescape(text)))
        elif flag == "--keys-on":
            n, _, rest = value.partition(":")
            pattern, _, text = rest.partition(":")
            keys_on.append((int(n), unescape(pattern), unescape(text)))
        elif flag == "--size":
            cols, rows = map(int, value.split("x"))
        elif flag == "--pixels":
            pixels = tuple(map(int, value.split("x")))
        elif flag == "--answer-after":
            answer_after = float(value)
        else:
            sys.exit(f"unknown option {flag}")
    keys.sort()
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(cmd[0], cmd, env)
    xpixel, ypixel = pixels or (cols * 10, rows * 20)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, xpixel, ypixel))
    out, queried, answered_after = b"", False, None
    waiting_since = 0.0  # when the first of keys_on began to wait for its pattern
    while True:
        now = time.perf_counter() - start
        if keys_on and not keys and (out.count(keys_on[0][1]) >= keys_on[0][0] or now - waiting_since > 30):
            os.write(fd, keys_on.pop(0)[2])
            waiting_since = now
            continue
        deadlines = ([keys[0][0]] if keys else []) + ([waiting_since + 30] if keys_on else [])
        wait = 5 if not deadlines else max(0, min(deadlines) - now)
        r, _, _ = select.select([fd], [], [], wait)
        if not r:
            if keys and keys[0][0] <= time.perf_counter() - start:
                os.write(fd, keys.pop(0)[1])
                continue
            if keys or keys_on:
                continue
            break
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        out += data
        if not queried and b"\x1b[c" in out:
            queried = True
            answered_after = time.perf_counter() - start
            if ANSWERS[kind] and answer_after > 0:
                keys.append((answered_after + answer_after, ANSWERS[kind]))
                keys.sort()
            elif ANSWERS[kind]:
                os.write(fd, ANSWERS[kind])
    # Still running after 5 s of silence: keep reading (a writer blocked on a full pty would
    # never exit), and kill it after 20 s more.
    deadline = time.perf_counter() + 20
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.perf_counter() > deadline:
            os.kill(pid, 9)
            _, status = os.waitpid(pid, 0)
            break
        if select.select([fd], [], [], 0.1)[0]:
            try:
                out += os.read(fd, 65536)
            except OSError:
                pass
    try:
        lflag = termios.tcgetattr(fd)[3]
        restored = bool(lflag & termios.ICANON) and bool(lflag & termios.ECHO)
    except termios.error:
        restored = None
    print(json.dumps({"seconds": time.perf_counter() - start, "exit": os.waitstatus_to_exitcode(status),
                      "output": out.decode("latin-1"), "queried": queried, "answered_after": answered_after,
                      "restored": restored}))


if __name__ == "__main__":
    main()
