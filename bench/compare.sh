#!/usr/bin/env bash
# This working tree against another revision, benchmark by benchmark, in one run on one machine:
# builds REV in a checkout of its own beside the tree (bench/out/compare/REV, kept for the next
# run), then runs each benchmark of this tree (the same workload for both builds) on this tree's
# build and on REV's, alternating which goes first, ROUNDS times; prints every measure for both,
# the ratio this/REV per round, and its median with the spread (min-max) over the rounds.
#
#   http       GET /healthz req/s (bench/http.sh), and nginx in the same run
#   board      a 100-sticker listing and render.svg req/s (bench/board.sh), and nginx
#   recognize  recognitions/s with 1 and 2 OCR workers (bench/recognize.sh)
#   rect       rectangle p50 on 100,000 stickers, SQLite and PostgreSQL (bench/rect.sh)
#
# Usage: bench/compare.sh REV [rounds, default 3] [benchmarks, default "http board recognize rect"]
# Noisy by nature (run it on a quiet machine); not part of the test suite.
source "$(dirname "$0")/lib.sh"
REV=${1:?usage: bench/compare.sh REV [rounds] [benchmarks]}
ROUNDS=${2:-3}
BENCHES=${3:-http board recognize rect}
SHA=$(git -C "$ROOT" rev-parse --verify "$REV^{commit}")
OTHER="$OUT/compare/${SHA:0:12}"
if [ ! -d "$OTHER" ]; then
  mkdir -p "$OUT/compare"
  git -C "$ROOT" worktree add --detach "$OTHER" "$SHA" >&2
fi
echo "building this tree and ${SHA:0:12} (release)" >&2
(cd "$ROOT" && scripts/deps.sh nginx wrk curl python3 >&2)
for tree in "$ROOT" "$OTHER"; do
  (cd "$tree" && swift build -c release --product inksticker >&2 && swift build -c release --product inkbench >&2)
done

RESULTS="$OUT/compare-$(date +%Y%m%d-%H%M%S).tsv"
: >"$RESULTS"
# measure NAME TREE ROUND: runs one benchmark on one tree, appends "round tree measure value" lines.
measure() {
  local bench=$1 tree=$2 round=$3 label log
  label=$([ "$tree" = "$ROOT" ] && echo this || echo rev)
  log="$OUT/compare-$bench-$label-$round.txt"
  case $bench in
    http) BENCH_TREE=$tree "$ROOT/bench/http.sh" 10 32 >"$log" 2>&1 ;;
    board) BENCH_TREE=$tree "$ROOT/bench/board.sh" 10 32 >"$log" 2>&1 ;;
    recognize) BENCH_TREE=$tree "$ROOT/bench/recognize.sh" 8 >"$log" 2>&1 ;;
    rect) BENCH_TREE=$tree "$ROOT/bench/rect.sh" 100000 2000 >"$log" 2>&1 ;;
    *) echo "unknown benchmark $bench" >&2; exit 2 ;;
  esac || { echo "$bench on $label failed, see $log" >&2; return 0; }
  python3 - "$bench" "$log" "$round" "$label" >>"$RESULTS" <<'PY'
import re, sys
bench, log, rnd, label = sys.argv[1:5]
text = open(log).read()
rows = []
def rps(name):
    m = re.search(rf"^{re.escape(name)}\s+(\d+)", text, re.M)
    return float(m.group(1)) if m else None
if bench == "http":
    rows += [("healthz req/s", rps("inksticker")), ("nginx healthz req/s", rps("nginx"))]
elif bench == "board":
    rows += [("listing req/s", rps("inksticker-stickers")), ("nginx listing req/s", rps("nginx-stickers")),
             ("render.svg req/s", rps("inksticker-render")), ("nginx render.svg req/s", rps("nginx-render"))]
elif bench == "recognize":
    for workers in ("1 worker", "2 workers"):
        m = re.search(rf"recognitions/s, {workers} .*?\s(\d+)/s", text)
        rows.append((f"recognitions/s, {workers}", float(m.group(1)) if m else None))
elif bench == "rect":
    for store in ("sqlite", "postgresql"):
        m = re.search(rf"^{store}\s+rectangle\s+([\d.]+)", text, re.M | re.I)
        rows.append((f"rect p50 ms, {store}", float(m.group(1)) if m else None))
for name, value in rows:
    if value is not None:
        print(f"{rnd}\t{label}\t{name}\t{value}")
PY
}

for round in $(seq 1 "$ROUNDS"); do
  for bench in $BENCHES; do
    # Alternate which build goes first, so that drift on the machine weighs on both alike.
    if [ $((round % 2)) -eq 1 ]; then first=$ROOT; second=$OTHER; else first=$OTHER; second=$ROOT; fi
    echo "round $round: $bench" >&2
    measure "$bench" "$first" "$round"
    measure "$bench" "$second" "$round"
  done
done

python3 - "$RESULTS" "${SHA:0:12}" "$ROUNDS" <<'PY'
import statistics, sys
from collections import defaultdict
path, rev, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
values = defaultdict(dict)   # measure -> (label, round) -> value
order = []
for line in open(path):
    rnd, label, name, value = line.rstrip("\n").split("\t")
    values[name][(label, int(rnd))] = float(value)
    if name not in order:
        order.append(name)
def med(xs):
    return statistics.median(xs) if xs else float("nan")
print(f"this tree against {rev}, {rounds} rounds, alternating order; medians, ratio this/{rev} per round: median [min, max]")
print(f"{'measure':<30}{'this':>12}{rev:>14}{'ratio':>9}  spread")
for name in order:
    v = values[name]
    this = [v[("this", r)] for r in range(1, rounds + 1) if ("this", r) in v]
    other = [v[("rev", r)] for r in range(1, rounds + 1) if ("rev", r) in v]
    ratios = [v[("this", r)] / v[("rev", r)] for r in range(1, rounds + 1) if ("this", r) in v and ("rev", r) in v and v[("rev", r)]]
    spread = f"[{min(ratios):.2f}, {max(ratios):.2f}]" if ratios else ""
    print(f"{name:<30}{med(this):>12.3f}{med(other):>14.3f}{med(ratios):>9.2f}  {spread}")
# The server against nginx in the same run, for both builds.
for name, nginx in (("healthz req/s", "nginx healthz req/s"), ("listing req/s", "nginx listing req/s"),
                    ("render.svg req/s", "nginx render.svg req/s")):
    if name not in values:
        continue
    for label, shown in (("this", "this"), ("rev", rev)):
        ratios = [values[name][(label, r)] / values[nginx][(label, r)] for r in range(1, rounds + 1)
                  if (label, r) in values[name] and (label, r) in values[nginx]]
        if ratios:
            print(f"{name.replace(' req/s', '')} / nginx, {shown:<12} {med(ratios):.2f}x  [{min(ratios):.2f}, {max(ratios):.2f}]")
PY
echo "raw results: $RESULTS; logs: $OUT/compare-*.txt" >&2
