#!/usr/bin/env python3
"""Makes the test suite's ink fixtures (Tests/Fixtures/ink/*.jsonl), once; the files are
committed, so the tests need nothing outside the repository.

  python3 Tests/Fixtures/make_ink.py --inkgen DIR      (or INKGEN_DIR=DIR)

Needs, at generation time only: the Hershey-font ink generator `inkgen.py` (its directory via
--inkgen or INKGEN_DIR), numpy and Pillow, and the Debian font packages hershey-fonts-data,
fonts-breip, fonts-comic-neue, fonts-fantasque-sans.

print.jsonl, script.jsonl  inkgen.generate(seed 1, fonts futural, rowmans, scripts, cursive):
                           Hershey vector fonts with inkgen's ordinary jitter, slant, rotation
                           and timing; split by font family, the first SYNTH_N of each plus the
                           multi-line and number samples some tests look for by text.
hand-words.jsonl,          handwriting-style TrueType fonts traced into pen strokes
hand-digits.jsonl,         (training/ttf_ink.py) with inkgen's variation ("hard" for digits), written
hand-text.jsonl            the way a pen tablet records them: integer tablet units (×8), far
                           from the origin, negative y, no time channel.
Licences: the Hershey fonts are free to use (hershey-fonts-data);
Breip, Comic Neue and Fantasque Sans are under the SIL Open Font License or GPL-compatible free
licences (see each Debian package's copyright file). The ink is generated, not anyone's writing.
"""
import argparse
import json
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SYNTH_N = 70
WANTED_PRINT = {"artless", "CALCUTTA", "sharpness", "See Arthur at 2023-03-16", "email Sarah", "555-9079",
                "Take out trash Dec 23\nFRANCIS\nquadruples", "Bahama\nRydberg\nFETLOCKS", "2023-12-05", "koan",
                "update resume", "pedicure", "lO"}
HAND_FONTS = [
    "/usr/share/fonts/truetype/breip/Breip.ttf",
    "/usr/share/fonts/opentype/comic-neue/ComicNeue-Regular.otf",
    "/usr/share/fonts/truetype/fantasque-sans/Normal/TTF/FantasqueSansMono-Italic.ttf",
    "/usr/share/fonts/opentype/comic-neue/ComicNeue-Italic.otf",
]
HAND_WORDS = ("garden window silver market yellow coffee monday letter friday number orange simple "
              "people answer travel little summer picture better nothing bridge family winter button "
              "student morning kitchen doctor pencil paper").split()
HAND_TEXT = ["call the office at noon", "buy milk and bread", "meeting moved to friday", "send the photos to Anna",
             "pick up keys", "bring two chairs", "water the plants today", "book a table for four",
             "return the library books", "check the oven timer"]


def tablet(strokes, offset):
    """Board ink as a pen tablet reports it: integer units, far from the origin, no time."""
    return [{"x": [int(round(x * 8 + offset[0])) for x in s["x"]],
             "y": [int(round(y * 8 + offset[1])) for y in s["y"]]} for s in strokes]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inkgen", default=os.environ.get("INKGEN_DIR"),
                    help="the directory holding inkgen.py (the shared tools); needed only to remake the fixtures")
    a = ap.parse_args()
    if not a.inkgen:
        ap.error("--inkgen DIR (or INKGEN_DIR) must name the directory holding inkgen.py")
    sys.path.insert(0, a.inkgen)
    sys.path.insert(0, os.path.join(ROOT, "training"))
    import inkgen
    import ttf_ink

    out_dir = os.path.join(HERE, "ink")
    os.makedirs(out_dir, exist_ok=True)
    files = {"print": [], "script": []}
    for sample in inkgen.generate(1, 400, ["futural", "rowmans", "scripts", "cursive"], prefix="d"):
        family = "print" if sample["font"] in ("futural", "rowmans") else "script"
        number = "\n" not in sample["text"] and re.fullmatch(r"[0-9 .,:/$%+\-()#]+", sample["text"])
        numbers = sum(1 for s in files["print"] if "\n" not in s["text"] and re.fullmatch(r"[0-9 .,:/$%+\-()#]+", s["text"]))
        keep = len(files[family]) < SYNTH_N or (family == "print" and (sample["text"] in WANTED_PRINT or
                                                                     (number and numbers < 15)))
        if keep:
            files[family].append(sample)

    rng = np.random.default_rng(17)
    hard = inkgen.Params(True)
    normal = inkgen.Params(False)
    files["hand-words"] = []
    files["hand-digits"] = []
    files["hand-text"] = []
    for i, word in enumerate(HAND_WORDS):
        font = HAND_FONTS[i % len(HAND_FONTS)]
        strokes = ttf_ink.make_sample(word, font, rng, normal)
        files["hand-words"].append({"id": "hw-%02d" % i, "text": word, "font": os.path.basename(font),
                                    "strokes": tablet(strokes, (12000, -30000))})
    for i in range(40):
        digit = str(i % 10)
        font = HAND_FONTS[(i // 10) % len(HAND_FONTS)]
        strokes = ttf_ink.make_sample(digit, font, rng, hard)
        files["hand-digits"].append({"id": "hd-%02d" % i, "text": digit, "font": os.path.basename(font),
                                     "strokes": tablet(strokes, (3000, -2500))})
    for i, line in enumerate(HAND_TEXT):
        font = HAND_FONTS[i % len(HAND_FONTS)]
        strokes = ttf_ink.make_sample(line, font, rng, normal)
        files["hand-text"].append({"id": "ht-%02d" % i, "text": line, "font": os.path.basename(font),
                                   "strokes": tablet(strokes, (500, 4000))})
    for name, samples in files.items():
        with open(os.path.join(out_dir, name + ".jsonl"), "w", encoding="utf-8") as f:
            for sample in samples:
                sample.pop("hard", None)
                f.write(json.dumps(sample, separators=(",", ":")) + "\n")
        print("%s: %d samples" % (name, len(samples)))


if __name__ == "__main__":
    main()
