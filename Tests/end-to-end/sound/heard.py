#!/usr/bin/env python3
"""Runs a command while listening to a PulseAudio source, and says what was heard.

  heard.py SOURCE SECONDS COMMAND...

Reads SOURCE (a null sink's monitor) raw with parec at 10 ms latency, each chunk stamped as it
arrives; once the stream flows, starts COMMAND (through the shell), and listens SECONDS more
after it ends. Prints "S s of sound, first heard T ms after the command" (T is -1 when nothing
was heard), by 10 ms windows whose RMS is over 1% of full scale. Exits with COMMAND's status.
"""
import math, os, select, struct, subprocess, sys, time

RATE = 22050
WINDOW = RATE // 100  # samples


def main():
    source, seconds, command = sys.argv[1], float(sys.argv[2]), " ".join(sys.argv[3:])
    rec = subprocess.Popen(["parec", "--latency-msec=10", "-d", source, f"--rate={RATE}", "--channels=1", "--format=s16le"],
                           stdout=subprocess.PIPE)
    fd = rec.stdout.fileno()
    os.set_blocking(fd, False)
    chunks = []  # (arrival ns, samples)
    pending = b""

    def drain(until):
        nonlocal pending
        while time.monotonic() < until:
            r, _, _ = select.select([fd], [], [], max(0, min(0.01, until - time.monotonic())))
            if not r:
                continue
            data = os.read(fd, 65536)
            if not data:
                return
            now = time.monotonic_ns()
            data = pending + data
            n = len(data) // 2
            pending = data[n * 2:]
            chunks.append((now, struct.unpack("<%dh" % n, data[:n * 2])))

    drain(time.monotonic() + 0.4)  # the stream flowing first
    t0 = time.monotonic_ns()
    status = subprocess.call(command, shell=True)
    drain(time.monotonic() + seconds)
    rec.terminate()
    # One stream from the command on, each sample stamped with when it arrived (a chunk's last
    # sample with the chunk, those before it earlier by the sample rate): chunks are smaller
    # than a window.
    stream, stamps = [], []
    for arrival, samples in chunks:
        if arrival < t0:
            continue
        stream.extend(samples)
        stamps.extend(arrival - (len(samples) - 1 - k) * 1_000_000_000 // RATE for k in range(len(samples)))
    loud_windows, first = 0, None
    for i in range(0, len(stream) - WINDOW + 1, WINDOW):
        w = stream[i:i + WINDOW]
        if math.sqrt(sum(x * x for x in w) / WINDOW) > 327:
            loud_windows += 1
            if first is None:
                first = stamps[i]
    ms = -1 if first is None else max(0, (first - t0) / 1e6)
    print(f"{loud_windows / 100:.2f} s of sound, first heard {ms:.0f} ms after the command")
    sys.exit(status)


main()
