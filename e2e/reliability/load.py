#!/usr/bin/env python3
"""Load and backpressure.

mixed:    a mixed workload across many boards for --seconds (default 60): ~70% board reads (GET the
          stickers list, GET one sticker), ~25% ink posts, ~5% edits (PATCH, key input, commit).
          Reports throughput, p50/p99 per route, answers by status, and the server's RSS at start,
          after warm-up and at the end. Fails on a 5xx other than 503, or RSS growth >= 10% once warm.
overload: the server with one OCR worker and a queue of 2. First readers alone (baseline), then the
          same readers while many clients flood ink posts. Reports the ink answers (201 / 503), the
          p50/p99 of the 503s and whether each carries Retry-After, and the read latency in both
          phases. Fails when no 503 comes back, a 503 lacks Retry-After, or a 5xx other than 503.

Both start the release build themselves, with rate limits off. Standard library only.
Usage: load.py mixed [--seconds 60] [--users 8] ...; load.py overload [--seconds 15] [--flooders 32] ...
"""
import argparse
import asyncio
import json
import multiprocessing
import os
import random
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import AsyncConnection, Server, load_corpus, percentile, report  # noqa: E402

NO_RATE_LIMITS = ["--rate-ink-per-address", "0", "--rate-ink-per-token", "0", "--rate-boards-per-address", "0"]


class Stats:
    def __init__(self):
        self.latency = {}   # route -> [seconds]
        self.statuses = {}  # route -> {status: count}
        self.errors = 0     # connection failures
        self.retry_after_missing = 0

    def record(self, route, status, seconds):
        self.latency.setdefault((route, status), []).append(seconds)
        by_status = self.statuses.setdefault(route, {})
        by_status[status] = by_status.get(status, 0) + 1

    def merge(self, other):
        for k, v in other.latency.items():
            self.latency.setdefault(k, []).extend(v)
        for route, counts in other.statuses.items():
            mine = self.statuses.setdefault(route, {})
            for s, n in counts.items():
                mine[s] = mine.get(s, 0) + n
        self.errors += other.errors
        self.retry_after_missing += other.retry_after_missing

    def samples(self, route, status=None):
        return [x for (r, s), v in self.latency.items() if r == route and (status is None or s == status) for x in v]

    def fivexx(self):
        return {(r, s): n for r, c in self.statuses.items() for s, n in c.items() if s >= 500}

    def table(self, seconds, title):
        lines = [title, f"{'route':<22}{'requests':>10}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}  statuses"]
        for route in sorted(self.statuses):
            all_samples = self.samples(route)
            lines.append(f"{route:<22}{len(all_samples):>10}{len(all_samples) / seconds:>9.1f}"
                         f"{percentile(all_samples, 50) * 1e3:>9.2f}{percentile(all_samples, 99) * 1e3:>9.2f}"
                         f"{max(all_samples) * 1e3 if all_samples else 0:>9.1f}  {dict(sorted(self.statuses[route].items()))}")
        total = sum(len(v) for v in self.latency.values())
        lines.append(f"{'all':<22}{total:>10}{total / seconds:>9.1f}   connection errors: {self.errors}")
        return "\n".join(lines)


def ink_bodies(samples):
    return [json.dumps({"strokes": s["strokes"], "target": "new",
                        "center": {"x": random.uniform(0, 50_000), "y": random.uniform(0, 50_000)}}).encode()
            for s in samples]


async def setup_boards(port, boards, per_board, bodies):
    conn = AsyncConnection(port)
    result = []
    for b in range(boards):
        status, _, data = await conn.request("POST", "/v1/boards", json.dumps({"title": f"load {b}"}).encode())
        assert status == 201, (status, data)
        board = json.loads(data)
        board["stickers"], board["fields"] = [], set()
        for i in range(per_board):
            status, _, data = await conn.request("POST", f"/v1/boards/{board['id']}/stickers", bodies[(b * per_board + i) % len(bodies)],
                                                 token=board["token"])
            assert status == 201, (status, data)
            sid = json.loads(data)["id"]
            board["stickers"].append(sid)
            board["fields"].add(sid)
        result.append(board)
    conn.close()
    return result


