#!/usr/bin/env python3
"""Browser test of the InkSticker web page against a running server.

Headless Chromium (Debian's chromium and chromium-driver) drives the page with real pointer input:
a handwritten word from the ink fixtures is drawn on the board, and the test checks that

* the page creates a board on first visit and follows its live event stream;
* an empty board shows a hint of what to do, which a click that writes nothing leaves in place, the
  first sticker removes and Clear brings back;
* a field appears where the word was written, reading what ``POST /v1/recognize`` reads for the
  same strokes, and the ink the page sent is exactly the ink that was drawn;
* typing and Backspace edit the field (on the page and on the server), Enter makes it a label;
* a second window on the same board sees the sticker appear, change and become a label through the
  event stream (it was opened before the sticker existed and never reloads);
* End editing turns a second field into a label; tapping a label and its Delete chip removes it;
  Clear (asked twice) empties the board in both windows;
* the page's Server-Sent Events parser handles a stream cut at awkward places;
* a phone-sized window (390x844) loads the page, fits it, and a word drawn with a finger becomes a field;
* Korean: the language picker offers auto (the default) and 한국어, remembers 한국어 for the board across a reload, and a
  Hangul word written in an evaluation font's ink (Tests/Fixtures/hangul, never trained on)
  becomes, with no language picked, a field reading what ``POST /v1/recognize`` reads with
  ``lang: auto``, in Hangul; Backspace removes one whole syllable;
* a page that was away while the server deleted the events it missed (retention,
  ``--keep-events-days``) gets ``reset`` when it reconnects, lists the board again and shows it as
  it is (with $INKSTICKER_BIN: the test runs servers of its own on one database);
* editing with the pen: a zig-zag drawn with a pen across one word of a field deletes that word
  (the field re-centres), an Undo button appears and brings it back; a strike-through drawn with
  a finger deletes the word it crosses, undone with Ctrl+Z; a scratch-out over the whole field
  deletes the sticker, and Undo puts it back under its id; a second window sees each change
  through the event stream and offers the same Undo; no gesture's ink is stored; opening another
  board, or a clear of the board, takes the Undo away;
* the browser console has no errors.

Screenshots go to the output directory (e2e/browser/out/ by default). Exits non-zero on failure;
the last line reads "browser: N passed, N failed".
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "reliability"))
from common import Server, test_database  # noqa: E402  (e2e/reliability: starting the server)
from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

DESKTOP = (1440, 900)
PHONE = (390, 844)
WAIT_S = 20


class CheckFailed(Exception):
    pass


class Report:
    """Named checks, printed as they run, summed up on the last line."""

    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, name: str, ok: bool, detail: str = "") -> None:
        if ok:
            self.passed += 1
            print(f"PASS {name}" + (f" ({detail})" if detail else ""), flush=True)
        else:
            self.failed += 1
            print(f"FAIL {name}" + (f": {detail}" if detail else ""), flush=True)
            raise CheckFailed(name)

    def record(self, name: str, ok: bool, detail: str = "") -> None:
        """Like check, without stopping the scenario (for checks made while cleaning up)."""
        try:
            self.check(name, ok, detail)
        except CheckFailed:
            pass

    def error(self, scenario: str, error: BaseException) -> None:
        self.failed += 1
        print(f"FAIL {scenario}: {type(error).__name__}: {error}", flush=True)
        traceback.print_exc()


# MARK: Server access from Python


class API:
    def __init__(self, base_url: str) -> None:
        self.base = base_url.rstrip("/")

    def call(self, method: str, path: str, body=None, token: str | None = None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                raw = response.read()
                return response.status, (json.loads(raw) if raw else None)
        except urllib.error.HTTPError as error:
            raw = error.read()
            raise AssertionError(f"{method} {path} answered {error.code}: {raw[:300]!r}") from None

    def status(self, method: str, path: str, token: str | None = None) -> int:
        try:
            return self.call(method, path, token=token)[0]
        except AssertionError as error:
            match = re.search(r"answered (\d+)", str(error))
            return int(match.group(1)) if match else 0

    def recognize(self, strokes, lang: str | None = None) -> dict:
        return self.call("POST", "/v1/recognize", {"strokes": strokes, **({"lang": lang} if lang else {})})[1]


# MARK: Ink


def find_corpus(root: Path) -> Path:
    """The printed-ink fixtures of the repository (Tests/Fixtures/ink/print.jsonl)."""
    candidate = root / "Tests" / "Fixtures" / "ink" / "print.jsonl"
    if not candidate.is_file():
        raise FileNotFoundError(f"{candidate} not found")
    return candidate


def pick_hangul_word(root: Path) -> dict:
    """A word of three or more Hangul syllables from the committed evaluation ink."""
    with (root / "Tests" / "Fixtures" / "hangul" / "hangul-words.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            sample = json.loads(line)
            if re.fullmatch(r"[\uac00-\ud7a3]{3,5}", sample["text"]) and len(sample["strokes"]) <= 30:
                return sample
    raise LookupError("no Hangul word in Tests/Fixtures/hangul/hangul-words.jsonl")


def pick_sample(path: Path, sample_id: str | None, skip: int = 0) -> dict:
    """A one-word, one-line sample of plain letters (so typing after it is unambiguous)."""
    found = 0
    with path.open() as lines:
        for line in lines:
            sample = json.loads(line)
            if sample_id:
                if sample["id"] == sample_id:
                    return sample
                continue
            if sample.get("hard"):
                continue
            if re.fullmatch(r"[A-Za-z]{4,9}", sample["text"]) and len(sample["strokes"]) <= 24:
                if found == skip:
                    return sample
                found += 1
    raise LookupError(f"no suitable sample in {path}")


def scale_into(sample: dict, width: int, height: int, *, max_height: float, max_width_fraction: float,
               centre_y_fraction: float) -> list[dict]:
    """The sample's strokes scaled and centred into a viewport, as whole CSS pixels.

    Points are rounded to integers because that is what WebDriver pointer moves carry; repeated
    points are dropped because a pointer that does not move fires no pointermove.
    """
    xs = [x for s in sample["strokes"] for x in s["x"]]
    ys = [y for s in sample["strokes"] for y in s["y"]]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    scale = min(max_height / max(y1 - y0, 1e-6), width * max_width_fraction / max(x1 - x0, 1e-6))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    tx, ty = width / 2, height * centre_y_fraction
    strokes = []
    for stroke in sample["strokes"]:
        points: list[tuple[int, int]] = []
        for x, y in zip(stroke["x"], stroke["y"]):
            point = (round(tx + (x - cx) * scale), round(ty + (y - cy) * scale))
            if not points or points[-1] != point:
                points.append(point)
        if points:
            strokes.append({"x": [p[0] for p in points], "y": [p[1] for p in points]})
    return strokes


def draw(driver, strokes: list[dict], kind: str) -> None:
    """Writes the strokes with one WebDriver pointer (pen, mouse or touch), without pauses."""
    pointer = PointerInput(kind, kind)
    builder = ActionBuilder(driver, mouse=pointer, duration=0)
    actions = builder.pointer_action
    for stroke in strokes:
        points = list(zip(stroke["x"], stroke["y"]))
        actions.move_to_location(*points[0])
        if kind == interaction.POINTER_PEN:
            actions.pointer_down(pressure=0.6)
        else:
            actions.pointer_down()
        for x, y in points[1:]:
            if kind == interaction.POINTER_PEN:
                actions.move_to_location(x, y, pressure=0.6)
            else:
                actions.move_to_location(x, y)
        actions.pointer_up()
    builder.perform()


def tap_at(driver, x: float, y: float) -> None:
    """A mouse click at a viewport point (the board's canvas takes it; the page hit-tests stickers)."""
    pointer = PointerInput(interaction.POINTER_MOUSE, "mouse")
    builder = ActionBuilder(driver, mouse=pointer, duration=0)
    builder.pointer_action.move_to_location(round(x), round(y)).pointer_down().pointer_up()
    builder.perform()


# MARK: Browser


def start_browser(size: tuple[int, int], chromium: str, chromedriver: str):
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", "--force-device-scale-factor=1", "--lang=en-US",
                     "--disable-features=Translate,MediaRouter", "--no-first-run"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    set_viewport(driver, size)
    return driver


def set_viewport(driver, size: tuple[int, int]) -> None:
    """Sizes the window so that the page's viewport (innerWidth x innerHeight) is `size`."""
    driver.set_window_size(*size)
    for _ in range(10):
        time.sleep(0.05)
        inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
        if tuple(inner) == size:
            return
        outer = driver.get_window_size()
        driver.set_window_size(outer["width"] + size[0] - inner[0], outer["height"] + size[1] - inner[1])


def wait(driver, condition, what: str, timeout: float = WAIT_S):
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: condition(d))
    except TimeoutException:
        raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}") from None


