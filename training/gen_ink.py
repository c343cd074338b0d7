#!/usr/bin/env python3
"""Synthetic pen ink for training: inkgen's Hershey-font ink with a text mix weighted towards
what the service reads badly (single digits, short numbers, prices, punctuation, single
characters), on many fonts and with inkgen's "hard" variation ranges.

The ink comes from inkgen.make_sample (the generator of the synthetic test corpora, Hershey
vector fonts) and, for a share `ttf_fraction` of the samples, from handwriting-style TrueType
and OpenType fonts of Debian packages (ttf_ink.make_sample: glyphs thinned to centre lines and
traced into pen strokes); the texts, fonts and the hard/normal mix are chosen here, from the
JSON mix config (which may name a "base" config for the keys it leaves out, and reweight its
fonts with "ttf_weights"; "allowed_chars" draws a text again until it has no other character
than these, spaces and line breaks). A TTF font marked
"caps" has no lower case of its own: its texts are upper-cased.

Korean (kor/mix-kor.json): the kinds kor_word, kor_line, kor_note, kor_prose, kor_syllables and kor_pseudo
write Korean text (kor_text.py: hunspell-ko words, Debian FAQ sentences, composed notes), from
the part of the words and sentences named by "korean_part" ("train", the default, "eval",
"dictcheck" or "unseen", kor_text.py).
With "ttf_fallback": "covering", a TTF font that lacks a glyph of the text hands it to another
TTF font of the config that has them all (weighted as listed) instead of the Hershey fonts,
which have no Hangul (a Hangul text drawn for the Hershey share goes to the TTF fonts too); a
text no TTF font covers stops the run. Hangul syllables drawn by a TTF font can be varied:
"jamo_looseness" (a strength, or a [low, high] range drawn per sample) moves their jamo apart,
"jamo_warp" varies each jamo's and stroke's shape, "jamo_mix" (a share of the syllables)
draws a syllable with jamo of another TTF font of the config, and "jamo_bend" bends each
syllable's strokes; "hangul_ticks": true draws again the top ticks of ㅎ and ㅊ that tracing
absorbs into the bar below them, and leaves everything else as without it (the same texts,
fonts, places and variation); "square_out" (a share of the syllables with a final consonant)
draws them out of square: initial and vowel as the font draws the open syllable, the final hung
below; "hand_layout" (a strength) places a line's characters as a hand does: its width, the
spacing between its characters and each one's size and height (ttf_ink.HandLayout); "cursive"
(a strength) joins strokes as a quick hand does, between the strokes of a syllable and from one
syllable to the next (ttf_ink.Cursive), from a generator of its own, so the texts, fonts, places
and every other variation are those of the mix without it; "fixed_jamo" (a share of the
samples, drawn from a generator of its own) builds every syllable of such a sample from the
font's stand-alone jamo at fixed shapes, out of square (ttf_ink._fixed_jamo), and leaves the
texts, fonts, places and every other draw as without it. Configs without these keys give the
same bytes as before.

  python3 gen_ink.py --config mix.json --seed 101 --n 20000 -o work/ink/synth-101.jsonl

Deterministic: the same config, seed and n (and the same Debian word list and fonts) give
the same file. Never use inkgen seed 1: the synthetic test corpora were drawn with it.
"""
import argparse
import copy
import functools
import json
import os
import re
import string
import sys

import numpy as np

# inkgen.py of the shared folder: INKGEN_DIR, else SHARED/tools, else ../shared/tools beside the
# repository or above it (as training/common.sh finds the shared folder).
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_CANDIDATES = ([os.path.join(os.environ["SHARED"], "tools")] if os.environ.get("SHARED") else []) + [
    os.path.join(_ROOT, "..", "shared", "tools"), os.path.join(_ROOT, "..", "..", "shared", "tools")]
