#!/usr/bin/env python3
"""How often tracing a font loses the top tick of ㅎ and ㅊ (a short stroke on a bar), as
ttf_ink.py traces by default and with the lost ticks restored (gen_ink's "hangul_ticks").

  /usr/bin/python3 training/kor/tick_check.py [--show SHEET.png] [FONT.ttf ...]
        (default: the fonts of the shipped training mix and of the held-out sets, CONFIGS)

For 20 syllables starting with ㅎ or ㅊ, the font's raster and the strokes ttf_ink.py traces
from it are compared: a syllable counts as lost when the traced ink's top is more than 12 % of
the glyph's height below the raster's top (the tick is the highest part of these syllables).
ttf_ink thins the glyph to its centre line, and a tick standing on a bar by less than the
stroke is thick is absorbed into the bar by the thinning: ㅊ is drawn as ㅈ, ㅎ without its top.
A fat font whose tick is traced can still count as lost (its centre line ends more than 12 %
below the raster's top): the count is a screen, the previews the check. The last column counts
the syllables of WIDE (73 with a ㅎ or ㅊ, initial or final) that get a restored stroke; --show
draws them (raster grey, thinned centre line red, traced strokes blue, restored strokes green).
The evaluation fonts (mix-kor-eval.json) are not in the default list.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gen_ink  # noqa: E402
import ttf_ink  # noqa: E402

SYLLABLES = "하호해히후허혀효회화차초치채추처최찬출청"
WIDE = (SYLLABLES + "좋꽃많않싫닿빛낯한할함합행향험현형혜호혹혼홍활황후훈휘흐흔흘희힘"
        + "착참창책천철첫체촌총최추축춘충취층친칠침칭")
KOR = os.path.dirname(os.path.abspath(__file__))
# The shipped training mix and the held-out sets; never the evaluation fonts (mix-kor-eval.json).
CONFIGS = ["mix-kor-jamo2.json", "mix-kor-dev.json", "mix-kor-dev-design.json", "mix-kor-dev-hand.json",
           "mix-kor-dev-square.json"]


def default_fonts():
    """The TTF fonts of CONFIGS, in order, each once."""
    paths = [f["path"] for name in CONFIGS for f in gen_ink.load_config(os.path.join(KOR, name))["ttf_fonts"]]
    return list(dict.fromkeys(paths))


def lost_ticks(path, ticks=False):
    lost = n = 0
    for ch in SYLLABLES:
        if not ttf_ink.covers(path, ch):
            continue
        image, baseline = ttf_ink.raster(path, ch, ttf_ink.HANGUL_RENDER_SIZE)
        rows = np.nonzero(np.asarray(image).astype(bool).any(axis=1))[0]
        top, bottom = rows.min() - baseline, rows.max() - baseline
        traced_top = np.concatenate(ttf_ink.hangul_line_strokes(path, ch, ticks=ticks))[:, 1].min()
        n += 1
        lost += traced_top - top > 0.12 * (bottom - top)
    return lost, n


def restored(path, ch):
    """The tile of `ch` (see --show) and whether a tick was restored in it."""
    image, _, spans = ttf_ink.raster(path, ch, ttf_ink.HANGUL_RENDER_SIZE, spans=True)
    skeleton = ttf_ink.thin(image)
    runs = ttf_ink.pen_walks(skeleton, min_spur=ttf_ink.hangul_spur(path))
    ticks = ttf_ink.restore_ticks(image, runs, ch, spans)
    tile = np.stack([image * 120 + 40] * 3, -1).astype(np.uint8)
    tile[skeleton.astype(bool)] = (255, 60, 60)
    for colour, strokes in (((80, 160, 255), runs), ((0, 255, 0), ticks)):
        for stroke in strokes:
            for r, c in stroke:
                tile[r, c] = colour
    return tile, bool(ticks)


def sheet(rows, out):
    """Rows of tiles, 2x, in one PNG."""
    from PIL import Image
    lines = []
    for tiles in rows:
        line = np.zeros((max(t.shape[0] for t in tiles), sum(t.shape[1] + 4 for t in tiles), 3), np.uint8)
        x = 0
        for t in tiles:
            line[:t.shape[0], x:x + t.shape[1]] = t
            x += t.shape[1] + 4
        lines.append(line)
    page = np.zeros((sum(line.shape[0] + 6 for line in lines), max(line.shape[1] for line in lines), 3), np.uint8)
    y = 0
    for line in lines:
        page[y:y + line.shape[0], :line.shape[1]] = line
        y += line.shape[0] + 6
    image = Image.fromarray(page)
    image.resize((2 * image.width, 2 * image.height), Image.NEAREST).save(out)


def main():
    args = sys.argv[1:]
    show = None
    if args[:1] == ["--show"]:
        show, args = args[1], args[2:]
    rows = []
    print("%-32s %s" % ("font", "top tick lost: as traced -> restored   restored in"))
    for path in args or default_fonts():
        lost, n = lost_ticks(path)
        tiles = [restored(path, ch) for ch in WIDE if ttf_ink.covers(path, ch)]
        hits = [tile for tile, hit in tiles if hit]
        print("%-32s %2d -> %2d of %2d %20d of %2d" % (os.path.basename(path), lost, lost_ticks(path, True)[0], n,
                                                        len(hits), len(tiles)))
        if hits:
            rows.append(hits[:12])
    if show and rows:
        sheet(rows, show)


if __name__ == "__main__":
    main()