def page_state(driver) -> dict:
    return driver.execute_script(
        """
        const stickers = [...document.querySelectorAll('#stickers .sticker')].map((e) => ({
          id: e.dataset.id, state: e.dataset.state, version: Number(e.dataset.version),
          text: e.querySelector('.text').textContent, focused: e.classList.contains('focused'),
          rect: e.getBoundingClientRect().toJSON(), moving: e.getAnimations().length > 0,
        }));
        let board = null;
        try { board = JSON.parse(localStorage.getItem('inksticker.board')); } catch (e) {}
        const hint = document.getElementById('hint');
        const hintRect = hint.getBoundingClientRect();
        return {
          board, stickers,
          hint: !hint.hidden && getComputedStyle(hint).display !== 'none' && hintRect.width > 0
            ? { text: hint.textContent.replace(/\s+/g, ' ').trim(), rect: hintRect.toJSON() } : null,
          live: document.getElementById('live').dataset.status,
          chips: [...document.querySelectorAll('#chips:not([hidden]) .chip.candidate')].map((c) => c.dataset.text),
          toast: document.getElementById('toast').hidden ? null : document.getElementById('toast').textContent,
          innerWidth: window.innerWidth, innerHeight: window.innerHeight,
          scrollWidth: document.documentElement.scrollWidth,
          toolbar: document.querySelector('.toolbar').getBoundingClientRect().toJSON(),
          buttonsOverflow: [...document.querySelectorAll('.toolbar button')].some((b) => b.scrollWidth > b.clientWidth + 1),
        };
        """
    )


def sticker_on_page(driver, sticker_id: str) -> dict | None:
    return next((s for s in page_state(driver)["stickers"] if s["id"] == sticker_id), None)