INKGEN_DIR = os.environ.get("INKGEN_DIR") or next(
    (d for d in _CANDIDATES if os.path.isfile(os.path.join(d, "inkgen.py"))), _CANDIDATES[0])
sys.path.insert(0, INKGEN_DIR)
import inkgen  # noqa: E402
import kor_text  # noqa: E402
import ttf_ink  # noqa: E402

# The generator of a sample's joined strokes ("cursive") is seeded with (seed, sample, this), so
# that it draws nothing from the sample's own generator.
CURSIVE_STREAM = 0x6A6F696E
# The same for whether a sample's syllables are built from jamo of fixed shapes ("fixed_jamo").
FIXED_JAMO_STREAM = 0x6A616D6F
PUNCT_SAFE = ".,:;!?-'\"()/&+=%$#@*"
PRINTABLE = set(string.printable) - set("\t\n\r\x0b\x0c")
# English sentences for the "prose" kind: Debian's fortunes package (quotations, jokes,
# definitions: everyday English with its word order and function words).
PROSE_DIR = os.environ.get("PROSE_DIR", "/usr/share/games/fortunes")
PROSE_SKIP = {"art", "ascii-art"}
# Prose runs as long as a handwritten line on a board: up to 14 words and 80 characters.
PROSE_MAX_WORDS = 14
PROSE_MAX_CHARS = 80


def load_prose(directory=PROSE_DIR):
    """Word lists of the English passages in a fortune directory (entries separated by "%"
    lines; attributions, indented verse layout and non-ASCII text dropped), in a fixed order."""
    passages = []
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if "." in name or name in PROSE_SKIP or not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for entry in f.read().split("\n%\n"):
                lines = [l for l in entry.splitlines() if not l.strip().startswith("--")]
                words = " ".join(lines).split()
                if len(words) >= 3 and all(set(w) <= PRINTABLE for w in words):
                    passages.append(words)
    return passages


