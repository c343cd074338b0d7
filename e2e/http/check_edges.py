#!/usr/bin/env python3
"""HTTP edges a real client meets, against a live server (the debug build unless $INKSTICKER_BIN).

* Lingering close: a client that sends a 10 MB body without `Expect: 100-continue` and reads
  only afterwards gets the 413 (Python's urllib, and a raw socket), not a connection reset.
* Caching: every kind of response the server sends (board resources, token-bearing responses,
  health and metrics, page assets, errors, 304s, the event stream head) is linted with httplint
  (PyPI); any WARN or BAD note fails, and the Cache-Control each kind must carry is checked.
* Contract: every header of each of those responses is documented in openapi.yaml for its
  operation and status (framing headers aside), so the spec says what the server sends.

  e2e/http/run.sh                  # installs httplint into e2e/http/.venv, then runs this
Prints 'N passed, N failed' and exits non-zero on any failure.
"""
import http.client
import json
import os
import socket
import sys
import tempfile
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "reliability"))
from common import ROOT, Server, load_corpus, read_until_close  # noqa: E402

import re  # noqa: E402

import yaml  # noqa: E402
from httplint import HttpResponseLinter  # noqa: E402

with open(os.path.join(ROOT, "openapi.yaml"), encoding="utf-8") as f:
    SPEC = yaml.safe_load(f)
# Framing and transport headers, not part of an operation's contract.
FRAMING = {"content-type", "content-length", "date", "connection", "transfer-encoding"}

results = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    results["passed" if ok else "failed"] += 1
    print(("ok    " if ok else "FAIL  ") + name + ("" if ok else ": " + detail))