async def mixed_user(port, boards, bodies, stats_box, stop_at, rng, counter):
    conn = AsyncConnection(port)
    while time.monotonic() < stop_at:
        board = rng.choice(boards)
        base = f"/v1/boards/{board['id']}"
        r = rng.random()
        body = b""
        if r < 0.35:
            route, method, path = "GET list", "GET", base + "/stickers?limit=100"
        elif r < 0.70:
            route, method, path = "GET sticker", "GET", f"{base}/stickers/{rng.choice(board['stickers'])}"
        elif r < 0.95:
            route, method, path, body = "POST ink", "POST", base + "/stickers", rng.choice(bodies)
        else:
            if not board["fields"]:
                continue
            sid = rng.choice(sorted(board["fields"]))
            counter[0] += 1
            e = rng.random()
            if e < 0.4:
                route, method, path, body = "PATCH", "PATCH", f"{base}/stickers/{sid}", json.dumps({"text": f"edit {counter[0]}"}).encode()
            elif e < 0.8:
                route, method, path = "POST input", "POST", f"{base}/stickers/{sid}/input"
                body = json.dumps({"ops": [{"insertText": f" {counter[0]}"}, {"deleteBackward": 1}]}).encode()
            else:
                route, method, path = "POST commit", "POST", f"{base}/stickers/{sid}/commit"
                board["fields"].discard(sid)
        started = time.monotonic()
        try:
            status, headers, data = await conn.request(method, path, body, token=board["token"])
        except (OSError, asyncio.IncompleteReadError, ValueError):
            stats_box[0].errors += 1
            await asyncio.sleep(0.01)
            continue
        stats_box[0].record(route, status, time.monotonic() - started)
        if route == "POST ink" and status == 201:
            sid = json.loads(data)["id"]
            board["stickers"].append(sid)
            board["fields"].add(sid)
        if status == 503 and "retry-after" not in headers:
            stats_box[0].retry_after_missing += 1
    conn.close()


async def run_mixed(args, server):
    samples = load_corpus("print.jsonl", limit=100)
    bodies = ink_bodies(samples)
    rss = {"start": server.rss_kb()}
    boards = await setup_boards(server.port, args.boards, args.stickers_per_board, bodies)
    rss["after setup"] = server.rss_kb()
    rng = random.Random(args.seed)
    start = time.monotonic()
    stop_at = start + args.warmup + args.seconds
    stats_box = [Stats()]
    counter = [0]
    users = [asyncio.ensure_future(mixed_user(server.port, boards, bodies, stats_box, stop_at, random.Random(rng.random()), counter))
             for _ in range(args.users)]
    await asyncio.sleep(args.warmup)
    warm_stats = stats_box[0]
    stats_box[0] = Stats()  # measure from here
    rss["after warm-up"] = server.rss_kb()
    trend = []
    while time.monotonic() < stop_at:
        await asyncio.sleep(min(5, max(0, stop_at - time.monotonic())))
        trend.append(server.rss_kb())
    await asyncio.gather(*users)
    measured = time.monotonic() - start - args.warmup
    rss["end"] = server.rss_kb()
    stats = stats_box[0]
    print(f"mixed workload: {args.users} users, {args.boards} boards seeded with {args.stickers_per_board} stickers each, "
          f"{args.warmup:.0f} s warm-up ({sum(len(v) for v in warm_stats.latency.values())} requests, not counted), {measured:.1f} s measured")
    print(stats.table(measured, "measured period:"))
    print("server RSS (MB): " + ", ".join(f"{k} {v / 1024:.1f}" for k, v in rss.items()))
    print("RSS every 5 s after warm-up (MB): " + " ".join(f"{v / 1024:.1f}" for v in trend))
    growth = (rss["end"] - rss["after warm-up"]) / rss["after warm-up"]
    failures = []
    bad = {k: v for k, v in stats.fivexx().items() if k[1] != 503}
    bad_warm = {k: v for k, v in warm_stats.fivexx().items() if k[1] != 503}
    if bad or bad_warm:
        failures.append(f"5xx other than 503: {bad or bad_warm}")
    if growth >= 0.10:
        failures.append(f"RSS grew {growth * 100:.1f}% after warm-up (limit 10%)")
    if stats.retry_after_missing:
        failures.append(f"{stats.retry_after_missing} 503s without Retry-After")
    print(f"RSS growth after warm-up: {growth * 100:+.1f}%")
    return failures


