#!/usr/bin/env python3
"""The mock's answers, byte for byte: every route and every fault, against a golden record.

  mock_test.py [--mock PATH] [--golden FILE] [--record] [--dump DIR]

Starts the mock (PATH, default mock_pokeapi.py beside this file) a few times (plain with a
second listener; --hostile --huge-sprites; --every-species; --tls-cert when openssl is there),
walks a fixed script of requests and control settings (mock_test_cases.py) over raw sockets (Connection: close, so
each answer ends where the server closes: cuts and drops included), and compares every answer
(status line, headers but Date and Server, body) with mock-golden.txt by digest. --record
writes the golden file instead (it was recorded from the mock before its split into
Tests/support/mockapi/mock/, so that one behaves as the other); --dump writes each normalized answer to
DIR for a diff. Exits 0 when all match, 1 otherwise. No network beyond 127.0.0.1; ~5 s.
"""
import argparse, hashlib, os, re, shutil, socket, ssl, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
HOST = "mock.test:8080"  # what absolute URLs in bodies name: the same whatever port the mock took


class Mock:
    def __init__(self, path, tmp, *args, tls=None):
        self.tmp, self.tls = tmp, tls
        port_file = os.path.join(tmp, "port")
        sprite_file = os.path.join(tmp, "sprite-port")
        for f in (port_file, sprite_file):
            if os.path.exists(f):
                os.remove(f)
        self.proc = subprocess.Popen([sys.executable, path, "--port", "0", "--port-file", port_file, *args],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while not os.path.exists(port_file):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise SystemExit(f"mock_test: {path} {' '.join(args)} did not start")
            time.sleep(0.02)
        self.port = int(open(port_file).read())
        self.sprite_port = int(open(sprite_file).read()) if "--sprite-port-file" in args else None

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def exchange(port, method, path, headers=(), body=b"", tls=False, close_after=None, until=None):
    """One request on a fresh connection; the raw answer up to EOF (or `until`, or `close_after` s)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    if tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE
        s = ctx.wrap_socket(s)
    h = {"Host": HOST, "User-Agent": "mock-test", "Connection": "close"}
    h.update(dict(headers))
    if body or method == "POST":
        h["Content-Length"] = str(len(body))
    head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in h.items()) + "\r\n"
    s.sendall(head.encode() + body)
    data = b""
    end = time.monotonic() + close_after if close_after else None
    try:
        while True:
            if end is not None:
                left = end - time.monotonic()
                if left <= 0:
                    break
                s.settimeout(left)
            try:
                part = s.recv(65536)
            except socket.timeout:
                break
            except ConnectionResetError:
                break
            if not part:
                break
            data += part
            if until and until in data:
                data = data[:data.index(until) + len(until)]
                break
    finally:
        s.close()
    return data


def normalize(raw):
    """Date and Server lines out (the clock, the Python version), and a gzip member's mtime
    zeroed; the rest as it came."""
    head, sep, rest = raw.partition(b"\r\n\r\n")
    lines = [l for l in head.split(b"\r\n") if not l.lower().startswith((b"date:", b"server:"))]
    if any(l.lower() == b"content-encoding: gzip" for l in lines) and b"\x1f\x8b\x08" in rest:
        k = rest.index(b"\x1f\x8b\x08") + 4
        rest = rest[:k] + b"\0\0\0\0" + rest[k + 4:]
    return b"\r\n".join(lines) + sep + rest


def without_live_counts(raw):
    """/__stats with in_flight and max_in_flight masked (and so its ETag): a request whose
    connection the server closed (a cut, a drop) may leave its handler a moment later."""
    raw = re.sub(rb'"(max_in_flight|in_flight)": \d+', rb'"\1": N', raw)
    return re.sub(rb"ETag: \"[0-9a-f]+\"", b'ETag: "N"', raw)


def header(raw, name):
    for line in raw.partition(b"\r\n\r\n")[0].split(b"\r\n")[1:]:
        k, _, v = line.partition(b":")
        if k.strip().lower() == name.lower().encode():
            return v.strip().decode()
    return None


class Script:
    def __init__(self, dump):
        self.lines, self.dump, self.n = [], dump, 0

    def record(self, name, raw):
        raw = normalize(raw)
        status = raw.split(b"\r\n", 1)[0].decode(errors="replace") or "(closed, no answer)"
        self.n += 1
        self.lines.append(f"{self.n:03d} {name}\t{status}\t{len(raw)}\t{hashlib.sha256(raw).hexdigest()[:20]}")
        if self.dump:
            safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:80]
            with open(os.path.join(self.dump, f"{self.n:03d}-{safe}"), "wb") as f:
                f.write(raw)
        return raw


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mock", default=os.path.join(HERE, "mock_pokeapi.py"))
    ap.add_argument("--golden", default=os.path.join(HERE, "mock-golden.txt"))
    ap.add_argument("--record", action="store_true")
    ap.add_argument("--dump")
    args = ap.parse_args()
    if args.dump:
        os.makedirs(args.dump, exist_ok=True)
    from mock_test_cases import run_every, run_flags, run_plain, run_tls
    sc = Script(args.dump)
    tmp = tempfile.mkdtemp(prefix="mock-test.")
    started = time.monotonic()
    try:
        for extra, run in ((["--sprite-port-file", os.path.join(tmp, "sprite-port")], run_plain),
                           (["--hostile", "--huge-sprites"], run_flags), (["--every-species"], run_every)):
            m = Mock(args.mock, tmp, *extra)
            try:
                run(m, sc)
            finally:
                m.stop()
        if shutil.which("openssl"):
            pem = os.path.join(tmp, "cert.pem")
            subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                            "-keyout", pem, "-out", pem + ".crt"], check=True, capture_output=True)
            with open(pem, "a") as f:
                f.write(open(pem + ".crt").read())
            m = Mock(args.mock, tmp, "--tls-cert", pem)
            try:
                run_tls(m, sc)
            finally:
                m.stop()
        else:
            print("mock_test: no openssl, the TLS answers are not compared", file=sys.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.record:
        with open(args.golden, "w") as f:
            f.write("\n".join(sc.lines) + "\n")
        print(f"mock_test: recorded {len(sc.lines)} answers in {time.monotonic() - started:.1f} s")
        return 0
    golden = open(args.golden).read().splitlines()
    if not shutil.which("openssl"):
        golden = [l for l in golden if " tls GET " not in l]
    bad = [(g, s) for g, s in zip(golden, sc.lines) if g != s]
    if len(golden) != len(sc.lines):
        bad.append((f"{len(golden)} answers", f"{len(sc.lines)} answers"))
    for g, s in bad:
        print(f"mock_test: expected {g}\n           got      {s}")
    print(f"mock_test: {len(sc.lines) - len(bad)}/{len(sc.lines)} answers as recorded ({time.monotonic() - started:.1f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
