"""The images the mock serves, built by hand so that the tests need no image library: 8x8 PNGs of
one colour, 2-frame GIFs, and the huge PNG of huge_sprites."""
import struct, threading, zlib


def png(rgb, size=8):
    raw = b"".join(b"\x00" + bytes(rgb + (255,)) * size for _ in range(size))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


HUGE_PNGS = {}
_huge_lock = threading.Lock()


def huge_png(side):
    """A valid side×side RGBA PNG of one colour, built once per size (zlib at level 9: a 4096
    one is ~64 KB on the wire for 64 MB of pixels)."""
    with _huge_lock:
        if side not in HUGE_PNGS:
            row = b"\x00" + bytes((200, 60, 40, 255)) * side
            z = zlib.compressobj(9)
            data = b"".join(z.compress(row) for _ in range(side)) + z.flush()
            def chunk(kind, body):
                return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
            HUGE_PNGS[side] = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0))
                               + chunk(b"IDAT", data) + chunk(b"IEND", b""))
        return HUGE_PNGS[side]


def gif(i):
    """Two 8x8 frames, each one colour of a 4-colour table (LZW with a 3-bit code size)."""
    table = bytes([(i * 37) % 256, (i * 91) % 256, (i * 53) % 256, 255, 255, 255, 0, 0, 0, 0, 0, 0])
    out = b"GIF89a" + struct.pack("<HHBBB", 8, 8, 0x81, 0, 0) + table
    out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    for colour in (0, 1):
        out += b"\x21\xf9\x04\x04\x0a\x00\x00\x00"
        out += b"\x2c" + struct.pack("<HHHHB", 0, 0, 8, 8, 0)
        out += bytes([2]) + lzw_block([colour] * 64, 2)
    return out + b"\x3b"


def lzw_block(indices, min_code):
    """GIF LZW without a dictionary: a clear code before every few pixels keeps codes min_code+1 bits."""
    clear, end = 1 << min_code, (1 << min_code) + 1
    bits, nbits = 0, 0
    data = bytearray()
    width = min_code + 1
    def put(code):
        nonlocal bits, nbits
        bits |= code << nbits
        nbits += width
        while nbits >= 8:
            data.append(bits & 0xFF)
            bits >>= 8
            nbits -= 8
    for k, v in enumerate(indices):
        if k % 2 == 0:
            put(clear)
        put(v)
    put(end)
    if nbits:
        data.append(bits & 0xFF)
    out = bytearray()
    for k in range(0, len(data), 255):
        chunk = data[k:k + 255]
        out += bytes([len(chunk)]) + chunk
    return bytes(out) + b"\x00"

