"""Hostile mode's material (see mock_pokeapi.py's docstring): the payloads every human text field
carries, the names the list ends with, the max-ages, and the transport attacks' bodies."""
import json, struct, threading, zlib

from .media import lzw_block

# Hostile mode (see the docstring). Every payload goes into every human text field.
HOSTILE_PAYLOADS = [
    "\x1b]52;c;aGFja2Vk\x07",                  # OSC 52: writes "hacked" to the clipboard
    "\x1b[2J",                                  # clears the screen
    "\u009b31m",                                # C1 CSI: red, on terminals that take 8-bit C1
    "\x07",                                     # BEL
    "\u202e",                                   # RIGHT-TO-LEFT OVERRIDE
    "\u2066",                                   # LEFT-TO-RIGHT ISOLATE
    "\x08",                                     # backspace
    "\x7f",                                     # DEL
    "\n<0>forged",                              # a forged emergency-priority journal line
    "${exec touch /tmp/pwned-conky}",           # conky
    "%{A1:touch /tmp/pwned-polybar:}x%{A}",     # polybar action tag
    '<b>bold</b> & <span foreground="red">',    # Pango markup
    "&amp;",                                    # an entity: must be shown as typed
]
HOSTILE_NAMES = ["evil\x1b[2J", "../../etc/passwd", "a" * 300, "Pika<b>", "${exec touch /tmp/pwned-conky}",
                 "%{A1:touch /tmp/pwned-polybar:}x%{A}", "mew\ntwo", "\u202eevil"]
HOSTILE_FIRST_ID = 99001
HOSTILE_MAX_AGES = ["-1", "inf", "nan", "99999999999999999999"]  # by id % 4; no id: "inf"
OVERSIZED_ID, ENDLESS_ID, GZIP_BOMB_ID, PNG_BOMB_ID, GIF_LIE_ID = 21, 22, 23, 24, 26
OVERSIZED_BYTES = 5 << 20
ENDLESS_SECONDS = 600
BOMB_BYTES = 1 << 30
_bomb = {}
_bomb_lock = threading.Lock()


def hostile_text(legit, key):
    """`legit` inside every payload, rotated by `key` (one field of one resource)."""
    k = zlib.crc32(key.encode()) % len(HOSTILE_PAYLOADS)
    parts = HOSTILE_PAYLOADS[k:] + HOSTILE_PAYLOADS[:k]
    return parts[0] + legit + "".join(parts[1:])


def hostile_json(body):
    """Raw UTF-8: C1, DEL and bidi characters as bytes; C0 escaped, as JSON requires."""
    return json.dumps(body, ensure_ascii=False).encode()


def gzip_bomb(body):
    """gzip of body[:1] + BOMB_BYTES spaces + body[1:] (still the JSON body once inflated), built
    once: the spaces are one 16 MiB deflate block, after a full flush, repeated."""
    with _bomb_lock:
        if body in _bomb:
            return _bomb[body]
        block_size = 16 << 20
        spaces = b" " * block_size
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        head = c.compress(body[:1]) + c.flush(zlib.Z_FULL_FLUSH)
        # After a full flush nothing refers back, so the same input gives the same bytes.
        block = c.compress(spaces) + c.flush(zlib.Z_FULL_FLUSH)
        tail = c.compress(body[1:]) + c.flush()
        crc = zlib.crc32(body[:1])
        for _ in range(BOMB_BYTES // block_size):
            crc = zlib.crc32(spaces, crc)
        crc = zlib.crc32(body[1:], crc)
        size = len(body) + BOMB_BYTES
        out = (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff" + head + block * (BOMB_BYTES // block_size) + tail
               + struct.pack("<II", crc, size & 0xFFFFFFFF))
        _bomb.clear()
        _bomb[body] = out
        return out


def png_bomb():
    """A PNG whose IHDR claims 100000×100000 RGBA: valid signature and CRCs, one row of data."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    side = 100000
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00" + b"\xff" * (side * 4), 9)) + chunk(b"IEND", b""))


def gif_lie(i):
    """Screen 8×8; frame 1 claims 65535×65535 and has 64 pixels; frame 2 at (60000, 60000) claims
    8×8 and has 4096 pixels. Blocks, lengths and trailer are all well formed."""
    table = bytes([(i * 37) % 256, (i * 91) % 256, (i * 53) % 256, 255, 255, 255, 0, 0, 0, 0, 0, 0])
    out = b"GIF89a" + struct.pack("<HHBBB", 8, 8, 0x81, 0, 0) + table
    out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    for (x, y, w, h), pixels in (((0, 0, 65535, 65535), 64), ((60000, 60000, 8, 8), 4096)):
        out += b"\x21\xf9\x04\x04\x0a\x00\x00\x00"
        out += b"\x2c" + struct.pack("<HHHHB", x, y, w, h, 0)
        out += bytes([2]) + lzw_block([1] * pixels, 2)
    return out + b"\x3b"

