#!/usr/bin/env bash
# GET of a board's 100 stickers, and of its picture (render.svg), on InkSticker against nginx
# serving the same bytes as static files, in the same run, with wrk.
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
URL2="http://127.0.0.1:$P1/v1/boards/$BOARD/render.svg"
mkdir -p "$OUT/static"
curl -sf -H "Authorization: Bearer $TOKEN" "$URL1" >"$OUT/static/stickers.json"
curl -sf -H "Authorization: Bearer $TOKEN" "$URL2" >"$OUT/static/render.svg"
start_nginx "$P2" "$OUT/static"
wait_http "http://127.0.0.1:$P2/stickers.json"
results=()
for what in stickers.json:"$URL1" render.svg:"$URL2"; do
  file=${what%%:*}; url=${what#*:}
  wrk -t1 -c"$CONNS" -d2s -H "Authorization: Bearer $TOKEN" "$url" >/dev/null
  wrk -t1 -c"$CONNS" -d2s "http://127.0.0.1:$P2/$file" >/dev/null
  results+=("$(run_wrk "inksticker-${file%%.*}" "$url" -t1 -c"$CONNS" -d"${SECONDS_RUN}s" -H "Authorization: Bearer $TOKEN")")
  results+=("$(run_wrk "nginx-${file%%.*}" "http://127.0.0.1:$P2/$file" -t1 -c"$CONNS" -d"${SECONDS_RUN}s")")
done
python3 - "$CONNS" "$SECONDS_RUN" "$(stat -c %s "$OUT/static/stickers.json")" "$(stat -c %s "$OUT/static/render.svg")" "${results[@]}" <<'PY'
import sys
conns, seconds, json_size, svg_size = sys.argv[1:5]
rows = [r.split() for r in sys.argv[5:]]
print(f"GET a board of 100 stickers: its listing ({json_size} bytes of JSON) and its picture ({svg_size} bytes of SVG),"
      f" wrk -t1 -c{conns} -d{seconds}s, keep-alive")
print(f"{'server':<22}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'non-2xx':>9}")
for r in rows:
    print(f"{r[0]:<22}{float(r[1]):>10.0f}{float(r[2]):>10.3f}{float(r[3]):>10.3f}{r[4]:>9}")
for (a, b), what in zip(zip(rows[0::2], rows[1::2]), ("listing", "render.svg")):
    print(f"ratio inksticker/nginx, {what}: {float(a[1])/float(b[1]):.2f}x requests/s (target >= 1.0x)")
PY
