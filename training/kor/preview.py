#!/usr/bin/env python3
"""Draws a few samples of a JSON-lines ink file into one PNG, for a person to look at.

  /usr/bin/python3 training/kor/preview.py FILE.jsonl -o /tmp/preview.png [--n 12] [--start 0]
        [--every K] [--order] [--ids ID,ID...]

One row per sample: its id, font and text above, the strokes below, scaled to fit the row
(board pixels, tablet units and negative y all work: each sample is fitted to its own box).
--order colours the strokes from blue (first) to red (last), numbers them and marks where each
starts, to check the writing order.
"""
import argparse
import colorsys
import json
import os

from PIL import Image, ImageDraw, ImageFont

LABEL_FONTS = ["/usr/share/fonts/truetype/nanum/NanumBarunGothicLight.ttf",
               "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
               "/usr/share/fonts/truetype/unfonts-core/UnDotum.ttf",
               "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]


def label_font(size):
    for path in LABEL_FONTS:
        if os.path.isfile(path):
            return ImageFont.truetype(path, size)
    return ImageFont.load_default()


def read(path, start, n, every, ids):
    out = []
    with open(path, encoding="utf-8") as f:
        for index, line in enumerate(f):
            if not line.strip():
                continue
            sample = json.loads(line)
            if ids:
                if sample.get("id") in ids:
                    out.append(sample)
            elif index >= start and (index - start) % every == 0:
                out.append(sample)
            if len(out) >= n:
                break
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--n", type=int, default=12)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--ids", default="")
    ap.add_argument("--order", action="store_true")
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--ink-height", type=int, default=110)
    a = ap.parse_args()
    samples = read(a.file, a.start, a.n, max(1, a.every), set(filter(None, a.ids.split(","))))
    label, small = label_font(18), label_font(11)
    margin, label_h = 12, 26
    rows = []
    for sample in samples:
        strokes = [list(zip(s["x"], s["y"])) for s in sample["strokes"] if s.get("x")]
        xs = [p[0] for s in strokes for p in s] or [0]
        ys = [p[1] for s in strokes for p in s] or [0]
        w, h = max(1e-6, max(xs) - min(xs)), max(1e-6, max(ys) - min(ys))
        lines = sample["text"].count("\n") + 1
        box_h = a.ink_height * lines
        scale = min((a.width - 2 * margin) / w, box_h / h)
        rows.append((sample, strokes, min(xs), min(ys), scale, int(h * scale) + 8))
    total = sum(label_h + r[5] + margin for r in rows) + margin
    image = Image.new("RGB", (a.width, max(1, total)), "white")
    draw = ImageDraw.Draw(image)
    y = margin
    for sample, strokes, x0, y0, scale, ink_h in rows:
        text = sample["text"].replace("\n", " / ")
        draw.text((margin, y), "%s  [%s]  %s" % (sample.get("id", ""), sample.get("font", ""), text),
                  font=label, fill=(90, 90, 90))
        y += label_h
        for k, stroke in enumerate(strokes):
            pts = [(margin + (px - x0) * scale, y + 4 + (py - y0) * scale) for px, py in stroke]
            if a.order:
                r, g, b = colorsys.hsv_to_rgb(0.66 * (1 - k / max(1, len(strokes) - 1)), 0.9, 0.8)
                colour = (int(r * 255), int(g * 255), int(b * 255))
            else:
                colour = (0, 0, 0)
            if len(pts) == 1 or len(set(pts)) == 1:
                draw.ellipse([pts[0][0] - 2, pts[0][1] - 2, pts[0][0] + 2, pts[0][1] + 2], fill=colour)
            else:
                draw.line(pts, fill=colour, width=3, joint="curve")
            if a.order:
                sx, sy = pts[0]
                draw.ellipse([sx - 3, sy - 3, sx + 3, sy + 3], outline=colour, width=2)
                draw.text((sx + 3, sy - 12), str(k + 1), font=small, fill=colour)
        y += ink_h + margin
    image.save(a.out)
    print("%s: %d samples" % (a.out, len(rows)))


if __name__ == "__main__":
    main()