async def reader(port, boards, stats, stop_at, rng, pause):
    conn = AsyncConnection(port)
    while time.monotonic() < stop_at:
        board = rng.choice(boards)
        if rng.random() < 0.5:
            route, path = "GET list", f"/v1/boards/{board['id']}/stickers?limit=100"
        else:
            route, path = "GET sticker", f"/v1/boards/{board['id']}/stickers/{rng.choice(board['stickers'])}"
        started = time.monotonic()
        try:
            status, _, _ = await conn.request("GET", path, token=board["token"])
        except (OSError, asyncio.IncompleteReadError, ValueError):
            stats.errors += 1
            continue
        stats.record(route, status, time.monotonic() - started)
        if pause:
            await asyncio.sleep(pause)


async def flooder(port, board, bodies, stats, stop_at, rng, pause):
    conn = AsyncConnection(port)
    while time.monotonic() < stop_at:
        started = time.monotonic()
        try:
            status, headers, _ = await conn.request("POST", f"/v1/boards/{board['id']}/stickers", rng.choice(bodies), token=board["token"])
        except (OSError, asyncio.IncompleteReadError, ValueError):
            stats.errors += 1
            await asyncio.sleep(0.01)
            continue
        stats.record("POST ink", status, time.monotonic() - started)
        if status == 503:
            if "retry-after" not in headers:
                stats.retry_after_missing += 1
            # A client that ignores Retry-After but does not spin: the point is a full queue, not a busy client.
            await asyncio.sleep(pause)


def flood_process(port, board, seconds, flooders, pause, seed, queue):
    """Runs the ink flood in its own process so the readers' latencies are not the flood's event-loop delays."""
    bodies = ink_bodies(load_corpus("print.jsonl", limit=100))
    stats = Stats()
    stop_at = time.monotonic() + seconds

    async def main():
        rng = random.Random(seed)
        await asyncio.gather(*(flooder(port, board, bodies, stats, stop_at, random.Random(rng.random()), pause) for _ in range(flooders)))
    asyncio.run(main())
    queue.put((stats.latency, stats.statuses, stats.errors, stats.retry_after_missing))


async def read_phase(port, boards, readers, seconds, seed, pause=0.0):
    stats = Stats()
    stop_at = time.monotonic() + seconds
    rng = random.Random(seed)
    await asyncio.gather(*(reader(port, boards, stats, stop_at, random.Random(rng.random()), pause) for _ in range(readers)))
    return stats


