#!/usr/bin/env python3
"""Renders a terminal capture with SGR colours (tmux capture-pane -e) as a PNG.

Block elements (half blocks, full block, eighth blocks) are drawn as exact rectangles, so the
sprite looks as it does in a terminal; other characters use DejaVu Sans Mono.
Usage: ansi2png.py CAPTURE.ansi OUT.png [--columns 80]   (needs Pillow)
"""
import argparse, re
from PIL import Image, ImageDraw, ImageFont

BG, FG = (30, 30, 30), (215, 215, 215)
BASIC = [(0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16), (36, 114, 200), (188, 63, 188), (17, 168, 205), (229, 229, 229),
         (102, 102, 102), (241, 76, 76), (35, 209, 139), (245, 245, 67), (59, 142, 234), (214, 112, 214), (41, 184, 219), (255, 255, 255)]


def xterm256(n):
    if n < 16:
        return BASIC[n]
    if n < 232:
        n -= 16
        levels = [0, 95, 135, 175, 215, 255]
        return (levels[n // 36], levels[n // 6 % 6], levels[n % 6])
    v = 8 + 10 * (n - 232)
    return (v, v, v)


def parse(text):
    """Lines of cells: (char, fg, bg, bold, dim). The attributes carry over from one line to the
    next, as in the terminal: capture-pane -e writes a change only, so a row of one colour
    under another of the same colour starts with no escape at all."""
    lines = []
    fg, bg, bold, dim = None, None, False, False
    for raw in text.rstrip("\n").split("\n"):
        cells = []
        for token in re.split(r"(\x1b\[[0-9;:]*m)", raw):
            if token.startswith("\x1b["):
                codes = [int(c) if c else 0 for c in re.split(r"[;:]", token[2:-1])] or [0]
                i = 0
                while i < len(codes):
                    c = codes[i]
                    if c == 0:
                        fg, bg, bold, dim = None, None, False, False
                    elif c == 1:
                        bold = True
                    elif c == 2:
                        dim = True
                    elif c == 22:
                        bold = dim = False
                    elif c == 39:
                        fg = None
                    elif c == 49:
                        bg = None
                    elif c in (38, 48) and i + 1 < len(codes):
                        if codes[i + 1] == 2:
                            colour = tuple(codes[i + 2:i + 5])
                            i += 4
                        else:
                            colour = xterm256(codes[i + 2])
                            i += 2
                        if c == 38:
                            fg = colour
                        else:
                            bg = colour
                    elif 30 <= c <= 37 or 90 <= c <= 97:
                        fg = BASIC[c - 30 if c < 90 else c - 82]
                    elif 40 <= c <= 47 or 100 <= c <= 107:
                        bg = BASIC[c - 40 if c < 100 else c - 92]
                    i += 1
            else:
                for ch in token:
                    cells.append((ch, fg, bg, bold, dim))
        lines.append(cells)
    return lines


def render(lines, columns, out):
    cw, ch, pad = 10, 20, 16
    rows = len(lines)
    img = Image.new("RGB", (columns * cw + 2 * pad, rows * ch + 2 * pad), BG)
    draw = ImageDraw.Draw(img)
    regular = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", 16)
    bold_font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf", 16)
    eighths = "▏▎▍▌▋▊▉"
    for y, cells in enumerate(lines):
        for x, (c, fg, bg, bold, dim) in enumerate(cells[:columns]):
            left, top = pad + x * cw, pad + y * ch
            f = fg or FG
            if dim:
                f = tuple((a + b) // 2 for a, b in zip(f, BG))
            if bg:
                draw.rectangle([left, top, left + cw - 1, top + ch - 1], fill=bg)
            if c == "▀":
                draw.rectangle([left, top, left + cw - 1, top + ch // 2 - 1], fill=f)
            elif c == "▄":
                draw.rectangle([left, top + ch // 2, left + cw - 1, top + ch - 1], fill=f)
            elif c == "█":
                draw.rectangle([left, top, left + cw - 1, top + ch - 1], fill=f)
            elif c in eighths:
                w = (eighths.index(c) + 1) * cw // 8
                draw.rectangle([left, top, left + w - 1, top + ch - 1], fill=f)
            elif c != " ":
                draw.text((left, top + 1), c, font=bold_font if bold else regular, fill=f)
    img.save(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("capture")
    ap.add_argument("out")
    ap.add_argument("--columns", type=int, default=80)
    a = ap.parse_args()
    with open(a.capture, encoding="utf-8") as f:
        lines = parse(f.read())
    while lines and not lines[-1]:
        lines.pop()
    render(lines, a.columns, a.out)


if __name__ == "__main__":
    main()
