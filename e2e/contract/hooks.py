"""Schemathesis hooks for the contract run (loaded by run.sh through SCHEMATHESIS_HOOKS).

They shape generated requests so that more of them get past rules JSON Schema cannot state and
reach the code behind them. They never change a response or a check.

- Ink: a stroke's `x`, `y`, `t` and `p` must have the same length and times must not go backwards.
  Generated positive ink is cut to a common length and its times sorted; negative cases are left
  alone.
- Languages: `lang` must name an installed language, which the schema (a name pattern) cannot know.
  A positive case naming another language is sent with the server's default language instead.
- Sticker text: a PATCH's `text` must fit the sticker's `maxLength` and `charset` (as this request
  leaves them), which earlier cases of the run change at random. A positive PATCH that sets `text`
  without saying which rules apply also clears them (`maxLength` and `charset` null), and its text
  is cut down to what the rules it sends accept, so that the text is checked and laid out.
- If-Match: the coverage phase sends the parameter's documented example (`"v3"`) in nearly every
  case, so almost every edit would stop at 412 before its body is looked at. That example is sent
  as `*` instead; generated tags (fuzzing) and the 412 path they reach are untouched.
- Idempotency-Key: the coverage phase reuses the documented example key with many different bodies,
  which the server rightly refuses (422, key reused with another request) before recognition.
  A valid key gets a suffix derived from the body, so one body keeps one key (a repeated body is
  still replayed) and different bodies get different keys.
"""
import hashlib
import json
import os
import re

import schemathesis
from schemathesis import GenerationMode

INK_OPERATIONS = {"recognizeInk", "createSticker"}
IF_MATCH_EXAMPLE = '"v3"'
VALID_KEY = re.compile(r"[!-~]{1,200}")
# The server's languages (GET /v1/languages), default first; run.sh sets this.
INSTALLED_LANGUAGES = os.environ.get("CONTRACT_LANGUAGES", "eng").split(",")


def _fix_stroke(stroke):
    if not isinstance(stroke, dict):
        return
    for name in ("t", "p"):
        if stroke.get(name) == []:
            stroke[name] = None  # optional channels may be null; an empty one would not match x
    channels = [name for name in ("x", "y", "t", "p") if isinstance(stroke.get(name), list)]
    if "x" not in channels or "y" not in channels:
        return
    length = min(len(stroke[name]) for name in channels)
    if length == 0:
        return
    for name in channels:
        del stroke[name][length:]
    if "t" in channels and all(isinstance(v, (int, float)) for v in stroke["t"]):
        stroke["t"].sort()


def _body_digest(body):
    try:
        text = json.dumps(body, sort_keys=True, default=repr)
    except (TypeError, ValueError):
        text = repr(body)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


NUMBER_CHARACTERS = set("0123456789.,-+/: ")
DIGIT_CHARACTERS = set("0123456789")


def _fit_text(text, max_length, charset):
    """`text` reduced to what the rules accept: allowed characters only, at most `max_length` code points."""
    allowed = {"digits": DIGIT_CHARACTERS, "number": NUMBER_CHARACTERS}.get(charset)
    if allowed is not None:
        text = "".join(c for c in text if c in allowed or c == "\n")
    if isinstance(max_length, int) and not isinstance(max_length, bool) and max_length >= 0:
        # Code points are never fewer than characters (grapheme clusters), so this always fits.
        text = text[:max_length]
    return text


def _shape(case):
    operation = case.operation.definition.raw.get("operationId")
    meta = case.meta
    # The stateful phase's cases carry no generation metadata; they are built from positive data.
    positive = meta is None or meta.generation.mode == GenerationMode.POSITIVE
    body = case.body
    if operation in INK_OPERATIONS and positive and isinstance(body, dict):
        strokes = body.get("strokes")
        if isinstance(strokes, list):
            for stroke in strokes:
                _fix_stroke(stroke)
        if body.get("lang") not in (None, *INSTALLED_LANGUAGES):
            body["lang"] = INSTALLED_LANGUAGES[0]
    if operation == "updateSticker" and positive and isinstance(body, dict) and isinstance(body.get("text"), str):
        body.setdefault("maxLength", None)
        body.setdefault("charset", None)
        body["text"] = _fit_text(body["text"], body["maxLength"], body["charset"])
    headers = case.headers
    if headers:
        if headers.get("If-Match") == IF_MATCH_EXAMPLE:
            headers["If-Match"] = "*"
        key = headers.get("Idempotency-Key")
        if operation == "createSticker" and isinstance(key, str) and VALID_KEY.fullmatch(key):
            headers["Idempotency-Key"] = f"{key}-{_body_digest(body)}"
    return case


@schemathesis.hook
def map_case(context, case):
    return _shape(case)


@schemathesis.hook
def before_add_examples(context, examples):
    # The examples phase builds its cases from the spec's examples and does not run `map_case`.
    for case in examples:
        _shape(case)
