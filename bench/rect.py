#!/usr/bin/env python3
"""Rectangle queries on a board of 100,000 stickers, SQLite and PostgreSQL side by side in one run.

For each store: a release server on a fresh database, one board filled with N stickers in a grid
(written straight into the database: recognising 100,000 inks would measure Tesseract), then with
one keep-alive connection, interleaved: GET /healthz (the HTTP floor), GET of one sticker by id (the
floor of a route that reads the database: its thread pool, a read transaction, one sticker's JSON), a page of 100 stickers
at a random cursor, and rectangle queries (rect=x,y,w,h around ~12 stickers at a random place). Prints p50
and p99 per request kind and the query plan that serves the rectangle (index, not scan).

Usage: bench/rect.py --postgres CONN [--stickers 100000] [--requests 2000]   (bench/rect.sh runs it)
"""
import argparse
import os
import random
import sqlite3
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e", "reliability"))
from common import Client, Server, new_schema, percentile, psql  # noqa: E402

COLUMNS = ("id, board_id, state, text, recognized_text, confidence, candidates, anchor_x, anchor_y, center_x, center_y,"
           " frame_x, frame_y, frame_width, frame_height, font_family, font_size, stroke_width, stroke_color, fill_color,"
           " kerning, line_height, alignment, line_limit, max_length, charset, ink_x, ink_y, ink_width, ink_height,"
           " version, created_at, updated_at, committed_at")
COLS = 400          # grid columns; a cell is 50 x 40 board units, a sticker 40 x 30
RECT = (120, 90)    # rectangle size: about 3 x 3 cells


def row_sql(i_expr, board, x_expr, y_expr):
    """SELECT list of one sticker, `i_expr` its number."""
    return (f"'s' || {i_expr}, '{board}', 'field', 'word', 'word', 0.9, '[]', {x_expr}, {y_expr}, {x_expr} + 20, {y_expr} + 15,"
            f" {x_expr}, {y_expr}, 40, 30, 'sans', 24, 0, '#000000', NULL, 0, 1.2, 'center', NULL, NULL, NULL,"
            f" {x_expr}, {y_expr}, 40, 30, 1, 1700000000000, 1700000000000, NULL")


def fill_sqlite(path, board, n):
    con = sqlite3.connect(path, timeout=30)
    con.execute(f"""WITH RECURSIVE g(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM g WHERE i < {n - 1})
        INSERT INTO stickers ({COLUMNS}) SELECT {row_sql('i', board, f'(i % {COLS}) * 50.0', f'(i / {COLS}) * 40.0')} FROM g""")
    con.commit()
    con.execute("ANALYZE")
    plan = [r[3] for r in con.execute(
        "EXPLAIN QUERY PLAN SELECT seq FROM stickers WHERE seq IN (SELECT seq FROM sticker_frames WHERE max_x >= 1"
        " AND min_x <= 2 AND max_y >= 1 AND min_y <= 2) AND board_id = 'b' ORDER BY seq LIMIT 101")]
    con.close()
    return " / ".join(plan)


def fill_postgres(conninfo, board, n):
    psql(conninfo, f"INSERT INTO stickers ({COLUMNS}) SELECT "
                   f"{row_sql('i', board, f'(i % {COLS}) * 50.0', f'(i / {COLS}) * 40.0')} FROM generate_series(0, {n - 1}) i")
    psql(conninfo, "ANALYZE stickers")
    return "see the index scans counted after the run"


def index_scans(conninfo):
    """Scans of each index of stickers so far (the server's own prepared statements included)."""
    rows = psql(conninfo, "SELECT indexrelname, idx_scan FROM pg_stat_user_indexes WHERE relname = 'stickers'"
                          " AND schemaname = current_schema() ORDER BY 1")
    return dict(line.split("|") for line in rows.split())


def measure(port, board, token, n, requests, seed=7):
    rng = random.Random(seed)
    client = Client(port)
    rows = (n + COLS - 1) // COLS
    kinds = ["healthz", "one sticker", "page of 100", "rectangle"]
    times = {kind: [] for kind in kinds}
    counts = []
    for i in range(requests * len(kinds) + 400):
        kind = kinds[i % len(kinds)]
        if kind == "healthz":
            path, token_ = "/healthz", None
        elif kind == "one sticker":  # the floor of a route that reads the database
            path, token_ = f"/v1/boards/{board}/stickers/s{rng.randrange(1000, n)}", token  # ids of 4+ characters
        elif kind == "page of 100":  # at a random cursor, so no page comes from the listing cache
            path, token_ = f"/v1/boards/{board}/stickers?limit=100&after={rng.randrange(n)}", token
        else:
            x, y = rng.uniform(0, COLS * 50 - RECT[0]), rng.uniform(0, rows * 40 - RECT[1])
            path, token_ = f"/v1/boards/{board}/stickers?rect={x:.1f},{y:.1f},{RECT[0]},{RECT[1]}&limit=100", token
        start = time.perf_counter()
        status, _, value = client.call("GET", path, token=token_)
        elapsed = (time.perf_counter() - start) * 1000
        if status != 200:
            raise SystemExit(f"{path}: {status} {value}")
        if i >= 400:  # warm-up
            times[kind].append(elapsed)
            if kind == "rectangle":
                counts.append(len(value["stickers"]))
    return times, sum(counts) / len(counts)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", required=True)
    parser.add_argument("--stickers", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as directory:
        stores = [("SQLite", os.path.join(directory, "rect.sqlite")),
                  ("PostgreSQL", new_schema(args.postgres, "rect_"))]
        for name, db in stores:
            server = Server(db, ["--rate-ink-per-address", "0", "--rate-ink-per-token", "0"],
                            log_path=os.path.join(directory, f"{name}.log")).start()
            try:
                _, _, board = Client(server.port).call("POST", "/v1/boards", {"title": "big"})
                started = time.time()
                plan = (fill_sqlite if name == "SQLite" else fill_postgres)(db, board["id"], args.stickers)
                filled = time.time() - started
                before = index_scans(db) if name == "PostgreSQL" else {}
                times, found = measure(server.port, board["id"], board["token"], args.stickers, args.requests)
                if name == "PostgreSQL":
                    time.sleep(1)  # statistics reach the shared counters within a second
                    after = index_scans(db)
                    plan = "index scans during the run: " + ", ".join(
                        f"{index} {int(after[index]) - int(before.get(index, 0))}" for index in sorted(after))
                results.append((name, times, found, plan, filled))
            finally:
                server.stop()
    print(f"\nrectangle queries on one board of {args.stickers:,} stickers; {args.requests} requests of each kind,"
          " one keep-alive connection, interleaved; ms")
    print(f"{'store':<11} {'request':<13} {'p50':>7} {'p99':>7}")
    for name, times, found, plan, filled in results:
        for kind, values in times.items():
            print(f"{name:<11} {kind:<13} {percentile(values, 50):7.3f} {percentile(values, 99):7.3f}")
    for name, times, found, plan, filled in results:
        print(f"{name}: filled in {filled:.1f} s; a rectangle held {found:.1f} stickers on average; plan: {plan}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