def console_errors(driver) -> list[dict]:
    """Browser log entries of level SEVERE (JavaScript errors, failed loads) of every window."""
    errors = []
    try:
        for handle in driver.window_handles:
            driver.switch_to.window(handle)
            errors += [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    except WebDriverException as error:
        errors.append({"level": "SEVERE", "message": f"could not read the browser log: {error}"})
    return errors


def check_console(report: Report, driver, what: str) -> None:
    errors = console_errors(driver)
    report.record(f"no errors in the browser console ({what})", not errors,
                  "; ".join(str(e.get("message"))[:300] for e in errors) or "none")


# MARK: Scenarios


def desktop(report: Report, api: API, args, out: Path) -> None:
    sample = pick_sample(args.corpus, args.sample)
    print(f"desktop: sample {sample['id']} {sample['text']!r}, pointer {args.pointer}", flush=True)
    driver = start_browser(DESKTOP, args.chromium, args.chromedriver)
    try:
        driver.get(api.base + "/")
        state = wait(driver, lambda d: (s := page_state(d))["board"] and s["live"] == "live" and s,
                     "a board and a live event stream")
        report.check("desktop viewport is 1440x900", (state["innerWidth"], state["innerHeight"]) == DESKTOP,
                     f"{state['innerWidth']}x{state['innerHeight']}")
        board = state["board"]
        report.check("first visit creates a board kept in localStorage",
                     board["id"].startswith("b_") and api.call("GET", f"/v1/boards/{board['id']}", token=board["token"])[0] == 200,
                     board["id"])
        report.check("an empty board shows a hint of what to do", bool(state["hint"]) and "Write anywhere" in state["hint"]["text"],
                     repr(state["hint"] and state["hint"]["text"]))
        # A click on blank paper writes nothing: the hint steps aside for it, then comes back.
        tap_at(driver, DESKTOP[0] * 0.2, DESKTOP[1] * 0.8)
        state = wait(driver, lambda d: (s := page_state(d))["hint"] and s, "the hint back after a click that wrote nothing", timeout=5)
        report.check("a click that writes nothing leaves the hint on the empty board", bool(state["hint"]))
        first = driver.current_window_handle

        # The page's own text/event-stream parser, fed a stream cut at awkward places.
        parsed = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            import('/assets/events.js').then(({ EventStreamParser }) => {
              const events = [];
              const retries = [];
              const parser = new EventStreamParser((e) => events.push(e), (ms) => retries.push(ms));
              const stream = '\\ufeffretry: 2500\\r\\n\\r\\n: heartbeat\\n\\nid: 7\\nevent: created\\ndata: {"a":\\r\\n'
                + 'data: 1}\\r\\n\\r\\nid: 8\\rdata:no space\\r\\rdata\\n\\nevent: cleared\\n\\nid: 9\\nevent: deleted\\ndata: x';
              for (let i = 0; i < stream.length; i += 3) parser.feed(stream.slice(i, i + 3));
              done({ events, retries, last: parser.lastEventID });
            }, (error) => done({ error: String(error) }));
        """)
        report.check("the page parses Server-Sent Events cut anywhere (CRLF, CR, comments, multi-line data)",
                     parsed.get("events") == [
                         {"type": "created", "data": '{"a":\n1}', "id": "7"},
                         {"type": "message", "data": "no space", "id": "8"},
                         {"type": "message", "data": "", "id": "8"},
                     ] and parsed.get("retries") == [2500] and parsed.get("last") == "9", json.dumps(parsed))

        # A second window on the same board, open before anything is written: it can learn of the
        # sticker only from the event stream.
        driver.switch_to.new_window("window")
        second = driver.current_window_handle
        set_viewport(driver, DESKTOP)
        driver.get(api.base + "/")
        state2 = wait(driver, lambda d: (s := page_state(d))["live"] == "live" and s, "the second window's event stream")
        report.check("second window opens the same board", state2["board"] == board and not state2["stickers"])
        driver.switch_to.window(first)

        strokes = scale_into(sample, *DESKTOP, max_height=96, max_width_fraction=0.5, centre_y_fraction=0.45)
        draw(driver, strokes, args.pointer)
        started = time.monotonic()
        state = wait(driver, lambda d: (s := page_state(d))["stickers"] and s, "a sticker after writing")
        elapsed = time.monotonic() - started
        state = wait(driver, lambda d: not (s := page_state(d))["stickers"][0]["moving"] and s, "the sticker to settle")
        sticker = state["stickers"][0]
        report.check("a field appears where the word was written", len(state["stickers"]) == 1 and sticker["state"] == "field",
                     f"{elapsed:.2f} s after the pen lifted, id {sticker['id']}")
        report.check("the hint is gone once the board has a sticker", state["hint"] is None, repr(state["hint"]))
        xs = [x for s in strokes for x in s["x"]]
        ys = [y for s in strokes for y in s["y"]]
        ink_centre = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
        rect = sticker["rect"]
        centre = (rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2)
        report.check("the field is centred on the ink", abs(centre[0] - ink_centre[0]) < 2 and abs(centre[1] - ink_centre[1]) < 2,
                     f"field centre {centre[0]:.1f},{centre[1]:.1f}; ink centre {ink_centre[0]:.1f},{ink_centre[1]:.1f}")

        expected = api.recognize(strokes, "auto")["text"]   # the page's language when none is picked
        report.check("the field reads what /v1/recognize reads for the same strokes", sticker["text"] == expected,
                     f"page {sticker['text']!r}, recognize {expected!r}, written {sample['text']!r}")
        _, stored = api.call("GET", f"/v1/boards/{board['id']}/stickers/{sticker['id']}", token=board["token"])
        report.check("the server holds the same field", stored["text"] == expected and stored["state"] == "field")
        _, ink = api.call("GET", f"/v1/boards/{board['id']}/stickers/{sticker['id']}/ink", token=board["token"])
        sent = [{"x": s["x"], "y": s["y"]} for s in ink["inks"][0]["strokes"]]
        report.check("the page sent exactly the drawn strokes, in board coordinates", sent == strokes,
                     f"{len(strokes)} strokes, {len(xs)} points")
        times_ok = all("t" in s and all(b >= a for a, b in zip(s["t"], s["t"][1:])) for s in ink["inks"][0]["strokes"])
        pressure_ok = args.pointer != interaction.POINTER_PEN or all("p" in s for s in ink["inks"][0]["strokes"])
        report.check("strokes carry times (and pressure from a pen)", times_ok and pressure_ok)

        focused = wait(driver, lambda d: (s := sticker_on_page(d, sticker["id"])) and s["focused"] and page_state(d)["chips"] and page_state(d),
                       "the new field to take the focus and show its candidates")
        report.check("the new field has the focus and shows candidate chips",
                     set(focused["chips"]) <= {c["text"] for c in stored["candidates"]} and len(focused["chips"]) >= 1,
                     ", ".join(map(repr, focused["chips"])))
        driver.save_screenshot(str(out / "desktop-field.png"))

        # Second window: the field arrived through the event stream.
        driver.switch_to.window(second)
        seen = wait(driver, lambda d: sticker_on_page(d, sticker["id"]), "the field in the second window")
        report.check("the second window sees the new field through the event stream", seen["text"] == expected and seen["state"] == "field")
        driver.switch_to.window(first)

        # Typing: two characters and one Backspace.
        ActionChains(driver).send_keys("xy").perform()
        ActionChains(driver).send_keys(Keys.BACKSPACE).perform()
        typed = expected + "x"
        on_page = wait(driver, lambda d: (s := sticker_on_page(d, sticker["id"])) and s["text"] == typed and s,
                       f"the field to read {typed!r}", timeout=10)

        def server_text():
            return api.call("GET", f"/v1/boards/{board['id']}/stickers/{sticker['id']}", token=board["token"])[1]

        stored = wait(driver, lambda d: (s := server_text())["text"] == typed and s, f"the server's field to read {typed!r}", timeout=10)
        report.check("typing 'xy' and Backspace edits the field", on_page["text"] == typed and stored["text"] == typed,
                     f"{typed!r} at version {stored['version']}")
        widened = wait(driver, lambda d: (s := sticker_on_page(d, sticker["id"])) and s["version"] == stored["version"]
                       and not s["moving"] and s, "the page to show the server's version")
        report.check("the field keeps its centre as it grows",
                     abs(widened["rect"]["x"] + widened["rect"]["width"] / 2 - centre[0]) < 1 and widened["rect"]["width"] > rect["width"],
                     f"width {rect['width']:.1f} -> {widened['rect']['width']:.1f}")

        ActionChains(driver).send_keys(Keys.ENTER).perform()
        label = wait(driver, lambda d: (s := sticker_on_page(d, sticker["id"])) and s["state"] == "label" and s,
                     "the field to become a label")
        _, stored = api.call("GET", f"/v1/boards/{board['id']}/stickers/{sticker['id']}", token=board["token"])
        report.check("Enter makes the field a label", label["text"] == typed and stored["state"] == "label" and stored["text"] == typed)
        time.sleep(0.4)  # let the ink finish fading and the label settle for the screenshot
        driver.save_screenshot(str(out / "desktop.png"))

        driver.switch_to.window(second)
        seen = wait(driver, lambda d: (s := sticker_on_page(d, sticker["id"])) and s["state"] == "label" and s,
                    "the label in the second window")
        report.check("the second window follows the edits and the commit", seen["text"] == typed, repr(seen["text"]))
        driver.save_screenshot(str(out / "desktop-second-window.png"))
        driver.switch_to.window(first)

        # A second word, then "End editing" turns it into a label.
        sample2 = pick_sample(args.corpus, None, skip=2)
        strokes2 = scale_into(sample2, *DESKTOP, max_height=72, max_width_fraction=0.3, centre_y_fraction=0.72)
        draw(driver, strokes2, args.pointer)
        state = wait(driver, lambda d: len((s := page_state(d))["stickers"]) == 2 and s, "a second sticker")
        other = next(s for s in state["stickers"] if s["id"] != sticker["id"])
        report.check("a second word makes a second field", other["state"] == "field", f"{sample2['text']!r} read as {other['text']!r}")
        driver.find_element(By.ID, "end-editing").click()
        wait(driver, lambda d: (s := sticker_on_page(d, other["id"])) and s["state"] == "label", "End editing to make a label")
        _, fields = api.call("GET", f"/v1/boards/{board['id']}/stickers?state=field", token=board["token"])
        report.check("End editing commits every field", fields["stickers"] == [])

        # Tapping a label selects it; its Delete chip removes it (with If-Match), in both windows.
        tap_at(driver, label["rect"]["x"] + label["rect"]["width"] / 2, label["rect"]["y"] + label["rect"]["height"] / 2)
        remove = wait(driver, lambda d: next((c for c in d.find_elements(By.CSS_SELECTOR, "#chips .chip.remove") if c.is_displayed()), None),
                      "the Delete chip of the tapped label")
        time.sleep(0.3)
        driver.save_screenshot(str(out / "desktop-labels.png"))
        remove.click()
        wait(driver, lambda d: sticker_on_page(d, sticker["id"]) is None, "the label to go")
        report.check("tapping a label and Delete removes it", api.status("GET", f"/v1/boards/{board['id']}/stickers/{sticker['id']}", token=board["token"]) == 404)

        # Clear asks twice, then empties the board everywhere.
        driver.find_element(By.ID, "clear").click()
        report.check("Clear asks for confirmation first", len(page_state(driver)["stickers"]) == 1
                     and driver.find_element(By.ID, "clear").text == "Clear all?")
        driver.find_element(By.ID, "clear").click()
        wait(driver, lambda d: not page_state(d)["stickers"], "Clear to empty the page")
        state = wait(driver, lambda d: (s := page_state(d))["hint"] and s, "the hint on the cleared board", timeout=5)
        report.check("the hint comes back on the board Clear emptied", bool(state["hint"]))
        _, listing = api.call("GET", f"/v1/boards/{board['id']}/stickers", token=board["token"])
        driver.switch_to.window(second)
        wait(driver, lambda d: not page_state(d)["stickers"], "the second window to see the board cleared")
        report.check("Clear empties the board, and the second window follows", listing["stickers"] == [])

        # The typing echo follows the server's rules, so the page never shows what the server drops:
        # a digits field takes no letter, a full field no more characters (counted by grapheme).
        echo = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            import('/assets/keys.js').then((keys) => done({
                cut: keys.applyOps('ab', [{insertText: 'cd'}, {deleteBackward: 1}], 3),
                seam: keys.applyOps('caf', [{insertText: 'e\u0301x'}], 4),
                digits: ['3', 'x', '\\n'].map((c) => keys.allowsTyping('digits', c)),
                number: ['3', '.', '/', ' ', 'a'].map((c) => keys.allowsTyping('number', c)),
                text: ['a', '\\n', '\\u0001'].map((c) => keys.allowsTyping(null, c)),
            })).catch((error) => done({error: String(error)}));
        """)
        report.check("the typing echo keeps the field's charset and maxLength as the server does",
                     echo == {"cut": "ab", "seam": "cafe\u0301", "digits": [True, False, False],
                              "number": [True, True, True, True, False], "text": [True, True, False]}, repr(echo))

        # A status in a request's retry list (429 and 503 for ink, 429 for keys) is sent again after
        # Retry-After; other requests fail at once.
        retried = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const real = window.fetch;
            let calls = 0;
            window.fetch = async () => {
                calls += 1;
                if (calls === 1) return new Response('{}', {status: 429, headers: {'Retry-After': '1', 'Content-Type': 'application/problem+json'}});
                return new Response('{"ok": true}', {status: 200, headers: {'Content-Type': 'application/json'}});
            };
            import('/assets/api.js').then(async ({BoardAPI}) => {
                const started = performance.now();
                const answer = await BoardAPI.fetchJSON('/anywhere', {method: 'POST', json: {}, retry: [429, 503]});
                const waited = performance.now() - started, retriedCalls = calls;
                calls = 0;
                let status = null;
                try { await BoardAPI.fetchJSON('/anywhere'); } catch (error) { status = error.status; }
                window.fetch = real;
                done({status: answer.status, calls: retriedCalls, waited: waited >= 950, plain: status});
            }).catch((error) => { window.fetch = real; done({error: String(error)}); });
        """)
        report.check("a request refused with a status it may retry is sent again after Retry-After",
                     retried == {"status": 200, "calls": 2, "waited": True, "plain": 429}, repr(retried))
    finally:
        check_console(report, driver, "desktop, both windows")
        driver.quit()


def phone(report: Report, api: API, args, out: Path) -> None:
    sample = pick_sample(args.corpus, None, skip=1)
    print(f"phone: sample {sample['id']} {sample['text']!r}, pointer touch", flush=True)
    driver = start_browser(PHONE, args.chromium, args.chromedriver)
    try:
        driver.get(api.base + "/")
        state = wait(driver, lambda d: (s := page_state(d))["board"] and s["live"] == "live" and s, "the page on a phone")
        report.check("phone viewport is 390x844", (state["innerWidth"], state["innerHeight"]) == PHONE,
                     f"{state['innerWidth']}x{state['innerHeight']}")
        toolbar = state["toolbar"]
        report.check("the page fits a phone: no sideways scrolling, toolbar inside the screen",
                     state["scrollWidth"] <= PHONE[0] and toolbar["left"] >= 0 and toolbar["right"] <= PHONE[0]
                     and not state["buttonsOverflow"], f"toolbar {toolbar['left']:.0f}..{toolbar['right']:.0f}")
        hint = state["hint"]
        report.check("the empty board's hint fits a phone, below the toolbar",
                     bool(hint) and hint["rect"]["left"] >= 0 and hint["rect"]["right"] <= PHONE[0]
                     and hint["rect"]["top"] > toolbar["bottom"], repr(hint))
        driver.save_screenshot(str(out / "phone-empty.png"))
        strokes = scale_into(sample, *PHONE, max_height=64, max_width_fraction=0.8, centre_y_fraction=0.4)
        draw(driver, strokes, interaction.POINTER_TOUCH)
        state = wait(driver, lambda d: (s := page_state(d))["stickers"] and s, "a sticker after writing with a finger")
        expected = api.recognize(strokes, "auto")["text"]
        sticker = state["stickers"][0]
        report.check("a word written with a finger becomes a field", sticker["state"] == "field" and sticker["text"] == expected,
                     f"page {sticker['text']!r}, recognize {expected!r}, written {sample['text']!r}")
        report.check("the hint is gone once the phone's board has a sticker", state["hint"] is None, repr(state["hint"]))
        board = state["board"]
        _, ink = api.call("GET", f"/v1/boards/{board['id']}/stickers/{sticker['id']}/ink", token=board["token"])
        sent = [{"x": s["x"], "y": s["y"]} for s in ink["inks"][0]["strokes"]]
        report.check("the page sent exactly the strokes drawn with the finger (a first dot included)", sent == strokes,
                     f"{len(strokes)} strokes")
        time.sleep(0.5)
        driver.save_screenshot(str(out / "phone.png"))
    finally:
        check_console(report, driver, "phone")
        driver.quit()


def korean(report: Report, api: API, args, out: Path) -> None:
    _, languages = api.call("GET", "/v1/languages")
    if "kor" not in languages["languages"]:
        report.check("the server reads Korean (kor)", False, ", ".join(languages["languages"]))
        return
    sample = pick_hangul_word(args.root)
    print(f"korean: sample {sample['id']} {sample['text']!r} ({sample['font']}), pointer pen", flush=True)
    driver = start_browser(DESKTOP, args.chromium, args.chromedriver)
    try:
        driver.get(api.base + "/")
        state = wait(driver, lambda d: (s := page_state(d))["board"] and s["live"] == "live" and s, "a board")
        board = state["board"]
        picker = driver.find_element(By.ID, "lang")
        offered = [o.get_attribute("value") for o in picker.find_elements(By.TAG_NAME, "option")]
        report.check("the language picker offers auto first, then English and 한국어",
                     picker.is_displayed() and offered[:2] == ["auto", "eng"] and "kor" in offered
                     and picker.get_attribute("value") == "auto", ", ".join(offered))

        # Nothing picked: the page asks for auto, and Hangul comes back as Hangul.
        strokes = scale_into(sample, *DESKTOP, max_height=90, max_width_fraction=0.4, centre_y_fraction=0.45)
        draw(driver, strokes, interaction.POINTER_PEN)
        state = wait(driver, lambda d: (s := page_state(d))["stickers"] and s, "a sticker after writing Hangul")
        sticker = state["stickers"][0]
        expected = api.recognize(strokes, "auto")["text"]
        hangul = re.findall(r"[\uac00-\ud7a3]", sticker["text"])
        report.check("written Hangul, no language picked, becomes a field reading what lang auto reads",
                     sticker["state"] == "field" and sticker["text"] == expected and len(hangul) >= 2,
                     f"page {sticker['text']!r}, recognize {expected!r}, written {sample['text']!r}")

        wait(driver, lambda d: (s := sticker_on_page(d, sticker["id"])) and s["focused"], "the Hangul field to take the focus")
        ActionChains(driver).send_keys(Keys.BACKSPACE).perform()
        shorter = expected[:-1]
        on_page = wait(driver, lambda d: (s := sticker_on_page(d, sticker["id"])) and s["text"] == shorter and s,
                       f"the field to read {shorter!r}", timeout=10)

        def server_text():
            return api.call("GET", f"/v1/boards/{board['id']}/stickers/{sticker['id']}", token=board["token"])[1]["text"]

        stored = wait(driver, lambda d: (t := server_text()) == shorter and t, f"the server's field to read {shorter!r}", timeout=10)
        report.check("Backspace removes one whole syllable", on_page["text"] == shorter and stored == shorter,
                     f"{expected!r} -> {stored!r}")
        time.sleep(0.4)
        driver.save_screenshot(str(out / "korean.png"))
        driver.find_element(By.CSS_SELECTOR, "#lang option[value='kor']").click()
        driver.refresh()
        wait(driver, lambda d: (s := page_state(d))["board"] == board and s["live"] == "live", "the board after a reload")
        chosen = driver.execute_script("return document.getElementById('lang').value")
        report.check("the page remembers 한국어 for this board across a reload", chosen == "kor", repr(chosen))
    finally:
        check_console(report, driver, "korean")
        driver.quit()


def links(report: Report, api: API, args, out: Path) -> None:
    """Shared links and the boards kept on this device: a token is shown once, so opening another
    board never loses the one kept before."""
    driver = start_browser(DESKTOP, args.chromium, args.chromedriver)

    def visit(url: str, board_id: str | None, what: str) -> dict:
        driver.get("about:blank")  # a new page load, not a hash change
        driver.get(url)
        return wait(driver, lambda d: (s := page_state(d))["board"] and s["live"] == "live"
                    and (board_id is None or s["board"]["id"] == board_id) and s, what)

    def recent() -> list:
        return driver.execute_script("try { return JSON.parse(localStorage.getItem('inksticker.boards')) || []; }"
                                     " catch (e) { return []; }")
    try:
        own = visit(api.base + "/", None, "a first board")["board"]
        status, other = api.call("POST", "/v1/boards", {"title": "shared"})
        if status != 201:
            raise CheckFailed(f"board creation answered {status}")
        state = visit(f"{api.base}/#board={other['id']}&token={other['token']}", other["id"], "the linked board")
        kept = recent()
        report.check("a shared link opens its board and keeps the board before it, token included",
                     state["board"]["id"] == other["id"] and {"id": own["id"], "token": own["token"]} in kept
                     and "Recent boards" in (state["toast"] or ""), f"{state['toast']!r} {kept}")
        state = visit(f"{api.base}/#board=b_AAAAAAAAAAAAAAAAAAAAAA&token=nothing", other["id"], "the kept board")
        report.check("a link to a board the server does not have opens the kept board, not a new one",
                     state["board"]["id"] == other["id"] and {"id": own["id"], "token": own["token"]} in recent(),
                     repr(state["toast"]))
        driver.find_element(By.ID, "board-button").click()
        button = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f"#recent-list button[data-board-id='{own['id']}']"),
                      "the first board in Recent boards")[0]
        button.click()
        state = wait(driver, lambda d: (s := page_state(d))["board"]["id"] == own["id"] and s["live"] == "live" and s,
                     "the first board opened from Recent boards")
        report.check("Recent boards opens an earlier board", state["board"] == {"id": own["id"], "token": own["token"]})
        state = visit(f"{api.base}/#board={other['id']}&token=ist_wrong", own["id"], "the kept board after a wrong token")
        report.check("a link with a wrong token for a kept board forgets nothing of that board's good token",
                     {"id": other["id"], "token": other["token"]} in recent(), json.dumps(recent()))
    finally:
        # The page's request for the linked board that the server does not have fails by design.
        errors = [e for e in console_errors(driver)
                  if "b_AAAAAAAAAAAAAAAAAAAAAA" not in str(e.get("message")) and "401" not in str(e.get("message"))]
        report.record("no errors in the browser console (links)", not errors,
                      "; ".join(str(e.get("message"))[:300] for e in errors) or "none")
        driver.quit()


def word_rects(driver, sticker_id: str) -> list[dict]:
    """Where the page draws each word of a sticker's text, in viewport pixels (DOM ranges)."""
    return driver.execute_script(
        """
        const span = document.querySelector(`#stickers .sticker[data-id="${arguments[0]}"] .text`);
        const node = span && span.firstChild;
        if (!node) return [];
        const out = [];
        const words = /\\S+/g;
        let match;
        while ((match = words.exec(node.textContent))) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const r = range.getBoundingClientRect();
          out.push({ word: match[0], left: r.left, right: r.right, top: r.top, bottom: r.bottom });
        }
        return out;
        """,
        sticker_id,
    )