def exchange(port, method, path, body=None, headers=None):
    """One request on a fresh connection: status, reason, header list, body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = json.dumps(body).encode() if isinstance(body, (dict, list)) else body
    all_headers = dict(headers or {})
    if data is not None and "Content-Type" not in all_headers:
        all_headers["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=all_headers)
    response = conn.getresponse()
    content = b"" if method == "HEAD" or response.getheader("Content-Type", "").startswith("text/event-stream") \
        else response.read()
    result = (response.status, response.reason, response.getheaders(), content)
    conn.close()
    return result


def resolve(node):
    while isinstance(node, dict) and "$ref" in node:
        target = SPEC
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node


def documented_headers(method, path, status):
    """The headers openapi.yaml documents for this answer, or None when no operation matches."""
    path = path.split("?", 1)[0]
    for template, item in SPEC["paths"].items():
        if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", template), path):
            operation = item.get(method.lower()) or (item.get("get") if method == "HEAD" else None)
            if operation is None:
                return None
            response = operation["responses"].get(str(status)) or operation["responses"].get("default")
            return None if response is None else {h.lower() for h in resolve(response).get("headers", {})}
    return None


def contract(name, method, path, status, headers):
    documented = documented_headers(method, path, status)
    if documented is None:
        return
    sent = {k.lower() for k, _ in headers} - FRAMING
    missing = sorted(sent - documented)
    check("openapi.yaml documents every header of %s (%d)" % (name, status), not missing, ", ".join(missing))


def lint(name, method, status, reason, headers, content, cache_control=None, path=None):
    linter = HttpResponseLinter()
    linter.process_response_topline(b"HTTP/1.1", str(status).encode(), reason.encode())
    linter.process_headers([(k.encode(), v.encode()) for k, v in headers])
    if method != "HEAD" and content:
        linter.feed_content(content)
    linter.finish_content(True)
    bad = []

    def walk(notes):
        for note in notes:
            # A 4xx provoked on purpose is reported as such (STATUS_BAD_REQUEST etc.); that note
            # is about the request, not the response.
            if note.level.name.lower() in ("warn", "bad") and not (status >= 400 and type(note).__name__.startswith("STATUS_")):
                bad.append("%s: %s" % (note.level.name, note.summary))
            walk(getattr(note, "subnotes", []) or [])
    walk(linter.notes)
    check("httplint %s (%d): no WARN or BAD" % (name, status), not bad, "; ".join(bad))
    if path is not None:
        contract(name, method, path, status, headers)
    if cache_control is not None:
        got = dict((k.lower(), v) for k, v in headers).get("cache-control")
        check("%s: Cache-Control %s" % (name, cache_control), got == cache_control, "got %r" % got)


def lingering(port):
    big = b'{"title":"' + b"a" * (10 << 20) + b'"}'
    request = urllib.request.Request("http://127.0.0.1:%d/v1/boards" % port, data=big, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        urllib.request.urlopen(request, timeout=30)
        check("urllib: 10 MB body without Expect gets 413", False, "it was accepted")
    except urllib.error.HTTPError as e:
        check("urllib: 10 MB body without Expect gets 413", e.code == 413, "status %d" % e.code)
    except OSError as e:
        check("urllib: 10 MB body without Expect gets 413", False, repr(e))

    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    try:
        s.sendall(b"POST /v1/boards HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\n\r\n" % len(big) + big)
        answer = read_until_close(s)
        check("raw socket: whole body first, then the 413", answer.startswith(b"HTTP/1.1 413"), repr(answer[:80]))
    except OSError as e:
        check("raw socket: whole body first, then the 413", False, repr(e))
    finally:
        s.close()


def responses(port):
    sample = load_corpus("print.jsonl", limit=1)[0]
    ink = {"strokes": sample["strokes"]}
    status, reason, headers, content = exchange(port, "POST", "/v1/boards", {"title": "edges"})
    lint("POST /v1/boards (token)", "POST", status, reason, headers, content, "no-store", path="/v1/boards")
    board = json.loads(content)
    auth = {"Authorization": "Bearer " + board["token"]}
    base = "/v1/boards/" + board["id"]
    status, reason, headers, content = exchange(port, "POST", base + "/stickers", ink, auth)
    lint("POST stickers (201)", "POST", status, reason, headers, content, "private, no-cache", path=base + "/stickers")
    sticker = json.loads(content)
    one = base + "/stickers/" + sticker["id"]
    for name, path, control in [("GET board", base, "private, no-cache"),
                                ("GET stickers", base + "/stickers", "private, no-cache"),
                                ("GET sticker", one, "private, no-cache"),
                                ("GET sticker ink", one + "/ink", "private, no-cache"),
                                ("GET ink.png", one + "/ink.png", "private, no-cache"),
                                ("GET render.svg", base + "/render.svg", "private, no-cache")]:
        status, reason, headers, content = exchange(port, "GET", path, headers=auth)
        lint(name, "GET", status, reason, headers, content, control, path=path)
        if name == "GET render.svg":
            csp = dict((k.lower(), v) for k, v in headers).get("content-security-policy", "")
            check("render.svg CSP allows no script", "script" not in csp and "default-src 'none'" in csp, csp)
        etag = dict((k.lower(), v) for k, v in headers).get("etag")
        if etag:
            status, reason, headers, content = exchange(port, "GET", path, headers={**auth, "If-None-Match": etag})
            lint(name + " revalidated", "GET", status, reason, headers, content, "private, no-cache", path=path)
            check(name + " revalidates to 304", status == 304, "status %d" % status)
    status, reason, headers, content = exchange(port, "GET", base + "/events?after=0", headers=auth)
    lint("GET events (stream head)", "GET", status, reason, headers, b"", "no-store", path=base + "/events")
    for name, path, control in [("GET /healthz", "/healthz", "no-store"), ("GET /readyz", "/readyz", "no-store"),
                                ("GET /metrics", "/metrics", "no-store"), ("GET /v1/languages", "/v1/languages", "no-cache"),
                                ("GET /", "/", "no-cache"), ("GET /openapi.yaml", "/openapi.yaml", "no-cache")]:
        status, reason, headers, content = exchange(port, "GET", path)
        lint(name, "GET", status, reason, headers, content, control, path=path)
    status, reason, headers, content = exchange(port, "POST", "/v1/recognize", ink)
    lint("POST /v1/recognize", "POST", status, reason, headers, content, "no-store", path="/v1/recognize")
    for name, method, path, body, hdrs in [("404", "GET", "/nowhere", None, {}),
                                          ("401", "GET", base, None, {}),
                                          ("400 bad JSON", "POST", "/v1/recognize", b"{", {}),
                                          ("405", "PUT", "/healthz", b"", {})]:
        status, reason, headers, content = exchange(port, method, path, body, hdrs)
        lint("error " + name, method, status, reason, headers, content, "no-store", path=path)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(os.path.join(tmp, "db.sqlite"), args=["--models", os.path.join(ROOT, "Models")],
                        build="debug").start()
        try:
            lingering(server.port)
            responses(server.port)
        finally:
            server.stop()
    print("%d passed, %d failed" % (results["passed"], results["failed"]))
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