class Texts:
    """Text generators, one per kind of the mix."""

    def __init__(self, rng, korean_part="train"):
        self.rng = rng
        self.korean_part = korean_part
        self.korean = None
        self.inkgen = inkgen.TextSource(rng)
        words = []
        with open(inkgen.WORDS_FILE, encoding="utf-8", errors="replace") as f:
            for w in f:
                w = w.strip()
                # Possessives ("x's") are a quarter of the list: left out here, k_punctuated adds some.
                if re.fullmatch(r"[A-Za-z]{1,16}", w):
                    words.append(w)
        self.words = sorted(set(words))
        self.short = [w for w in self.words if len(w) <= 4 and w.isalpha()]
        self.prose = None

    def pick(self, seq):
        return seq[int(self.rng.integers(len(seq)))]

    def digits(self, lo, hi):
        n = int(self.rng.integers(lo, hi + 1))
        return "".join(str(int(self.rng.integers(10))) for _ in range(n))

    def case(self, w):
        r = self.rng.random()
        if r < 0.5:
            return w
        if r < 0.85:
            return w[:1].upper() + w[1:]
        return w.upper()

    # --- kinds -------------------------------------------------------------------------
    def k_inkgen(self):
        return self.inkgen.sample(0.0)

    def k_word(self):
        w = self.pick(self.words)
        if self.rng.random() < 0.15:
            w = self.pick(self.short)
        return self.case(w)

    def k_letters(self):
        n = int(self.rng.integers(1, 9))
        pool = string.ascii_lowercase if self.rng.random() < 0.6 else string.ascii_letters
        return "".join(self.pick(pool) for _ in range(n))

    def k_prose(self):
        """A run of 1-PROSE_MAX_WORDS consecutive words of an English passage, at most
        PROSE_MAX_CHARS characters."""
        if self.prose is None:
            self.prose = load_prose()
            if not self.prose:
                sys.exit("no English passages in %s (install Debian's fortunes package)" % PROSE_DIR)
        words = self.pick(self.prose)
        start = int(self.rng.integers(len(words)))
        n = int(self.rng.integers(1, PROSE_MAX_WORDS + 1))
        text = " ".join(words[start:start + n])
        while len(text) > PROSE_MAX_CHARS and " " in text:
            text = text.rsplit(" ", 1)[0]
        return text[:PROSE_MAX_CHARS]

    def k_phrase(self):
        n = int(self.rng.integers(2, 8))
        words = [self.pick(self.words) for _ in range(n)]
        words[0] = words[0][:1].upper() + words[0][1:] if self.rng.random() < 0.5 else words[0]
        text = " ".join(words)
        if self.rng.random() < 0.3:
            text += self.pick([".", ".", ",", "!", "?", ":"])
        if self.rng.random() < 0.15:
            text = text.upper()
        return text

    def k_digit(self):
        return str(int(self.rng.integers(10)))

    def k_short_number(self):
        return self.digits(1, 4)

    def k_digit_run(self):
        start = int(self.rng.integers(10))
        n = int(self.rng.integers(3, 11))
        seq = [str((start + i) % 10) for i in range(n)] if self.rng.random() < 0.5 else \
            [str(int(self.rng.integers(10))) for _ in range(n)]
        return (" " if self.rng.random() < 0.5 else "").join(seq)

    def k_number(self):
        r, d = self.rng, self.digits
        k = int(r.integers(12))
        if k == 0:
            return "$%s.%s" % (d(1, 3), d(2, 2))
        if k == 1:
            return "%s.%s%s" % (d(1, 3), d(2, 2), self.pick(["$", "", " $"]))
        if k == 2:
            return "%s%%" % d(1, 3)
        if k == 3:
            return "(%s) %s-%s" % (d(3, 3), d(3, 3), d(4, 4))
        if k == 4:
            return "%s-%s" % (d(3, 3), d(4, 4))
        if k == 5:
            return "%s/%s/%s" % (d(1, 2), d(1, 2), d(2, 4))
        if k == 6:
            return "%s.%s" % (d(1, 4), d(1, 3))
        if k == 7:
            return "%s,%s" % (d(1, 3), d(3, 3))
        if k == 8:
            return "%s:%s" % (d(1, 2), d(2, 2))
        if k == 9:
            return self.pick(["#", "@", "No. ", "x"]) + d(1, 4)
        if k == 10:
            return "%s %s" % (d(2, 4), d(2, 4))
        return d(5, 10)

    def k_arithmetic(self):
        r, d = self.rng, self.digits
        a = d(1, 3) + self.pick(["", "", "$", "%", ".%s" % d(1, 2)])
        b = d(1, 3) + self.pick(["", "", "$", "%", ".%s" % d(1, 2)])
        op = self.pick(["+", "-", "*", "/", "x"])
        s = self.pick([" ", ""])
        text = "%s%s%s%s%s" % (a, s, op, s, b)
        if r.random() < 0.6:
            text += "%s=%s%s" % (s, s, d(1, 4) + self.pick(["", ".%s" % d(1, 2)]))
        return text

    def k_char(self):
        r = self.rng.random()
        if r < 0.45:
            return self.pick(string.ascii_letters)
        if r < 0.7:
            return self.pick(string.digits)
        return self.pick(PUNCT_SAFE)

    # --- Korean kinds (kor_text.KoreanText, created on first use) ---------------------------
    def _korean(self):
        if self.korean is None:
            self.korean = kor_text.KoreanText(self.rng, self.korean_part)
        return self.korean

    def k_kor_word(self):
        return self._korean().word()

    def k_kor_line(self):
        return self._korean().line()

    def k_kor_note(self):
        return self._korean().note()

    def k_kor_prose(self):
        return self._korean().prose()

    def k_kor_syllables(self):
        return self._korean().syllable_run()

    def k_kor_pseudo(self):
        return self._korean().pseudo_word()

    def k_punctuated(self):
        w = self.k_word()
        k = int(self.rng.integers(8))
        if k == 0:
            return '"%s"' % w
        if k == 1:
            return "(%s)" % w
        if k == 2:
            return "%s%s" % (w, self.pick(["?", "!", ".", ",", ";", ":", "!!", "?!", "..."]))
        if k == 3:
            return "%s-%s" % (w, self.k_word())
        if k == 4:
            return "%s & %s" % (w, self.k_word())
        if k == 5:
            return "%s's" % w
        if k == 6:
            return "%s, %s." % (w, self.k_word())
        return "%s: %s" % (w, self.k_number())