def zigzag(rect: dict, reversals: int = 6) -> list[dict]:
    """A scratch-out across a box: back and forth along it, drifting down through its middle."""
    height = rect["bottom"] - rect["top"]
    left, right = rect["left"] - 3, rect["right"] + 3
    xs, ys = [], []
    for index in range(reversals + 2):
        x0, x1 = (left, right) if index % 2 == 0 else (right, left)
        y0 = rect["top"] + height * (0.35 + 0.35 * index / (reversals + 1))
        y1 = rect["top"] + height * (0.35 + 0.35 * (index + 1) / (reversals + 1))
        for step in range(12):
            t = step / 12
            point = (round(x0 + (x1 - x0) * t), round(y0 + (y1 - y0) * t))
            if not xs or (xs[-1], ys[-1]) != point:
                xs.append(point[0])
                ys.append(point[1])
    return [{"x": xs, "y": ys}]


def strike(rect: dict) -> list[dict]:
    """A strike-through: one level line through the middle of a box, a little past its ends."""
    y = round(rect["top"] + 0.55 * (rect["bottom"] - rect["top"]))
    xs = list(range(round(rect["left"]) - 4, round(rect["right"]) + 5, 3))
    return [{"x": xs, "y": [y] * len(xs)}]


def undo_bar(driver) -> str | None:
    return driver.execute_script(
        "const bar = document.getElementById('undo-bar');"
        "return bar.hidden ? null : document.getElementById('undo-message').textContent;")


