#!/usr/bin/env python3
"""Renders terminal lines captured with `tmux capture-pane -e -p` (text with SGR color codes) as an SVG:
one monospace cell per character, each in the foreground color its SGR codes set. Used for the README's
picture of the live line (docs/live-line.svg); it draws what the terminal held, nothing else.

Usage: scripts/ansi-to-svg.py CAPTURE... > out.svg   (each capture's first non-empty line is one row)
"""
import html
import re
import sys

# xterm's default palette for the 16 colors.
PALETTE = ["#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
           "#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff"]
DEFAULT_FG, BACKGROUND = "#d0d0d0", "#1e1e1e"
CELL_W, CELL_H = 8.4, 18


def color256(n):
    if n < 16:
        return PALETTE[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[n // 6 % 6], steps[n % 6])
    g = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (g, g, g)


def cells(line):
    """(character, color, bold) per cell of one captured line."""
    fg, bold, out = None, False, []
    for token in re.split(r"(\x1b\[[0-9;]*m)", line):
        m = re.fullmatch(r"\x1b\[([0-9;]*)m", token)
        if not m:
            out += [(ch, fg or DEFAULT_FG, bold) for ch in token]
            continue
        codes = [int(c) for c in m.group(1).split(";") if c] or [0]
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                fg, bold = None, False
            elif c == 1:
                bold = True
            elif c == 22:
                bold = False
            elif 30 <= c <= 37:
                fg = PALETTE[c - 30]
            elif 90 <= c <= 97:
                fg = PALETTE[c - 90 + 8]
            elif c == 39:
                fg = None
            elif c == 38 and i + 2 < len(codes) and codes[i + 1] == 5:
                fg, i = color256(codes[i + 2]), i + 2
            elif c == 38 and i + 4 < len(codes) and codes[i + 1] == 2:
                fg, i = "#%02x%02x%02x" % tuple(codes[i + 2:i + 5]), i + 4
            i += 1
    return out


rows = []
for path in sys.argv[1:]:
    lines = [l for l in open(path, encoding="utf-8").read().split("\n") if l.strip()]
    rows.append(cells(lines[0].rstrip()))
width = max(len(r) for r in rows)
print(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * CELL_W + 16:.0f}" '
      f'height="{len(rows) * CELL_H + 12:.0f}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" '
      f'font-size="14">')
print(f'<rect width="100%" height="100%" fill="{BACKGROUND}"/>')
for y, row in enumerate(rows):
    # One <text> per run of cells with the same look; each cell placed at its own column.
    x = 0
    while x < len(row):
        ch, color, bold = row[x]
        end = x
        while end < len(row) and row[end][1:] == (color, bold):
            end += 1
        text = "".join(c for c, _, _ in row[x:end])
        if text.strip():
            xs = " ".join(f"{8 + (x + k) * CELL_W:.1f}" for k in range(end - x))
            weight = ' font-weight="bold"' if bold else ""
            print(f'<text x="{xs}" y="{6 + (y + 1) * CELL_H - 5}" fill="{color}"{weight} '
                  f'xml:space="preserve">{html.escape(text)}</text>')
        x = end
print("</svg>")