async def run_overload(args, server):
    bodies = ink_bodies(load_corpus("print.jsonl", limit=100))
    boards = await setup_boards(server.port, args.boards, args.stickers_per_board, bodies)
    flood_board = boards[0]
    await read_phase(server.port, boards, args.readers, 2, 1, args.read_pause)  # warm-up
    baseline = await read_phase(server.port, boards, args.readers, args.seconds, 2, args.read_pause)
    context = multiprocessing.get_context("spawn")  # a forked child would inherit this running event loop
    queue = context.Queue()
    flood = context.Process(target=flood_process,
                            args=(server.port, flood_board, args.seconds + 1, args.flooders, args.flood_pause, 3, queue))
    flood.start()
    await asyncio.sleep(1)  # let the queue fill before measuring reads
    loaded = await read_phase(server.port, boards, args.readers, args.seconds, 4, args.read_pause)
    ink = Stats()
    ink.latency, ink.statuses, ink.errors, ink.retry_after_missing = queue.get(timeout=120)
    flood.join(30)
    print(f"overload: server with --ocr-workers 1 --ocr-queue 2; {args.readers} readers; {args.flooders} ink flooders "
          f"(pause {args.flood_pause * 1e3:.0f} ms after a 503); {args.seconds:.0f} s per phase")
    print(baseline.table(args.seconds, "reads alone:"))
    print(loaded.table(args.seconds, "reads during the ink flood:"))
    print(ink.table(args.seconds + 1, "ink flood:"))
    only503 = ink.samples("POST ink", 503)
    accepted = ink.samples("POST ink", 201)
    print(f"ink 503: {ink.statuses.get('POST ink', {}).get(503, 0)}, p50 {percentile(only503, 50) * 1e3:.2f} ms, "
          f"p99 {percentile(only503, 99) * 1e3:.2f} ms, without Retry-After: {ink.retry_after_missing}; "
          f"ink 201: {len(accepted)}, p50 {percentile(accepted, 50) * 1e3:.1f} ms, p99 {percentile(accepted, 99) * 1e3:.1f} ms")
    failures = []
    for name, s in (("alone", baseline), ("during the flood", loaded)):
        b = s.samples("GET list") + s.samples("GET sticker")
        print(f"reads {name}: p50 {percentile(b, 50) * 1e3:.2f} ms, p99 {percentile(b, 99) * 1e3:.2f} ms, {len(b) / args.seconds:.0f} req/s")
    base_reads = baseline.samples("GET list") + baseline.samples("GET sticker")
    load_reads = loaded.samples("GET list") + loaded.samples("GET sticker")
    print(f"read latency under the flood / alone: p50 x{percentile(load_reads, 50) / percentile(base_reads, 50):.2f}, "
          f"p99 x{percentile(load_reads, 99) / percentile(base_reads, 99):.2f}")
    statuses = ink.statuses.get("POST ink", {})
    if not statuses.get(503):
        failures.append("no ink post was refused with 503 although the OCR queue was full")
    if ink.retry_after_missing:
        failures.append(f"{ink.retry_after_missing} 503s without Retry-After")
    for s in (baseline, loaded, ink):
        bad = {k: v for k, v in s.fivexx().items() if k[1] != 503}
        if bad:
            failures.append(f"5xx other than 503: {bad}")
    if ink.errors or loaded.errors or baseline.errors:
        failures.append(f"connection errors: baseline {baseline.errors}, loaded {loaded.errors}, ink {ink.errors}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["mixed", "overload"])
    parser.add_argument("--seconds", type=float, default=None, help="measured seconds (mixed 60, overload 15 per phase)")
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--users", type=int, default=8)
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--stickers-per-board", type=int, default=5)
    parser.add_argument("--readers", type=int, default=8)
    parser.add_argument("--read-pause", type=float, default=0.005, help="seconds a reader waits between requests (overload)")
    parser.add_argument("--flooders", type=int, default=32)
    parser.add_argument("--flood-pause", type=float, default=0.005)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server-arg", action="append", default=[], help="extra argument for 'inksticker serve'")
    parser.add_argument("--dir", help="directory for the database and server log (default: temporary)")
    args = parser.parse_args()
    if args.seconds is None:
        args.seconds = 60 if args.mode == "mixed" else 15
    directory = args.dir or tempfile.mkdtemp(prefix="inksticker-load-")
    os.makedirs(directory, exist_ok=True)
    db = os.path.join(directory, f"{args.mode}.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    server_args = NO_RATE_LIMITS + args.server_arg
    if args.mode == "overload":
        server_args += ["--ocr-workers", "1", "--ocr-queue", "2"]
    server = Server(db, server_args, log_path=os.path.join(directory, f"{args.mode}-server.log")).start()
    print(f"server: {' '.join(server_args)} (pid {server.pid}, log {server.log_path})")
    try:
        failures = asyncio.run(run_mixed(args, server) if args.mode == "mixed" else run_overload(args, server))
    finally:
        code = server.stop()
    if code not in (0, None):
        failures.append(f"server exited with {code} on SIGTERM")
    return report(failures)


if __name__ == "__main__":
    sys.exit(main())
