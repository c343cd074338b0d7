#!/usr/bin/env python3
"""Korean text for synthetic handwriting ink: words, lines, note-style strings and prose runs.

Sources (Debian packages, read at generation time only):
  * words: hunspell-ko's word list (/usr/share/hunspell/ko.dic, KO_DIC=). The file is UTF-8 in
    conjoining jamo (NFD): every entry is normalised to NFC, its affix flags ("/25") dropped, and
    only plain Hangul words of 1-MAX_SYLLABLES precomposed syllables (U+AC00-U+D7A3) are kept
    (no digits, no spaces, no leftover jamo): about 99,600 words, many of them inflected forms.
  * prose: the Korean Debian FAQ (debian-faq-ko, /usr/share/doc/debian/FAQ/ko/*.html,
    KO_PROSE_DIR=): the paragraphs' text, split into sentences, kept when every character is
    allowed (after mapping typographic quotes and dots to ASCII) and most of it is Hangul.
  * notes: composed here: prices in 원, dates, times, phone numbers, quantities, names, and
    short everyday notes made of them and of a small list of everyday words (NOTE_*).

Every text uses Hangul syllables, printable ASCII and '·' only (CHARSET_NOTE).

Words and sentences are split once and for all into a training part and an evaluation part
(`part_of`: CRC-32 of the NFC text, one in ten is "eval"), so the evaluation files never
write a dictionary word or a sentence the training mix writes. The composed notes draw from the
same small vocabularies (NOTE_*) in both parts (their numbers differ from sample to sample);
those words are left out of the evaluation part's dictionary words.

Deterministic: every choice comes from the numpy Generator handed in.

  /usr/bin/python3 training/kor_text.py --seed 5 --n 20 [--part eval] [--kind word|line|note|prose|syllables]
"""
import argparse
import functools
import html.parser
import os
import re
import string
import subprocess
import sys
import tempfile
import unicodedata
import zlib

import numpy as np

KO_DIC = os.environ.get("KO_DIC", "/usr/share/hunspell/ko.dic")
KO_PROSE_DIR = os.environ.get("KO_PROSE_DIR", "/usr/share/doc/debian/FAQ/ko")
KO_STOCK = os.environ.get("KO_STOCK", "/usr/share/tesseract-ocr/5/tessdata/kor.traineddata")
MAX_SYLLABLES = 8
CHARSET_NOTE = "Hangul syllables U+AC00-U+D7A3, printable ASCII and U+00B7 '·'"
PRINTABLE = set(string.printable) - set("\t\n\r\x0b\x0c")
EXTRA = {"\u00b7"}
# Typographic characters of the prose mapped to what a hand would write in ASCII.
TYPOGRAPHY = {"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'", "\u2026": "...", "\u00a0": " ",
              "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u00d7": "x", "\u3000": " "}
PARTICLES = "을|를|이|가|은|는|에|에서|의|로|으로|과|와|도|만|에게|까지|부터|이나|나|처럼|이라고|라고"
LONE_PARTICLES = set("을 를 은 는 에 에서 의 로 으로 과 와 에게 까지 부터".split())   # a dropped link's leftovers
PROSE_MAX_WORDS = 8
PROSE_MAX_CHARS = 32


def is_syllable(ch):
    return "\uac00" <= ch <= "\ud7a3"


def has_hangul(text):
    return any(is_syllable(ch) for ch in text)


def allowed(text):
    """Whether every character of `text` is a Hangul syllable, printable ASCII or '·'."""
    return all(is_syllable(ch) or ch in PRINTABLE or ch in EXTRA for ch in text)


def part_of(text):
    """"eval" for one text in ten (CRC-32 of its UTF-8 NFC form), "train" for the others."""
    return "eval" if zlib.crc32(unicodedata.normalize("NFC", text).encode("utf-8")) % 10 == 0 else "train"


def in_dictionary_check(text):
    """One training-part text in ten (CRC-32 % 10 == 1) that a dictionary may leave out, to
    measure what the dictionary does to words it does not hold (part "dictcheck")."""
    return zlib.crc32(unicodedata.normalize("NFC", text).encode("utf-8")) % 10 == 1


