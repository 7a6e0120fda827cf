"""What both shells' clients share: the names, one blocking call, and the checks of a reply's
types (search_clients.py, gnome_metas.py)."""
import json
import os
import sys
import time

import dbus

SERVICE = os.environ.get("POKEDEX_SERVICE", "io.github.pokedexd.Pokedex1")
KRUNNER_PATH = "/io/github/pokedexd/KRunner"
KRUNNER_IFACE = "org.kde.krunner1"
SEARCH_PATH = "/io/github/pokedexd/SearchProvider"
SEARCH_IFACE = "org.gnome.Shell.SearchProvider2"
TIMEOUT = float(os.environ.get("POKEDEX_CALL_TIMEOUT", "10"))

# KRunner's match "type" (the 4th field, i): Plasma 5's QueryMatch::Type; Plasma 6 reads the same
# int as QueryMatch::CategoryRelevance (Lowest 0, Low 30, Moderate 50, High 70, Highest 100).
MATCH_TYPES = {0: "NoMatch", 10: "CompletionMatch", 30: "PossibleMatch", 50: "InformationalMatch",
               70: "HelperMatch", 100: "ExactMatch"}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class Malformed(Exception):
    """A reply that is not what the shell expects."""


def bus():
    return dbus.SessionBus()


def call(method, signature="", args=(), path=KRUNNER_PATH, iface=KRUNNER_IFACE, connection=None):
    """One blocking call with an explicit signature, as the shells make it (no introspection)."""
    return (connection or bus()).call_blocking(SERVICE, path, iface, method, signature, tuple(args),
                                               timeout=TIMEOUT, byte_arrays=True)


def expect(cond, what):
    if not cond:
        raise Malformed(what)


def is_str(v):
    return isinstance(v, dbus.String)


# ---- KRunner ---------------------------------------------------------------------------------

def decode_icon_data(v, where):
    """icon-data: (iiibiiay) as org.freedesktop.Notifications' image-data; checked the way
    DBusRunner::decodeImage reads it (0 < width, height < 2048; 8 bits; 3 or 4 channels)."""
    expect(isinstance(v, dbus.Struct) and len(v) == 7, f"{where}: icon-data is not a 7-field struct (iiibiiay): {v!r}")
    w, h, stride, alpha, bps, channels, data = v
    for name, x in (("width", w), ("height", h), ("rowstride", stride), ("bits per sample", bps), ("channels", channels)):
        expect(isinstance(x, dbus.Int32), f"{where}: icon-data {name} is {type(x).__name__}, not i")
    expect(isinstance(alpha, dbus.Boolean), f"{where}: icon-data has-alpha is {type(alpha).__name__}, not b")
    expect(isinstance(data, (dbus.ByteArray, bytes)), f"{where}: icon-data pixels are {type(data).__name__}, not ay")
    expect(0 < w < 2048 and 0 < h < 2048, f"{where}: icon-data is {w}x{h}")
    expect(bps == 8 and channels in (3, 4), f"{where}: icon-data has {bps} bits and {channels} channels")
    expect(bool(alpha) == (channels == 4), f"{where}: icon-data has-alpha {bool(alpha)} with {channels} channels")
    expect(stride >= w * channels, f"{where}: icon-data rowstride {stride} < {w}x{channels}")
    expect(len(data) >= stride * (h - 1) + w * channels, f"{where}: icon-data has {len(data)} bytes for {w}x{h}, stride {stride}")
    return {"width": int(w), "height": int(h), "rowstride": int(stride), "has_alpha": bool(alpha),
            "bits_per_sample": int(bps), "channels": int(channels), "bytes": len(data),
            "opaque_pixels": sum(1 for y in range(h) for x in range(w) if data[y * stride + x * 4 + 3])
            if channels == 4 else int(w * h)}
