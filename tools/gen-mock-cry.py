#!/usr/bin/env python3
"""Writes the mock PokeAPI's one cry (Tests/support/mockapi/cry.ogg): 0.35 s of a tone rising
from 660 to 1,320 Hz, faded in and out, mono at 22,050 Hz, in Ogg Vorbis (oggenc, from Debian's
vorbis-tools, at quality 0 and a fixed stream serial number, so the same libvorbis writes the
same bytes). The project's own sound: no cry of the games.

  tools/gen-mock-cry.py > Tests/support/mockapi/cry.ogg
"""
import math
import os
import struct
import subprocess
import sys
import tempfile

RATE = 22050
SECONDS = 0.35
LOW, HIGH = 660.0, 1320.0
FADE = 0.03  # seconds
SERIAL = "1"


def samples():
    """The tone as 16-bit samples: the phase is the integral of the rising frequency."""
    n = int(RATE * SECONDS)
    out = []
    for k in range(n):
        t = k / RATE
        phase = 2 * math.pi * (LOW * t + (HIGH - LOW) * t * t / (2 * SECONDS))
        gain = min(1.0, t / FADE, (SECONDS - t) / FADE)
        out.append(int(round(0.5 * 32767 * gain * math.sin(phase))))
    return out


def wav(data):
    """A RIFF WAVE file of `data`: PCM, mono, 16 bits, RATE."""
    pcm = struct.pack(f"<{len(data)}h", *data)
    fmt = struct.pack("<HHIIHH", 1, 1, RATE, RATE * 2, 2, 16)
    return (b"RIFF" + struct.pack("<I", 4 + 8 + len(fmt) + 8 + len(pcm)) + b"WAVE"
            + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(pcm)) + pcm)


def main():
    if len(sys.argv) != 1:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "cry.wav")
        with open(source, "wb") as f:
            f.write(wav(samples()))
        try:
            ogg = subprocess.run(["oggenc", "--quiet", "--quality", "0", "--serial", SERIAL, "--output", "-", source],
                                 check=True, stdout=subprocess.PIPE).stdout
        except FileNotFoundError:
            sys.exit("gen-mock-cry: needs oggenc (apt-get install vorbis-tools)")
    sys.stdout.buffer.write(ogg)


if __name__ == "__main__":
    main()