def gestures(report: Report, api: API, args, out: Path) -> None:
    sample = pick_sample(args.corpus, args.sample)
    print(f"gestures: sample {sample['id']} {sample['text']!r}", flush=True)
    driver = start_browser(DESKTOP, args.chromium, args.chromedriver)
    try:
        driver.get(api.base + "/")
        state = wait(driver, lambda d: (s := page_state(d))["board"] and s["live"] == "live" and s, "the page")
        board = state["board"]
        token, base = board["token"], f"/v1/boards/{board['id']}"
        strokes = scale_into(sample, *DESKTOP, max_height=60, max_width_fraction=0.2, centre_y_fraction=0.45)
        draw(driver, strokes, interaction.POINTER_PEN)
        state = wait(driver, lambda d: (s := page_state(d))["stickers"] and s, "a field from the written word")
        sticker_id = state["stickers"][0]["id"]
        api.call("PATCH", f"{base}/stickers/{sticker_id}", {"text": "dolls and teddy bears"}, token=token)
        wait(driver, lambda d: (s := sticker_on_page(d, sticker_id)) and s["text"] == "dolls and teddy bears",
             "the typed text from the event stream")
        # A second window on the board, following its events.
        driver.switch_to.new_window("window")
        set_viewport(driver, DESKTOP)
        driver.get(api.base + f"/#board={board['id']}&token={token}")
        wait(driver, lambda d: (s := sticker_on_page(d, sticker_id)) and s["text"] == "dolls and teddy bears", "the second window")
        second, first = driver.window_handles[-1], driver.window_handles[0]
        driver.switch_to.window(first)
        time.sleep(1)

        # A zig-zag with the pen across "and".
        words = word_rects(driver, sticker_id)
        report.check("the page draws the field's four words", [w["word"] for w in words] == ["dolls", "and", "teddy", "bears"],
                     repr([w["word"] for w in words]))
        draw(driver, zigzag(words[1]), interaction.POINTER_PEN)
        state = wait(driver, lambda d: (s := sticker_on_page(d, sticker_id)) and s["text"] == "dolls teddy bears" and s,
                     "the scratched-out word to go")
        report.check("a scratch-out drawn with a pen deletes the word under it", True, repr(state["text"]))
        report.check("an Undo button says what was deleted", undo_bar(driver) == "Deleted “and”", repr(undo_bar(driver)))
        driver.save_screenshot(str(out / "gesture-scratch.png"))
        driver.switch_to.window(second)
        wait(driver, lambda d: (s := sticker_on_page(d, sticker_id)) and s["text"] == "dolls teddy bears", "the second window")
        report.check("the other window sees the deletion and offers the Undo too", undo_bar(driver) == "Deleted “and”",
                     repr(undo_bar(driver)))
        driver.switch_to.window(first)
        driver.find_element(By.ID, "undo").click()
        state = wait(driver, lambda d: (s := sticker_on_page(d, sticker_id)) and s["text"] == "dolls and teddy bears" and s,
                     "the word back after Undo")
        report.check("Undo brings the word back (a new version)", state["version"] == 4, f"version {state['version']}")
        report.check("the Undo button goes once used", undo_bar(driver) is None, repr(undo_bar(driver)))
        time.sleep(1)

        # A strike-through with a finger across "bears", taken back with Ctrl+Z.
        words = word_rects(driver, sticker_id)
        draw(driver, strike(words[3]), interaction.POINTER_TOUCH)
        wait(driver, lambda d: (s := sticker_on_page(d, sticker_id)) and s["text"] == "dolls and teddy",
             "the struck-through word to go")
        report.check("a strike-through drawn with a finger deletes the word it crosses", undo_bar(driver) == "Deleted “bears”",
                     repr(undo_bar(driver)))
        ActionChains(driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        wait(driver, lambda d: (s := sticker_on_page(d, sticker_id)) and s["text"] == "dolls and teddy bears", "Ctrl+Z to undo")
        report.check("Ctrl+Z undoes the strike-through", True)
        time.sleep(1)

        # A scratch-out over all of it deletes the sticker; Undo puts it back under its id.
        words = word_rects(driver, sticker_id)
        whole = {"left": words[0]["left"], "right": words[-1]["right"], "top": words[0]["top"], "bottom": words[0]["bottom"]}
        draw(driver, zigzag(whole, reversals=10), interaction.POINTER_PEN)
        wait(driver, lambda d: sticker_on_page(d, sticker_id) is None, "the scratched-out sticker to go")
        report.check("a scratch-out over all of a field deletes the sticker", undo_bar(driver) == "Sticker deleted",
                     repr(undo_bar(driver)))
        driver.find_element(By.ID, "undo").click()
        state = wait(driver, lambda d: (s := sticker_on_page(d, sticker_id)) and s, "the sticker back after Undo")
        report.check("Undo puts the deleted sticker back", state["text"] == "dolls and teddy bears", repr(state["text"]))
        driver.switch_to.window(second)
        wait(driver, lambda d: (s := sticker_on_page(d, sticker_id)) and s["text"] == "dolls and teddy bears",
             "the sticker back in the second window")
        report.check("the other window sees it come back", True)
        driver.switch_to.window(first)
        _, ink = api.call("GET", f"{base}/stickers/{sticker_id}/ink", token=token)
        report.check("no gesture's ink was stored as writing", len(ink["inks"]) == 1, f"{len(ink['inks'])} writings")
        _, listing = api.call("GET", f"{base}/stickers", token=token)
        report.check("gestures made no sticker of their own", len(listing["stickers"]) == 1, f"{len(listing['stickers'])} stickers")
        driver.save_screenshot(str(out / "gesture-undo.png"))

        # The Undo bar belongs to the board it was offered on: opening another board takes it away
        # (its Undo, and Ctrl+Z, would have gone to the old board's href with the new board's token),
        # and so does a clear of the board (its Undo would put a sticker back on the cleared board).
        words = word_rects(driver, sticker_id)
        draw(driver, strike(words[3]), interaction.POINTER_TOUCH)
        wait(driver, lambda d: undo_bar(d) == "Deleted “bears”", "the Undo bar of one more strike-through")
        driver.find_element(By.ID, "board-button").click()
        wait(driver, lambda d: d.find_element(By.ID, "new-board").is_displayed(), "the board dialog")
        driver.find_element(By.ID, "new-board").click()
        wait(driver, lambda d: (s := page_state(d))["board"] and s["board"]["id"] != board["id"] and s["live"] == "live",
             "a new board")
        report.check("opening another board takes the Undo of the one before away", undo_bar(driver) is None,
                     repr(undo_bar(driver)))
        driver.switch_to.window(second)
        wait(driver, lambda d: undo_bar(d) == "Deleted “bears”", "the other window's Undo bar")
        api.call("DELETE", f"{base}/stickers", token=token)
        wait(driver, lambda d: sticker_on_page(d, sticker_id) is None, "the clear in the other window")
        report.check("a clear of the board takes its Undo away", undo_bar(driver) is None, repr(undo_bar(driver)))
        driver.switch_to.window(first)
    finally:
        check_console(report, driver, "gestures")
        driver.quit()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def retention(report: Report, api: API, args, out: Path) -> None:
    """Events deleted while a page was away: the page is told (reset) and lists the board again.
    Servers of the test's own (e2e/reliability's `Server`, $INKSTICKER_BIN) on one database: the
    page's; on other ports, one that changes the board while the page cannot reach it and one
    keeping events 86 ms, whose housekeeping deletes them at start; then the page's again, so that
    the page can only come back after the deletion."""
    if not os.environ.get("INKSTICKER_BIN"):
        print("retention: skipped (no INKSTICKER_BIN)", flush=True)
        return
    work = Path(tempfile.mkdtemp(prefix="retention-"))
    db, port = test_database(str(work / "db.sqlite")), free_port()

    def serve(name: str, port: int, *options: str) -> Server:
        server = Server(db, ["--port", str(port), "--ocr-workers", "1", *options], log_path=str(work / f"{name}.log"),
                        build="debug").start()
        server.base = f"http://127.0.0.1:{server.port}"
        return server

    server = serve("page", port)
    driver = None
    try:
        own = API(server.base)
        _, board = own.call("POST", "/v1/boards", {"title": "retention"})
        token = board["token"]
        stickers = f"/v1/boards/{board['id']}/stickers"
        _, gone = own.call("POST", stickers, {"strokes": pick_sample(args.corpus, None)["strokes"]}, token=token)
        driver = start_browser(DESKTOP, args.chromium, args.chromedriver)
        driver.get(f"{server.base}/#board={board['id']}&token={token}")
        wait(driver, lambda d: (s := page_state(d))["live"] == "live" and [t["id"] for t in s["stickers"]] == [gone["id"]],
             "the page live with the first sticker")
        server.stop()
        wait(driver, lambda d: page_state(d)["live"] != "live", "the page offline")

        # Changed where the page cannot see it: the first sticker deleted, a second one made.
        elsewhere = serve("elsewhere", free_port())
        try:
            other = API(elsewhere.base)
            other.call("DELETE", f"{stickers}/{gone['id']}", token=token)
            _, made = other.call("POST", stickers, {"strokes": pick_sample(args.corpus, None, skip=1)["strokes"],
                                                    "target": "new"}, token=token)
        finally:
            elsewhere.stop()
        purger = serve("purger", free_port(), "--keep-events-days", "0.000001")
        try:
            log = Path(purger.log_path)
            deadline = time.monotonic() + 10
            while "deleted old events" not in log.read_text() and time.monotonic() < deadline:
                time.sleep(0.1)
            purged = "deleted old events" in log.read_text()
        finally:
            purger.stop()

        server = serve("page-again", port)
        state = wait(driver, lambda d: (s := page_state(d))["live"] == "live"
                     and [t["id"] for t in s["stickers"]] == [made["id"]] and s,
                     "the page showing the board as it is", timeout=45)
        driver.save_screenshot(str(out / "retention.png"))
        report.check("a page that was away while the events it missed were deleted lists the board again (reset)",
                     purged and [t["id"] for t in state["stickers"]] == [made["id"]],
                     f"deleted: {purged}, stickers {[t['id'] for t in state['stickers']]}")
        # Live again after the reset: a change made now reaches the page through its stream.
        own = API(server.base)
        own.call("PATCH", f"{stickers}/{made['id']}", {"text": "after reset"}, token=token)
        state = wait(driver, lambda d: (s := page_state(d))["stickers"] and s["stickers"][0]["text"] == "after reset" and s,
                     "the edit after the reset on the page")
        report.check("after the reset the page follows the board's events again", state["live"] == "live", state["live"])
    finally:
        if driver is not None:
            errors = [e for e in console_errors(driver) if "ERR_CONNECTION_REFUSED" not in str(e.get("message"))]
            report.record("no errors in the browser console (retention)", not errors,
                          "; ".join(str(e.get("message"))[:300] for e in errors) or "none")
            driver.quit()
        server.stop()


def main() -> int:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True, help="the running server, e.g. http://127.0.0.1:8080")
    parser.add_argument("--corpus", type=Path, default=None, help="print.jsonl (default: found beside the repository)")
    parser.add_argument("--sample", default=None, help="corpus id of the word to write on the desktop")
    parser.add_argument("--pointer", default=interaction.POINTER_PEN,
                        choices=[interaction.POINTER_PEN, interaction.POINTER_MOUSE], help="desktop pointer kind")
    parser.add_argument("--out", type=Path, default=here / "out", help="where screenshots go")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = parser.parse_args()
    args.root = here.parent.parent
    args.corpus = args.corpus or find_corpus(args.root)
    args.out.mkdir(parents=True, exist_ok=True)
    api = API(args.base_url)
    report = Report()
    for name, scenario in (("desktop", desktop), ("phone", phone), ("korean", korean), ("links", links),
                           ("gestures", gestures), ("retention", retention)):
        try:
            scenario(report, api, args, args.out)
        except CheckFailed:
            pass
        except (AssertionError, WebDriverException, OSError, LookupError) as error:
            report.error(name, error)
    print(f"screenshots: {args.out}", flush=True)
    print(f"browser: {report.passed} passed, {report.failed} failed", flush=True)
    return 0 if report.failed == 0 and report.passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
