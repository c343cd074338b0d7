#!/usr/bin/env python3
"""A client generated from openapi.yaml works, errors included.

Generates a Python client with openapi-python-client (the version pinned in
client-requirements.txt), then runs the README's flow through it against a server this script
starts ($INKSTICKER_BIN, else the debug build; on a fresh PostgreSQL schema under
$INKSTICKER_TEST_POSTGRES, as every e2e test): a board, recognition, a sticker from ink (with an
Idempotency-Key, replayed), reading, listing and paging, PATCH with If-Match, key input, commit, end
of editing, ink, pictures, the event stream, and deletion. Along the way it provokes every error
status the flow documents that a client can reach, and checks that the generated client parses
each into its own typed problem model (type, status, title, detail, pointers, headers):

  400 (malformed Idempotency-Key, bad query), 401, 404, 405, 409, 412, 413, 415, 422, 429, 431.

405 is the answer to a method the contract does not list, so no generated operation sends one: it
is sent through the generated client's own httpx client and parsed with the generated Problem405.
503 (overload, shutdown) is not provoked; its model is checked to exist like every other one.

The generator's warnings are checked too: only the documented non-JSON bodies (PNG, SVG, YAML,
InkML) may be left out of the client, no schema.

  python3 e2e/contract/generated_client.py openapi.yaml      # from the client venv (run.sh)
Prints a line per check and 'generated client: N passed, N failed'.
"""
import importlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import traceback

import httpx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "reliability"))
from common import ROOT, Server  # noqa: E402

