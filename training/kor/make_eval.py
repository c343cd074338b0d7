#!/usr/bin/env python3
"""Makes the Korean (Hangul) evaluation ink, Tests/Fixtures/hangul/*.jsonl, once; the files are
committed, so a test or an evaluation needs nothing outside the repository.

  /usr/bin/python3 training/kor/make_eval.py          (INKGEN_DIR=DIR if inkgen.py is not in
                                                       ../shared/tools; --out DIR to write elsewhere)

Needs, at generation time only: numpy and Pillow (Debian's python3-numpy, python3-pil), inkgen.py
(gen_ink.py imports it for its variation ranges), and the Debian packages fonts-unfonts-extra,
fonts-alee (the evaluation fonts), hunspell-ko and debian-faq-ko (the texts).

Everything comes from gen_ink.generate with kor/mix-kor-eval.json: the evaluation fonts only
(UnPen, UnPenheulim, Bandal, Bangwool, Eunjin, EunjinNakseo, Guseul), which training never
uses, and the evaluation part of kor_text.py's words and sentences, which training never writes;
the top ticks of ㅎ and ㅊ that tracing absorbs are drawn again (the config's hangul_ticks).

hangul-words.jsonl  WORDS_N single dictionary words (kind kor_word, seed 301)
hangul-lines.jsonl  LINES_N lines (seed 302): dictionary words (kor_line), notes with prices,
                    dates, times, phone numbers and quantities (kor_note), runs of FAQ sentences
                    (kor_prose)

Written like Tests/Fixtures/ink/hand-*.jsonl (Tests/Fixtures/make_ink.py): strokes as a pen
tablet reports them, integer units (board pixels x 8), far from the origin, negative y for the
words, no time channel; one JSON object a line: {"id", "text", "font", "kind", "strokes":
[{"x": [...], "y": [...]}]} (text in UTF-8, NFC). Strokes are in writing order.
"""
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TRAINING = os.path.dirname(HERE)
ROOT = os.path.dirname(TRAINING)
if "INKGEN_DIR" not in os.environ and os.path.isfile(os.path.join(ROOT, "..", "shared", "tools", "inkgen.py")):
    os.environ["INKGEN_DIR"] = os.path.join(ROOT, "..", "shared", "tools")
sys.path.insert(0, TRAINING)
import gen_ink  # noqa: E402

CONFIG = os.path.join(HERE, "mix-kor-eval.json")
WORDS_N, WORDS_SEED = 320, 301
LINES_N, LINES_SEED = 180, 302
LINE_KINDS = {"kor_line": 2, "kor_note": 3, "kor_prose": 2}


def tablet(strokes, offset):
    """Board ink as a pen tablet reports it: integer units, far from the origin, no time."""
    return [{"x": [int(round(x * 8 + offset[0])) for x in s["x"]],
             "y": [int(round(y * 8 + offset[1])) for y in s["y"]]} for s in strokes]


def write(path, config, seed, n, prefix, offset):
    count = 0
    with open(path, "w", encoding="utf-8") as f:
        for sample in gen_ink.generate(config, seed, n, prefix):
            if not sample["strokes"]:
                raise SystemExit("no ink for %r" % sample["text"])
            record = {"id": sample["id"], "text": sample["text"], "font": sample["font"],
                      "kind": sample["kind"][len("kor_"):], "strokes": tablet(sample["strokes"], offset)}
            f.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
            count += 1
    return count


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(ROOT, "Tests", "Fixtures", "hangul"))
    a = ap.parse_args()
    config = gen_ink.load_config(CONFIG)
    missing = [f["path"] for f in config["ttf_fonts"] if not os.path.isfile(f["path"])]
    if missing:
        sys.exit("fonts missing (apt-get install fonts-unfonts-extra fonts-alee): " + " ".join(missing))
    os.makedirs(a.out, exist_ok=True)
    words = write(os.path.join(a.out, "hangul-words.jsonl"), {**config, "kinds": {"kor_word": 1}},
                  WORDS_SEED, WORDS_N, "kw", (12000, -30000))
    lines = write(os.path.join(a.out, "hangul-lines.jsonl"), {**config, "kinds": LINE_KINDS},
                  LINES_SEED, LINES_N, "kl", (500, 4000))
    with open(os.path.join(a.out, "hangul-lines.jsonl"), encoding="utf-8") as f:
        texts = [json.loads(line)["text"] for line in f]
    print("hangul-words.jsonl: %d samples; hangul-lines.jsonl: %d samples, %d with digits" % (
        words, lines, sum(bool(re.search(r"[0-9]", t)) for t in texts)))


if __name__ == "__main__":
    main()
