"""Schemathesis hooks for the contract run (loaded by run.sh through SCHEMATHESIS_HOOKS).

They shape generated requests so that more of them get past rules JSON Schema cannot state and
reach the code behind them. They never change a response or a check.

- Ink: a stroke's `x`, `y`, `t` and `p` must have the same length and times must not go backwards.
  Generated positive ink is cut to a common length and its times sorted; negative cases are left
  alone.
- Languages: `lang` must name an installed language, which the schema (a name pattern) cannot know.
  A positive case naming another language is sent with the server's default language instead.
- Sticker text: a PATCH's `text` must fit the sticker's `maxLength` and `charset`, which earlier
  cases of the run change at random. A positive PATCH that sets `text` without saying which rules
  apply also clears them (`maxLength` and `charset` null) so that the text is checked and laid out.
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


@schemathesis.hook
def map_case(context, case):
    operation = case.operation.definition.raw.get("operationId")
    meta = case.meta
    positive = meta is not None and meta.generation.mode == GenerationMode.POSITIVE
    if operation in INK_OPERATIONS and positive and isinstance(case.body, dict):
        strokes = case.body.get("strokes")
        if isinstance(strokes, list):
            for stroke in strokes:
                _fix_stroke(stroke)
        if isinstance(case.body, dict) and case.body.get("lang") not in (None, *INSTALLED_LANGUAGES):
            case.body["lang"] = INSTALLED_LANGUAGES[0]
    if operation == "updateSticker" and positive and isinstance(case.body, dict):
        if isinstance(case.body.get("text"), str):
            case.body.setdefault("maxLength", None)
            case.body.setdefault("charset", None)
    headers = case.headers
    if headers:
        if headers.get("If-Match") == IF_MATCH_EXAMPLE:
            headers["If-Match"] = "*"
        key = headers.get("Idempotency-Key")
        if operation == "createSticker" and isinstance(key, str) and VALID_KEY.fullmatch(key):
            headers["Idempotency-Key"] = f"{key}-{_body_digest(case.body)}"
    return case