def _select(items, part):
    if part == "all":
        return list(items)
    if part == "dictcheck":
        return [x for x in items if in_dictionary_check(x)]
    if part not in ("train", "eval"):
        raise ValueError("part must be train, eval, dictcheck or all: %r" % part)
    return [x for x in items if part_of(x) == part]


@functools.lru_cache(maxsize=None)
def load_words(path=KO_DIC):
    """Plain Hangul words of the hunspell dictionary, NFC, sorted, without duplicates."""
    if not os.path.isfile(path):
        sys.exit("no %s (install Debian's hunspell-ko)" % path)
    words = set()
    with open(path, encoding="utf-8") as f:
        next(f)                                    # the first line is the entry count
        for line in f:
            word = unicodedata.normalize("NFC", line.rstrip("\n").split("/", 1)[0].strip())
            if 1 <= len(word) <= MAX_SYLLABLES and all(is_syllable(ch) for ch in word):
                words.add(word)
    return tuple(sorted(words))


@functools.lru_cache(maxsize=None)
def stock_words(path=KO_STOCK):
    """Plain Hangul words of the word list in Debian's print model for Korean (tesseract-ocr-kor,
    Apache-2.0, read with dawg2wordlist of tesseract-ocr's training tools), NFC, sorted."""
    if not os.path.isfile(path):
        sys.exit("no %s (install Debian's tesseract-ocr-kor)" % path)
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "kor.")
        subprocess.run(["combine_tessdata", "-u", path, prefix], check=True, capture_output=True)
        subprocess.run(["dawg2wordlist", prefix + "lstm-unicharset", prefix + "lstm-word-dawg",
                        os.path.join(tmp, "words.txt")], check=True, capture_output=True)
        with open(os.path.join(tmp, "words.txt"), encoding="utf-8") as f:
            stock = {unicodedata.normalize("NFC", line.strip()) for line in f}
    return tuple(sorted(w for w in stock if 1 <= len(w) <= MAX_SYLLABLES and all(is_syllable(ch) for ch in w)))


@functools.lru_cache(maxsize=None)
def unseen_words(path=KO_STOCK):
    """Words no training text and no evaluation text writes (part "unseen"): words of
    `stock_words` that are in neither part of the hunspell words, are not a word of a training
    sentence or of the notes, and are not "eval" by `part_of` either. Held-out fonts writing them
    are the nearest held-out likeness of the evaluation fonts' words (real words the model never
    saw written; the dictionary holds them, as it holds the stock word list, but not the
    evaluation fonts' words)."""
    seen = set(load_words())
    seen.update(w for s in load_sentences() for w in " ".join(s).split())
    seen.update(w for phrase in NOTE_VOCABULARY for w in phrase.split())
    return tuple(w for w in stock_words(path) if w not in seen and part_of(w) == "train")


def dictionary_words(part="all"):
    """The Korean model's dictionary: the hunspell words and the words of `stock_words`, all of
    them, as a product's word list holds every word it has. With `part="train"`, only those of
    the training part (`part_of`), never a word of the evaluation part: the dictionary the model
    was measured with until it took in the whole lists, kept to measure how words no dictionary
    holds read (the evaluation fonts' words are of the evaluation part)."""
    return tuple(sorted(set(_select(load_words(), part)) | set(_select(stock_words(), part))))


