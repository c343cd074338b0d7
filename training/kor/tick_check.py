#!/usr/bin/env python3
"""How often tracing a font loses the top tick of ㅎ and ㅊ (a short stroke on a bar).

  /usr/bin/python3 training/kor/tick_check.py [FONT.ttf ...]
        (default: the fonts of the shipped training mix and of the held-out sets, CONFIGS)

For 20 syllables starting with ㅎ or ㅊ, the font's raster and the strokes ttf_ink.py traces
from it are compared: a syllable counts as lost when the traced ink's top is more than 12 % of
the glyph's height below the raster's top (the tick is the highest part of these syllables).
ttf_ink thins the glyph to its centre line, and a tick standing on a bar by less than the
stroke is thick is absorbed into the bar by the thinning: ㅊ is drawn as ㅈ, ㅎ without its top.
The evaluation fonts (mix-kor-eval.json) are not in the default list.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gen_ink  # noqa: E402
import ttf_ink  # noqa: E402

SYLLABLES = "하호해히후허혀효회화차초치채추처최찬출청"
KOR = os.path.dirname(os.path.abspath(__file__))
# The shipped training mix and the held-out sets; never the evaluation fonts (mix-kor-eval.json).
CONFIGS = ["mix-kor-jamo2.json", "mix-kor-dev.json", "mix-kor-dev-design.json", "mix-kor-dev-hand.json",
           "mix-kor-dev-square.json"]


def default_fonts():
    """The TTF fonts of CONFIGS, in order, each once."""
    paths = [f["path"] for name in CONFIGS for f in gen_ink.load_config(os.path.join(KOR, name))["ttf_fonts"]]
    return list(dict.fromkeys(paths))


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
    paths = sys.argv[1:] or default_fonts()
    for path in paths:
        lost, n = lost_ticks(path)
        print("%-36s top tick lost in %2d of %2d" % (os.path.basename(path), lost, n))


if __name__ == "__main__":
    main()