PACKAGE = "ink_sticker_api_client"
# What the generator may leave out: bodies that are not JSON (it has no type for them).
ALLOWED_WARNINGS = re.compile(r"Unsupported content[_ ]type (image/png|image/svg\+xml|application/yaml|application/inkml\+xml)")
# The server's per-token ink limit for this run: enough for the flow's posts, few enough to reach 429.
INK_BURST = 20
L_STROKE = {"x": [10, 10, 30], "y": [10, 40, 40], "t": [0, 80, 160]}


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, ok, detail=""):
        print(("ok    " if ok else "FAIL  ") + name + (f": {detail}" if detail and not ok else ""), flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        return ok


def generate(spec, out):
    """Generates the client into `out`/PACKAGE; answers the generator's output."""
    config = os.path.join(out, "config.yaml")
    with open(config, "w") as f:
        f.write("post_hooks: []\n")  # no formatter run: the client is used as generated
    run = subprocess.run([os.path.join(os.path.dirname(sys.executable), "openapi-python-client"), "generate",
                          "--path", spec, "--meta", "none", "--output-path", os.path.join(out, PACKAGE),
                          "--config", config],
                         capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        raise SystemExit(f"openapi-python-client failed ({run.returncode}):\n{run.stdout}\n{run.stderr}")
    return run.stdout + run.stderr


def generator_problems(output):
    """Warnings other than the allowed ones: each 'WARNING ...' or 'Unable to process ...' block."""
    problems = []
    for block in re.split(r"\n(?=WARNING |Unable to process )", output):
        block = block.strip()
        if block.startswith("WARNING ") or block.startswith("Unable to process "):
            lines = [line for line in block.splitlines() if line.strip()]
            reason = lines[1] if len(lines) > 1 else lines[0]
            if not ALLOWED_WARNINGS.search(reason):
                problems.append(lines[0] + " / " + reason)
    return problems


def problem_schemas(spec_path):
    """The names of the spec's problem schemas (Problem400, ...)."""
    with open(spec_path, encoding="utf-8") as f:
        return sorted(set(re.findall(r"^    (Problem[0-9]{3}):$", f.read(), re.M)))


def main(spec):
    checks = Checks()
    work = tempfile.mkdtemp(prefix="generated-client-")
    output = generate(spec, work)
    problems = generator_problems(output)
    checks.check("the generator keeps every schema (only non-JSON bodies left out)", not problems, "; ".join(problems))
    sys.path.insert(0, work)
    models = importlib.import_module(PACKAGE + ".models")
    missing = [name for name in problem_schemas(spec) if not hasattr(models, name)]
    checks.check("every problem schema is a model of the client", not missing and problem_schemas(spec), ", ".join(missing))

    server = Server(os.path.join(work, "db.sqlite"), log_path=os.path.join(work, "server.log"), build="debug",
                    args=["--ocr-workers", "1", "--rate-ink-per-token", f"1:{INK_BURST}"]).start()
    try:
        flow(checks, models, f"http://127.0.0.1:{server.port}")
    except Exception as error:  # a model or an operation the client lacks: the flow cannot go on
        traceback.print_exc()
        checks.check("the README's flow runs to the end", False, f"{type(error).__name__}: {error}")
    finally:
        server.stop()
        with open(os.path.join(work, "server.log"), encoding="utf-8", errors="replace") as f:
            errors = [line for line in f if '"level":"error"' in line]
        checks.check("the server logged no error", not errors, "".join(errors[:5]))
    failed = checks.failed or not checks.passed
    if failed:
        print(f"generated client: the client and the server log are kept in {work}", flush=True)
    else:
        shutil.rmtree(work, ignore_errors=True)
    print(f"generated client: {checks.passed} passed, {checks.failed} failed", flush=True)
    return 1 if failed else 0


def flow(checks, m, base):
    from ink_sticker_api_client import AuthenticatedClient, Client
    from ink_sticker_api_client.api.boards import create_board, delete_board, get_board
    from ink_sticker_api_client.api.editing import (clear_stickers, commit_sticker, delete_sticker, end_editing,
                                                     input_sticker, update_sticker)
    from ink_sticker_api_client.api.pictures import get_sticker_ink_image, render_board
    from ink_sticker_api_client.api.recognition import recognize_ink
    from ink_sticker_api_client.api.stickers import create_sticker, get_sticker, get_sticker_ink, list_stickers
    from ink_sticker_api_client.types import UNSET

    def problem(name, response, model, status, kind, pointer=None, header=None):
        """The answer parsed into `model`, with the problem type, status and title of that status."""
        parsed = response.parsed
        ok = (isinstance(parsed, model) and response.status_code == status and parsed.status == status
              and parsed.type_ == kind and parsed.title and parsed.detail
              and response.headers.get("content-type") == "application/problem+json")
        if ok and pointer is not None:
            ok = not isinstance(parsed.errors, type(UNSET)) and [e.pointer for e in parsed.errors][:1] == [pointer]
        if ok and header is not None:
            ok = bool(response.headers.get(header))
        checks.check(f"{status} {name}: {model.__name__}", ok,
                     f"{response.status_code} parsed as {type(parsed).__name__}: {response.content[:300]!r}")
        return parsed

    def stroke(x=L_STROKE["x"], y=L_STROKE["y"], t=L_STROKE["t"]):
        return m.Stroke(x=list(x), y=list(y), t=list(t))

    anonymous = Client(base_url=base, timeout=30)

    # A board; its token is shown once.
    created = create_board.sync_detailed(client=anonymous, body=m.BoardCreate(title="Groceries"))
    board = created.parsed
    checks.check("createBoard: BoardCreated with its token", created.status_code == 201 and isinstance(board, m.BoardCreated)
                 and board.token.startswith("ist_"), repr(created.content[:200]))
    client = AuthenticatedClient(base_url=base, token=board.token, timeout=30)
    bid = board.id

    # Recognition only.
    read = recognize_ink.sync_detailed(client=anonymous, body=m.RecognitionRequest(strokes=[stroke(t=[0, 80, 160])]))
    checks.check("recognizeInk: Recognition", read.status_code == 200 and isinstance(read.parsed, m.Recognition),
                 repr(read.content[:200]))

    # Ink becomes a field; the same key and request again is the same answer, replayed.
    body = m.StickerCreate(strokes=[stroke()], target="auto")
    first = create_sticker.sync_detailed(bid, client=client, body=body, idempotency_key="ink-1")
    sticker = first.parsed
    checks.check("createSticker: a Sticker, a field", first.status_code == 201 and isinstance(sticker, m.Sticker)
                 and sticker.state == m.StickerState.FIELD and sticker.version == 1, repr(first.content[:200]))
    again = create_sticker.sync_detailed(bid, client=client, body=body, idempotency_key="ink-1")
    checks.check("createSticker again with its Idempotency-Key: the first answer, replayed",
                 isinstance(again.parsed, m.Sticker) and again.parsed.id == sticker.id
                 and again.headers.get("idempotent-replayed") == "true")
    sid = sticker.id

    # 400: a malformed Idempotency-Key, pointed at.
    problem("a malformed Idempotency-Key",
            create_sticker.sync_detailed(bid, client=client, body=body, idempotency_key="two words"),
            m.Problem400, 400, m.Problem400Type.BAD_REQUEST, pointer="/header/Idempotency-Key")
    # 422: the same key with another request; and ink whose y does not match its x.
    problem("the Idempotency-Key reused with another request",
            create_sticker.sync_detailed(bid, client=client, body=m.StickerCreate(strokes=[stroke()], target="new"),
                                         idempotency_key="ink-1"),
            m.Problem422, 422, m.Problem422Type.VALIDATION, pointer="/header/Idempotency-Key")
    problem("strokes whose y does not match x",
            create_sticker.sync_detailed(bid, client=client, body=m.StickerCreate(strokes=[m.Stroke(x=[1.0, 2.0], y=[1.0])])),
            m.Problem422, 422, m.Problem422Type.VALIDATION, pointer="/strokes/0/y")
    # 413: more strokes than one ink may have.
    problem("too many strokes",
            create_sticker.sync_detailed(bid, client=client,
                                         body=m.StickerCreate(strokes=[m.Stroke(x=[1.0], y=[1.0]) for _ in range(1001)])),
            m.Problem413, 413, m.Problem413Type.CONTENT_TOO_LARGE, pointer="/strokes")

    # 415: a body that is not JSON (here a proxy rewrites the type; the generated code sends JSON).
    def as_text(request):
        request.headers["Content-Type"] = "text/plain"
    retyped = AuthenticatedClient(base_url=base, token=board.token, timeout=30,
                                  httpx_args={"event_hooks": {"request": [as_text]}})
    problem("a body that is not JSON", create_sticker.sync_detailed(bid, client=retyped, body=body),
            m.Problem415, 415, m.Problem415Type.UNSUPPORTED_MEDIA_TYPE)

    # Reading: one sticker with its ETag, and a listing paged with nextCursor as `after`.
    one = get_sticker.sync_detailed(bid, sid, client=client)
    checks.check("getSticker: a Sticker with its ETag", isinstance(one.parsed, m.Sticker) and one.headers.get("etag") == '"v1"')
    second = create_sticker.sync_detailed(bid, client=client, body=m.StickerCreate(strokes=[stroke()], target="new",
                                                                                     center=m.PointInputType0(x=400, y=300)))
    checks.check("createSticker target new: a second field", second.status_code == 201 and isinstance(second.parsed, m.Sticker))
    page = list_stickers.sync_detailed(bid, client=client, state=m.StickerState.FIELD, rect="0,0,500,500", limit=1)
    cursor = page.parsed.next_cursor if isinstance(page.parsed, m.StickerPage) else None
    checks.check("listStickers: a StickerPage whose nextCursor is a string", isinstance(cursor, str)
                 and [s.id for s in page.parsed.stickers] == [sid], repr(page.content[:200]))
    rest = list_stickers.sync_detailed(bid, client=client, state=m.StickerState.FIELD, rect="0,0,500,500", after=cursor, limit=1)
    checks.check("listStickers after=nextCursor: the next page, the last",
                 isinstance(rest.parsed, m.StickerPage) and [s.id for s in rest.parsed.stickers] == [second.parsed.id]
                 and rest.parsed.next_cursor is None, repr(rest.content[:200]))
    problem("a bad query parameter", list_stickers.sync_detailed(bid, client=client, rect="0,0"),
            m.Problem400, 400, m.Problem400Type.BAD_REQUEST, pointer="/query/rect")
    problem("a cursor that nextCursor never gives", list_stickers.sync_detailed(bid, client=client, after="+1"),
            m.Problem400, 400, m.Problem400Type.BAD_REQUEST, pointer="/query/after")

    # 401 and 404.
    stranger = AuthenticatedClient(base_url=base, token="ist_" + "A" * 43, timeout=30)
    problem("a wrong token", get_board.sync_detailed(bid, client=stranger), m.Problem401, 401,
            m.Problem401Type.UNAUTHORIZED, header="www-authenticate")
    problem("no such sticker", get_sticker.sync_detailed(bid, "s_" + "A" * 22, client=client), m.Problem404, 404,
            m.Problem404Type.NOT_FOUND)

    # 405: a method the contract does not list, sent through the client's own httpx client.
    raw = client.get_httpx_client().request("PUT", f"/v1/boards/{bid}/stickers/{sid}", json={})
    parsed = m.Problem405.from_dict(raw.json()) if raw.status_code == 405 else None
    checks.check("405 a method the path does not have: Problem405", isinstance(parsed, m.Problem405)
                 and parsed.type_ == m.Problem405Type.METHOD_NOT_ALLOWED and parsed.status == 405
                 and "PATCH" in raw.headers.get("allow", ""), f"{raw.status_code} {raw.content[:200]!r}")

    # PATCH with If-Match; the same tag again is stale (412, with the current ETag).
    style = m.StyleInputType0(stroke_width=3, stroke_color="#FFFFFF", fill_color="#1E88E5")
    patched = update_sticker.sync_detailed(bid, sid, client=client, body=m.StickerUpdate(text="milk", style=style),
                                           if_match='"v1"')
    checks.check("updateSticker with If-Match: the Sticker, its text replaced", isinstance(patched.parsed, m.Sticker)
                 and patched.parsed.text == "milk" and patched.parsed.version == 2, repr(patched.content[:200]))
    problem("a stale If-Match", update_sticker.sync_detailed(bid, sid, client=client, body=m.StickerUpdate(text="eggs"),
                                                            if_match='"v1"'),
            m.Problem412, 412, m.Problem412Type.PRECONDITION_FAILED, header="etag")

    # Key input, commit, end of editing.
    typed = input_sticker.sync_detailed(bid, sid, client=client, body=m.KeyInput(ops=[
        m.KeyInputOpType0(insert_text=" 🥛"), m.KeyInputOpType1(delete_backward=1), m.KeyInputOpType0(insert_text="!")]))
    checks.check("inputSticker: the Sticker, typed into", isinstance(typed.parsed, m.Sticker) and typed.parsed.text == "milk !",
                 repr(typed.content[:200]))
    committed = commit_sticker.sync_detailed(bid, sid, client=client)
    checks.check("commitSticker: the Sticker, a label", isinstance(committed.parsed, m.Sticker)
                 and committed.parsed.state == m.StickerState.LABEL, repr(committed.content[:200]))
    problem("key input into a label", input_sticker.sync_detailed(bid, sid, client=client,
                                                                  body=m.KeyInput(ops=[m.KeyInputOpType0(insert_text="x")])),
            m.Problem409, 409, m.Problem409Type.CONFLICT)
    ended = end_editing.sync_detailed(bid, client=client)
    checks.check("endEditing: EditingEnded", isinstance(ended.parsed, m.EditingEnded) and ended.parsed.committed == 1,
                 repr(ended.content[:200]))

    # The ink and the pictures (PNG and SVG bodies: the client gives their bytes).
    ink = get_sticker_ink.sync_detailed(bid, sid, client=client)
    checks.check("getStickerInk: StickerInk with the strokes sent", isinstance(ink.parsed, m.StickerInk)
                 and ink.parsed.inks[0].strokes[0].x == L_STROKE["x"], repr(ink.content[:200]))
    png = get_sticker_ink_image.sync_detailed(bid, sid, client=client)
    checks.check("getStickerInkImage: a PNG", png.status_code == 200 and png.content.startswith(b"\x89PNG"))
    svg = render_board.sync_detailed(bid, client=client, ink=m.RenderBoardInk.ONE)
    checks.check("renderBoard ink=1: an SVG", svg.status_code == 200 and b"<svg" in svg.content[:500])

    # The event stream (never ends by itself: read through the client's httpx client) begins with
    # its retry line, then the board's events from the one asked for.
    with client.get_httpx_client().stream("GET", f"/v1/boards/{bid}/events", headers={"Last-Event-ID": "0"},
                                          timeout=httpx.Timeout(10)) as stream:
        text = ""
        for chunk in stream.iter_text():
            text += chunk
            if "event: committed" in text:
                break
    checks.check("streamEvents: retry: 2000 first, then the board's events",
                 stream.status_code == 200 and text.startswith("retry: 2000\n\n") and "event: created" in text, repr(text[:120]))

    counts = get_board.sync_detailed(bid, client=client)
    checks.check("getBoard: Board with its counts", isinstance(counts.parsed, m.Board), repr(counts.content[:200]))

    # 431: a request head over the limit (here an X-Request-Id of 40 KB).
    problem("a request head over 32 KiB", get_board.sync_detailed(bid, client=client, x_request_id="r" * 40_000),
            m.Problem431, 431, m.Problem431Type.ABOUT_BLANK)

    # 429: ink posts on one token beyond its burst; the answer says when to retry.
    limited = create_board.sync_detailed(client=anonymous, body=m.BoardCreate(title="limited")).parsed
    fast = AuthenticatedClient(base_url=base, token=limited.token, timeout=30)
    answer = None
    for _ in range(INK_BURST * 2):
        answer = create_sticker.sync_detailed(limited.id, client=fast,
                                              body=m.StickerCreate(strokes=[m.Stroke(x=[1.0, 2.0], y=[1.0])]))
        if answer.status_code != 422:
            break
    problem("ink posts beyond the token's burst", answer, m.Problem429, 429, m.Problem429Type.RATE_LIMITED, header="retry-after")

    # When done.
    gone = delete_sticker.sync_detailed(bid, sid, client=client)
    checks.check("deleteSticker: 204", gone.status_code == 204)
    cleared = clear_stickers.sync_detailed(bid, client=client)
    checks.check("clearStickers: Cleared", isinstance(cleared.parsed, m.Cleared) and cleared.parsed.deleted == 1,
                 repr(cleared.content[:200]))
    checks.check("deleteBoard: 204", delete_board.sync_detailed(bid, client=client).status_code == 204)


if __name__ == "__main__":
    sys.exit(main(os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "openapi.yaml"))))