class _Paragraphs(html.parser.HTMLParser):
    """Text of the <p> elements of a DocBook HTML page (program listings left out; inline code
    kept, so that a sentence naming a file or a command is dropped whole rather than kept with
    a hole)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.paragraphs, self.depth, self.skip, self.current = [], 0, 0, []

    def handle_starttag(self, tag, attrs):
        if tag == "p":
            self.depth += 1
        elif tag in ("pre", "script", "style"):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag == "p" and self.depth:
            self.depth -= 1
            if not self.depth:
                self.paragraphs.append("".join(self.current))
                self.current = []
        elif tag in ("pre", "script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if self.depth and not self.skip:
            self.current.append(data)


def clean(text):
    text = unicodedata.normalize("NFC", text)
    for a, b in TYPOGRAPHY.items():
        text = text.replace(a, b)
    # "(https://...)" after a link's title: dropped, and a particle that followed it joined back on
    text = re.sub(r"\s*\([^()]*(?:https?://|www\.)[^()]*\)\s*(?=(?:%s)(?:[\s.,?!:;)]|$))" % PARTICLES, "", text)
    text = re.sub(r"\([^()]*(?:https?://|www\.)[^()]*\)", " ", text)
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r" ([.,?!:;)])", r"\1", text).replace("( ", "(")
    return text


def balanced(text):
    """Whether brackets pair up and quotes come in pairs."""
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0 and text.count('"') % 2 == 0


@functools.lru_cache(maxsize=None)
def load_sentences(directory=KO_PROSE_DIR):
    """Sentences of the Korean Debian FAQ, as word tuples, in a fixed order without duplicates:
    only allowed characters, no URLs or paths, at least two words, at least 60 % Hangul."""
    if not os.path.isdir(directory):
        sys.exit("no %s (install Debian's debian-faq-ko)" % directory)
    sentences, seen = [], set()
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".html"):
            continue
        parser = _Paragraphs()
        with open(os.path.join(directory, name), encoding="utf-8") as f:
            parser.feed(f.read())
        for paragraph in parser.paragraphs:
            for sentence in re.split(r"(?<=[.?!])\s+", clean(paragraph)):
                words = sentence.split()
                letters = sentence.replace(" ", "")
                if (len(words) < 2 or not allowed(sentence) or sentence in seen or not balanced(sentence) or
                        any(w in LONE_PARTICLES for w in words) or
                        any(re.search(r"://|www\.|/\w+/|\.(html|org|com|gz|deb)\b|@", w) for w in words) or
                        sum(is_syllable(ch) for ch in letters) < 0.6 * len(letters)):
                    continue
                seen.add(sentence)
                sentences.append(tuple(words))
    return tuple(sentences)


# --- composed notes ------------------------------------------------------------------------
NOTE_ITEMS = ("우유 계란 두부 라면 사과 바나나 쌀 김치 커피 빵 휴지 세제 양파 대파 마늘 고기 생수 콜라 과자 치약 "
              "샴푸 건전지 볼펜 공책 택시비 교통비 관리비 월세 전기세 가스비 점심값 주차비 수강료 회비 간식 "
              "꽃다발 케이크 물티슈 참기름 고추장 된장 소금 설탕 귤 딸기 포도 수박 감자 고구마 당근 오이").split()
NOTE_EVENTS = ("회의 약속 미팅 점심 저녁 회식 치과 병원 생일 결혼식 면접 수업 학원 운동 요가 축구 청소 세탁 "
               "택배 마감 발표 출장 여행 예약 시험 상담 이사 장보기 은행 우체국 미용실 과제 제출 정산 "
               "동창회 모임 검진 방문 통화 야근 휴가 등산 독서 모의고사 보고서 계약 면담").split()
NOTE_PLACES = ("강남역 시청 학교 회사 도서관 카페 본관 별관 회의실 정문 후문 주차장 편의점 식당 공원 "
               "체육관 터미널 공항 서울역 부산역 대전역 광장 로비 강당 교무실 사무실").split()
NOTE_PEOPLE = "엄마 아빠 형 누나 언니 오빠 동생 할머니 할아버지 선생님 팀장님 부장님 과장님 사장님 친구".split()
NOTE_VERBS = ("사기 보내기 확인 연락 준비 전화 예약하기 챙기기 입금 환불 반납 주문 수리 신청 출력 복사 "
              "정리 결제 가져오기 취소").split()
NOTE_ADVERBS = ("꼭", "내일", "오늘", "모레", "이번 주", "다음 주", "주말에", "미리", "빨리", "먼저", "다시", "같이")
NOTE_LATIN = "KTX SRT ATM PC USB TV A4 OK PDF Wi-Fi email Zoom ID PW QR CCTV LED SNS B1 3D".split()
SURNAMES = "김 이 박 최 정 강 조 윤 장 임 한 오 서 신 권 황 안 송 류 홍 전 고 문 양 손 배 백 허 남 심".split()
GIVEN = "민 서 지 현 준 우 예 도 하 윤 수 영 진 은 성 혜 재 희 연 태 경 유 정 원 호 아 주 승 채 다 소 나 린 빈".split()
WEEKDAYS = "월 화 수 목 금 토 일".split()
NOTE_VOCABULARY = NOTE_ITEMS + NOTE_EVENTS + NOTE_PLACES + NOTE_PEOPLE + NOTE_VERBS + list(NOTE_ADVERBS)
UNITS = "개 명 번 병 권 장 대 잔 그릇 인분 박스 봉지 시간 분 일 주 달".split()
ITEM_UNITS = "개 병 봉지 박스 인분 그릇 잔 장 묶음 판 통 팩".split()


class KoreanText:
    """Korean text generators drawing on one numpy Generator; `part` picks the dictionary words
    and FAQ sentences ("train", "eval", "dictcheck", "unseen" (words only) or "all")."""

    def __init__(self, rng, part="train"):
        self.rng = rng
        self.part = part
        self._words = None
        self._sentences = None
        self._syllables = None
        self._chain = None

    # --- helpers -------------------------------------------------------------------------
    def pick(self, seq):
        return seq[int(self.rng.integers(len(seq)))]

    def chance(self, p):
        return bool(self.rng.random() < p)

    def digits(self, lo, hi):
        n = int(self.rng.integers(lo, hi + 1))
        first = str(int(self.rng.integers(1, 10)))
        return first + "".join(str(int(self.rng.integers(10))) for _ in range(n - 1))

    @property
    def words(self):
        """The part's dictionary words; the evaluation part without the notes' vocabulary,
        which both parts write in their notes."""
        if self._words is None:
            self._words = list(unseen_words()) if self.part == "unseen" else _select(load_words(), self.part)
            if self.part == "eval":
                shared = {w for phrase in NOTE_VOCABULARY for w in phrase.split()}
                self._words = [w for w in self._words if w not in shared]
        return self._words

    @property
    def sentences(self):
        if self._sentences is None:
            part = "train" if self.part == "dictcheck" else self.part
            self._sentences = [s for s in load_sentences() if part_of(" ".join(s)) == part] \
                if part != "all" else list(load_sentences())
        return self._sentences

    @property
    def syllables(self):
        """The distinct syllables of the part's words, sorted."""
        if self._syllables is None:
            self._syllables = sorted({ch for w in self.words for ch in w})
        return self._syllables

    # --- kinds ---------------------------------------------------------------------------
    def word(self):
        """A dictionary word."""
        return self.pick(self.words)

    def line(self):
        """2-6 dictionary words, now and then ending in punctuation."""
        n = int(self.rng.integers(2, 7))
        text = " ".join(self.pick(self.words) for _ in range(n))
        if self.chance(0.2):
            text += self.pick([".", ".", "?", "!", ",", "~", "..."])
        return text

    def syllable_run(self):
        """1-5 syllables drawn evenly from every syllable the part's words use (rare ones too)."""
        n = int(self.rng.integers(1, 6))
        return "".join(self.pick(self.syllables) for _ in range(n))

    def pseudo_word(self):
        """1-6 syllables that follow one another as in the part's words (a chain of syllable
        pairs: the first syllable as words start, each next one as it follows the last in some
        word, the end as words end) but make no word of the hunspell list or of the stock word
        list: Korean-looking words the network cannot have learnt by heart, with the syllables
        and pairs of real words, where a random syllable run draws rare syllables as often as
        common ones."""
        chain, real = self._pseudo_chain()
        while True:
            out, cur = [], "^"
            while len(out) < 6:
                nexts, cum = chain[cur]
                cur = nexts[int(np.searchsorted(cum, self.rng.random() * cum[-1], side="right"))]
                if cur == "$":
                    break
                out.append(cur)
            word = "".join(out)
            if word and word not in real:
                return word

    def _pseudo_chain(self):
        if self._chain is None:
            pairs = {}
            for w in self.words:
                for a, b in zip("^" + w, w + "$"):
                    pairs.setdefault(a, {}).setdefault(b, 0)
                    pairs[a][b] += 1
            chain = {a: (sorted(nx), np.cumsum([nx[b] for b in sorted(nx)])) for a, nx in pairs.items()}
            self._chain = (chain, set(load_words()) | set(unseen_words()))
        return self._chain

    def prose(self):
        """A run of 1-PROSE_MAX_WORDS consecutive words of a FAQ sentence (at most
        PROSE_MAX_CHARS characters)."""
        if not self.sentences:
            return self.line()
        words = self.pick(self.sentences)
        start = 0 if self.chance(0.4) else int(self.rng.integers(len(words)))
        n = int(self.rng.integers(1, PROSE_MAX_WORDS + 1))
        text = " ".join(words[start:start + n])
        while len(text) > PROSE_MAX_CHARS and " " in text:
            text = text.rsplit(" ", 1)[0]
        return text[:PROSE_MAX_CHARS].strip()

    def price(self):
        k = int(self.rng.integers(9))
        if k == 0:
            return "%s,%s00원" % (self.digits(1, 2), self.pick("0123456789"))
        if k == 1:
            return "%s00원" % self.digits(1, 1)
        if k == 2:
            return self.pick(["만 원", "천 원", "백 원", "십만 원", "만원"])
        if k == 3:
            return "%s만 원" % self.digits(1, 2)
        if k == 4:
            return "%s만 %s천 원" % (self.digits(1, 1), self.digits(1, 1))
        if k == 5:
            return "%s천 원" % self.digits(1, 1)
        if k == 6:
            return "%s,000원" % self.digits(1, 3)
        if k == 7:
            return "%s,%s,%s00원" % (self.digits(1, 1), self.digits(3, 3), self.digits(1, 1))
        return "%s,000 원" % self.digits(1, 2)

    def date(self):
        month, day = int(self.rng.integers(1, 13)), int(self.rng.integers(1, 29))
        year = int(self.rng.integers(2019, 2031))
        k = int(self.rng.integers(8))
        if k == 0:
            return "%d월 %d일" % (month, day)
        if k == 1:
            return "%d.%02d.%02d" % (year, month, day)
        if k == 2:
            return "%d. %d. %d." % (year, month, day)
        if k == 3:
            return "%d/%d" % (month, day)
        if k == 4:
            return "%d월 %d일 (%s)" % (month, day, self.pick(WEEKDAYS))
        if k == 5:
            return "%d월 %d일 %s요일" % (month, day, self.pick(WEEKDAYS))
        if k == 6:
            return "%d년 %d월 %d일" % (year, month, day)
        return "%02d.%02d.%02d" % (year % 100, month, day)

    def time(self):
        hour, minute = int(self.rng.integers(1, 13)), int(self.rng.integers(0, 12)) * 5
        k = int(self.rng.integers(7))
        if k == 0:
            return "%s %d시 %d분" % (self.pick(["오전", "오후"]), hour, minute or 30)
        if k == 1:
            return "%s %d시" % (self.pick(["오전", "오후", "저녁", "아침", "밤", "새벽"]), hour)
        if k == 2:
            return "%d:%02d" % (int(self.rng.integers(0, 24)), minute)
        if k == 3:
            return "%d시 반" % hour
        if k == 4:
            return "%d시~%d시" % (hour, (hour + int(self.rng.integers(1, 4)) - 1) % 12 + 1)
        if k == 5:
            start = int(self.rng.integers(7, 20))
            return "%d:%02d-%d:%02d" % (start, minute, start + int(self.rng.integers(1, 4)), minute)
        return "%d시 %d분" % (hour, minute or 10)

    def phone(self):
        k = int(self.rng.integers(5))
        d = lambda n: "".join(str(int(self.rng.integers(10))) for _ in range(n))  # noqa: E731
        if k <= 1:
            return "010-%s-%s" % (d(4), d(4))
        if k == 2:
            return "0%d-%s-%s" % (self.pick([2, 31, 32, 51, 53, 62, 42, 64]), d(int(self.rng.integers(3, 5))), d(4))
        if k == 3:
            return "%s-%s" % (self.pick(["1588", "1577", "1544", "1661", "1899"]), d(4))
        return "010%s%s" % (d(4), d(4))

    def name(self):
        return self.pick(SURNAMES) + self.pick(GIVEN) + self.pick(GIVEN)

    def quantity(self, units=UNITS):
        return "%d%s" % (int(self.rng.integers(1, 13)), self.pick(units))

    def note(self):
        """A note as written on a board or a sticker: prices, dates, times, phone numbers and
        quantities alone or with everyday words."""
        r = self.rng
        k = int(r.integers(22))
        if k == 0:
            return self.price()
        if k == 1:
            return self.date()
        if k == 2:
            return self.time()
        if k == 3:
            return self.phone()
        if k == 4:
            return "%s %s" % (self.pick(NOTE_ITEMS), self.price())
        if k == 5:
            return "%s %s %s" % (self.pick(NOTE_ITEMS), self.quantity(ITEM_UNITS), self.price())
        if k == 6:
            return "%s %s" % (self.date(), self.pick(NOTE_EVENTS))
        if k == 7:
            return "%s %s" % (self.time(), self.pick(NOTE_EVENTS))
        if k == 8:
            return "%s %s %s" % (self.pick(NOTE_EVENTS), self.date(), self.time())
        if k == 9:
            return "%s %s" % (self.name() + self.pick(["", "님", " 씨"]), self.phone())
        if k == 10:
            return "%s %s" % (self.pick(NOTE_PEOPLE), self.phone())
        if k == 11:
            return "%s %d번 출구 %s" % (self.pick(NOTE_PLACES), int(r.integers(1, 13)), self.time())
        if k == 12:
            return "%s %d층 %s" % (self.pick(NOTE_PLACES), int(r.integers(1, 21)), self.pick(NOTE_EVENTS))
        if k == 13:
            return "%s %s %s" % (self.pick(NOTE_ADVERBS), self.pick(NOTE_ITEMS), self.pick(NOTE_VERBS))
        if k == 14:
            return "%s %s" % (self.pick(NOTE_PEOPLE), self.pick(NOTE_VERBS)) + self.pick(["", "!", "!!", "?"])
        if k == 15:
            return "%s %s" % (self.pick(NOTE_LATIN), self.pick(NOTE_VERBS + NOTE_EVENTS))
        if k == 16:
            return "%s D-%d" % (self.pick(NOTE_EVENTS), int(r.integers(1, 100)))
        if k == 17:
            return "%s %d%% 할인" % (self.pick(NOTE_ITEMS), int(r.integers(1, 10)) * 10)
        if k == 18:
            return "%d호 %s" % (int(r.integers(101, 1500)), self.pick(NOTE_EVENTS + NOTE_VERBS))
        if k == 19:
            separator = " · " if self.chance(0.3) else ", "
            return separator.join(self.pick(NOTE_ITEMS) for _ in range(3))
        if k == 20:
            return "%s %s%d" % (self.pick(NOTE_ITEMS), self.pick(["x", "x ", "* "]), int(r.integers(2, 10)))
        return "%s %s%s %s" % (self.pick(self.words), self.quantity(), self.pick(["", ","]), self.price())


KINDS = {"word": "word", "line": "line", "note": "note", "prose": "prose", "syllables": "syllable_run",
         "pseudo": "pseudo_word"}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--part", default="train", choices=["train", "eval", "unseen", "all"])
    ap.add_argument("--kind", default="note", choices=sorted(KINDS))
    ap.add_argument("--stats", action="store_true", help="print the sizes of the sources")
    a = ap.parse_args()
    if a.stats:
        words, sentences = load_words(), load_sentences()
        print("words %d (train %d, eval %d); sentences %d (train %d, eval %d)" % (
            len(words), len(_select(words, "train")), len(_select(words, "eval")), len(sentences),
            sum(part_of(" ".join(s)) == "train" for s in sentences),
            sum(part_of(" ".join(s)) == "eval" for s in sentences)))
    source = KoreanText(np.random.default_rng(a.seed), a.part)
    for _ in range(a.n):
        text = getattr(source, KINDS[a.kind])()
        assert allowed(text), text
        print(text)


if __name__ == "__main__":
    main()