def generate(config, seed, n, prefix):
    rng = np.random.default_rng(seed)
    texts = Texts(rng, config.get("korean_part", "train"))
    covering = config.get("ttf_fallback") == "covering"
    kinds = list(config["kinds"].keys())
    kw = np.array([config["kinds"][k] for k in kinds], dtype=float)
    kw /= kw.sum()
    fonts = config["fonts"]
    fw = np.array(config.get("font_weights", [1] * len(fonts)), dtype=float)
    fw /= fw.sum()
    ttf_fonts = config.get("ttf_fonts", [])
    tw = np.array([f.get("weight", 1) for f in ttf_fonts], dtype=float)
    donors = [f["path"] for f in ttf_fonts]
    normal, hard = inkgen.Params(False), inkgen.Params(True)
    allowed = set(config["allowed_chars"]) | {" ", "\n"} if "allowed_chars" in config else None
    for i in range(n):
        while True:
            kind = kinds[int(rng.choice(len(kinds), p=kw))]
            text = getattr(texts, "k_" + kind)()
            if rng.random() < config.get("multiline_fraction", 0.0):
                text += "\n" + getattr(texts, "k_" + kinds[int(rng.choice(len(kinds), p=kw))])()
            if allowed is None or set(text) <= allowed:
                break
        is_hard = bool(rng.random() < config.get("hard_fraction", 0.0))
        params = hard if is_hard else normal
        ttf = None
        if ttf_fonts and rng.random() < config.get("ttf_fraction", 0.0):
            ttf = ttf_fonts[int(rng.choice(len(ttf_fonts), p=tw / tw.sum()))]
            if ttf.get("caps"):
                text = text.upper()
        if covering and (not ttf_ink.covers(ttf["path"], text) if ttf is not None else ttf_ink.has_hangul(text)):
            able = [j for j, f in enumerate(ttf_fonts) if ttf_ink.covers(f["path"], text)]
            if not able:
                raise ValueError("no TTF font of the config has every glyph of %r" % text)
            ttf = ttf_fonts[able[int(rng.choice(len(able), p=tw[able] / tw[able].sum()))]]
            if ttf.get("caps"):
                text = text.upper()
        strokes = []
        if ttf is not None and ttf_ink.covers(ttf["path"], text):
            font = os.path.basename(ttf["path"])
            looseness = config.get("jamo_looseness", 0.0)
            fixed_share = config.get("fixed_jamo", 0.0)
            if isinstance(looseness, list):
                # A range: each sample draws its own strength, from tidy to loose blocks.
                looseness = float(rng.uniform(*looseness))
            draw = functools.partial(ttf_ink.make_sample, text, ttf["path"], P=params,
                                     jamo_looseness=looseness,
                                     jamo_warp=config.get("jamo_warp", 0.0),
                                     jamo_mix=config.get("jamo_mix", 0.0),
                                     donors=donors,
                                     jamo_bend=config.get("jamo_bend", 0.0),
                                     square_out=config.get("square_out", 0.0),
                                     hand_layout=config.get("hand_layout", 0.0))
            ticked = bool(config.get("hangul_ticks")) and ttf_ink.has_ticked(text)
            quick = config.get("cursive", 0.0) if ttf_ink.has_hangul(text) else 0.0
            fixed = bool(fixed_share > 0 and ttf_ink.has_hangul(text) and
                         np.random.default_rng([seed, i, FIXED_JAMO_STREAM]).random() < fixed_share)
            if ticked or quick or fixed:
                # A restored tick is one stroke more, joined strokes are fewer, jamo of fixed
                # shapes have strokes of their own, and every stroke draws from the generator:
                # such ink is drawn from a copy of it, and the generator goes on as without ticks,
                # joins and fixed jamo, so every other sample (and this one's text, font and
                # place) stays the same as without those keys.
                twin = copy.deepcopy(rng)
                draw(rng=rng)
                strokes = draw(rng=twin, hangul_ticks=ticked, cursive=quick,
                               cursive_seed=[seed, i, CURSIVE_STREAM], fixed_jamo=fixed)
            else:
                strokes = draw(rng=rng)
        if not strokes:
            font = fonts[int(rng.choice(len(fonts), p=fw))]
            strokes = inkgen.make_sample(text, font, rng, params)
        yield {"id": "%s%d-%06d" % (prefix, seed, i), "text": text, "font": font, "kind": kind,
               "hard": is_hard, "strokes": strokes}


