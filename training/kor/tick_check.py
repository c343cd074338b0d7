#!/usr/bin/env python3
"""How often tracing a font loses the top tick of ㅎ and ㅊ (a short stroke on a bar).

  /usr/bin/python3 training/kor/tick_check.py [FONT.ttf ...]    (default: training and held-out fonts)

For 20 syllables starting with ㅎ or ㅊ, the font's raster and the strokes ttf_ink.py traces
from it are compared: a syllable counts as lost when the traced ink's top is more than 12 % of
the glyph's height below the raster's top (the tick is the highest part of these syllables).
ttf_ink thins the glyph to its centre line, and a tick standing on a bar by less than the
stroke is thick is absorbed into the bar by the thinning: ㅊ is drawn as ㅈ, ㅎ without its top. The evaluation fonts (mix-kor-eval.json) are not in the default list.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ttf_ink  # noqa: E402

SYLLABLES = "하호해히후허혀효회화차초치채추처최찬출청"
FONTS = "/usr/share/fonts/truetype/"
DEFAULT = ["nanum/NanumPen", "nanum/NanumBrush", "nanum/NanumBarunpenR", "woowa-bm/BMKIRANGHAERANG-TTF",
           "woowa-bm/BMYEONSUNG_ttf", "woowa-bm/BMHANNAAir_ttf", "woowa-bm/BMJUA_ttf", "nanum/NanumGothic",
           "nanum/NanumMyeongjo", "nanum/NanumSquareRoundR", "nanum/NanumBarunGothic",
           "lxgw-wenkai/LXGWWenKai-Regular", "nanum/NanumBarunpenB", "unfonts-extra/UnVada",
           "unfonts-extra/UnPilgia", "baekmuk/dotum", "baekmuk/batang", "lexi/LexiSaebomR",
           "unfonts-extra/UnJamoSora", "unfonts-extra/UnJamoNovel", "unfonts-extra/UnJamoDotum",
           "unfonts-extra/UnJamoBatang", "unfonts-extra/UnTaza"]


def lost_ticks(path):
    lost = n = 0
    for ch in SYLLABLES:
        if not ttf_ink.covers(path, ch):
            continue
        image, baseline = ttf_ink.raster(path, ch, ttf_ink.HANGUL_RENDER_SIZE)
        rows = np.nonzero(np.asarray(image).astype(bool).any(axis=1))[0]
        top, bottom = rows.min() - baseline, rows.max() - baseline
        traced_top = np.concatenate(ttf_ink.hangul_line_strokes(path, ch))[:, 1].min()
        n += 1
        lost += traced_top - top > 0.12 * (bottom - top)
    return lost, n


def main():
    paths = sys.argv[1:] or [FONTS + f + ".ttf" for f in DEFAULT]
    for path in paths:
        lost, n = lost_ticks(path)
        print("%-36s top tick lost in %2d of %2d" % (os.path.basename(path), lost, n))


if __name__ == "__main__":
    main()
