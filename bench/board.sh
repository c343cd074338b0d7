#!/usr/bin/env bash
# GET of a board's 100 stickers on InkSticker against nginx serving the same bytes as a static file,
# in the same run, with wrk.
# Usage: bench/board.sh [seconds] [connections]
source "$(dirname "$0")/lib.sh"
SECONDS_RUN=${1:-10}
CONNS=${2:-32}
build_release
P1=$(free_port); P2=$(free_port)
start_inksticker "$P1" --rate-ink-per-token 0 --rate-ink-per-address 0
read -r BOARD TOKEN < <(python3 - "$P1" "$ROOT/Tests/Fixtures/ink/print.jsonl" <<'PY'
import json, sys, urllib.request
port, corpus = sys.argv[1], sys.argv[2]
def call(method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token: headers["Authorization"] = "Bearer " + token
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                 data=json.dumps(body).encode() if body is not None else None, headers=headers)
    return json.loads(urllib.request.urlopen(req).read() or b"{}")
board = call("POST", "/v1/boards", {"title": "bench"})
samples = [json.loads(l) for _, l in zip(range(100), open(corpus))]
for i, s in enumerate(samples):
    call("POST", f"/v1/boards/{board['id']}/stickers",
         {"strokes": s["strokes"], "target": "new", "center": {"x": (i % 10) * 400, "y": (i // 10) * 120}}, board["token"])
print(board["id"], board["token"])
PY
)
URL1="http://127.0.0.1:$P1/v1/boards/$BOARD/stickers?limit=100"
mkdir -p "$OUT/static"
curl -sf -H "Authorization: Bearer $TOKEN" "$URL1" >"$OUT/static/stickers.json"
SIZE=$(stat -c %s "$OUT/static/stickers.json")
start_nginx "$P2" "$OUT/static"
wait_http "http://127.0.0.1:$P2/stickers.json"
wrk -t1 -c"$CONNS" -d2s -H "Authorization: Bearer $TOKEN" "$URL1" >/dev/null
wrk -t1 -c"$CONNS" -d2s "http://127.0.0.1:$P2/stickers.json" >/dev/null
a=$(run_wrk inksticker-board "$URL1" -t1 -c"$CONNS" -d"${SECONDS_RUN}s" -H "Authorization: Bearer $TOKEN")
b=$(run_wrk nginx-board "http://127.0.0.1:$P2/stickers.json" -t1 -c"$CONNS" -d"${SECONDS_RUN}s")
python3 - "$a" "$b" "$CONNS" "$SECONDS_RUN" "$SIZE" <<'PY'
import sys
a = sys.argv[1].split(); b = sys.argv[2].split()
print(f"GET a board's 100 stickers ({sys.argv[5]} bytes of JSON), wrk -t1 -c{sys.argv[3]} -d{sys.argv[4]}s, keep-alive")
print(f"{'server':<18}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'non-2xx':>9}")
for r in (a, b):
    print(f"{r[0]:<18}{float(r[1]):>10.0f}{float(r[2]):>10.3f}{float(r[3]):>10.3f}{r[4]:>9}")
print(f"ratio inksticker/nginx: {float(a[1])/float(b[1]):.2f}x requests/s (target >= 0.5x)")
PY