# The shared folder's fonts (fonts/kor) are named "$SHARED/fonts/kor/NAME.ttf" in mix configs: the
# folder is SHARED, else the one inkgen.py was found in.
SHARED_DIR = os.environ.get("SHARED") or os.path.dirname(os.path.abspath(INKGEN_DIR))


def load_config(path):
    """The mix config at `path`. A config with "base" (a path relative to it) takes every key of
    that config it does not set itself. "ttf_add" (a list like "ttf_fonts") adds fonts to the
    resulting "ttf_fonts"; then "ttf_weights" ({font file name: weight}) sets the weights of those
    fonts, so that a mix that only adds or reweights fonts does not repeat its base's list. A
    font path may start with $SHARED (the shared folder, SHARED_DIR)."""
    with open(path, encoding="utf-8") as f:
        config = json.load(f)
    base = config.pop("base", None)
    weights = config.pop("ttf_weights", None)
    added = config.pop("ttf_add", None)
    if base:
        config = {**load_config(os.path.join(os.path.dirname(path), base)), **config}
    if added:
        config["ttf_fonts"] = config.get("ttf_fonts", []) + added
    if "ttf_fonts" in config:
        config["ttf_fonts"] = [{**f, "path": f["path"].replace("$SHARED", SHARED_DIR)} for f in config["ttf_fonts"]]
    if weights:
        fonts = config.get("ttf_fonts", [])
        unknown = set(weights) - {os.path.basename(f["path"]) for f in fonts}
        if unknown:
            raise SystemExit(f"{path}: ttf_weights names fonts the mix does not have: {', '.join(sorted(unknown))}")
        config["ttf_fonts"] = [{**f, "weight": weights[os.path.basename(f["path"])]}
                               if os.path.basename(f["path"]) in weights else f for f in fonts]
    return config


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", default=os.path.join(os.path.dirname(__file__), "mix.json"))
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--prefix", default="g")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--hangul-ticks", action="store_true",
                    help='draw the lost ticks of ㅎ and ㅊ again, as "hangul_ticks": true in the config')
    a = ap.parse_args()
    if a.seed == 1:
        sys.exit("seed 1 drew the synthetic test corpora; use another seed")
    config = load_config(a.config)
    if a.hangul_ticks:
        config["hangul_ticks"] = True
    missing = [f["path"] for f in config.get("ttf_fonts", []) if not os.path.isfile(f["path"])]
    if missing:
        sys.exit("fonts missing (install the fonts-* packages named in training/README.md): " + " ".join(missing))
    with open(a.out, "w", encoding="utf-8") as out:
        for rec in generate(config, a.seed, a.n, a.prefix):
            out.write(json.dumps(rec, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
