#!/usr/bin/env python3
"""Crash safety: SIGKILL the server under a write load, restart it, and check that nothing acknowledged is lost.

Each round starts the release build (or $INKSTICKER_BIN) on the same database, runs writer threads (boards,
ink stickers from the corpus, PATCH, key input, commit, end-editing), kills the server with SIGKILL at a random
moment, and checks:

* every board, sticker and edit whose 2xx response arrived is in the database file, intact: the version and
  text as acknowledged, or exactly one step further when the request in flight at the kill was applied;
* on SQLite, PRAGMA integrity_check is "ok" (after the kill before restart, with the server running again,
  at the end) and PRAGMA foreign_key_check finds nothing (PostgreSQL enforces foreign keys itself);
* no half-applied multi-step change: an end-editing request turned all of its board's fields into labels
  or none; the ops of one key-input request are all in the text or none are; every sticker's current
  version has its event and its inks are numbered 1..n;
* after the restart the API serves every acknowledged sticker as stored.

With --postgres CONN the server runs on a fresh schema of that PostgreSQL cluster (the suite's own
throw-away one) instead of a SQLite file, and the database is read with psql.

Exits 1 on any violation. Usage: crash_safety.py [--rounds 5] [--threads 4] [--seed N] [--keep DIR] [--postgres CONN]
"""
import argparse
import http.client
import json
import os
import random
import re
import shutil
import sqlite3
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Client, Server, load_corpus, new_schema, psql  # noqa: E402

NETWORK_ERRORS = (ConnectionError, http.client.HTTPException, OSError)


class Sticker:
    def __init__(self, sid, board, version, text, state):
        self.id, self.board, self.version, self.text, self.state = sid, board, version, text, state
        self.inks = 1
        self.pending = None  # (kind, expected text or None) of the request in flight at the kill


class Board:
    def __init__(self, bid, token):
        self.id, self.token = bid, token
        self.stickers = []
        self.ended = False
        self.pending_end = False


class Model:
    """What the clients were told: only 2xx responses that fully arrived change it."""

    def __init__(self):
        self.lock = threading.Lock()
        self.boards = {}
        self.stickers = {}
        self.violations = []
        self.acks = 0
        self.in_flight_outcomes = {}  # (kind, "applied" | "not applied") -> count

    def violation(self, text):
        with self.lock:
            self.violations.append(text)


class Writer(threading.Thread):
    def __init__(self, wid, port, model, samples, seed, editor=False):
        super().__init__(daemon=True)
        # An editor writes a few stickers per board and then mostly edits them, so that kills also land
        # on the short multi-step writes (key input, end-editing) and not almost always on an ink post.
        self.editor = editor
        self.edits = 0
        self.wid, self.model, self.samples = wid, model, samples
        self.client = Client(port, timeout=20)
        self.rng = random.Random(seed)
        self.board = None
        self.counter = 0
        self.stop = False
        self.statuses = {}
        self.in_flight = None  # the request sent and not answered yet

    def run(self):
        try:
            while not self.stop:
                self.step()
        except NETWORK_ERRORS:
            pass  # the server was killed; the request in flight keeps its `pending` mark

    def call(self, method, path, body=None):
        self.in_flight = method + " " + re.sub(r"/[bs]_[A-Za-z0-9_-]+", "/{id}", path)
        status, headers, value = self.client.call(method, path, body, token=self.board.token if self.board else None)
        self.in_flight = None
        self.statuses[status] = self.statuses.get(status, 0) + 1
        return status, value

    def step(self):
        board = self.board
        if board is None or board.ended or len(board.stickers) >= 6:
            self.edits = 0
            return self.new_board()
        fields = [self.model.stickers[s] for s in board.stickers if self.model.stickers[s].state == "field"]
        r = self.rng.random()
        if self.editor:
            self.edits += 1
            if len(board.stickers) < 3:
                self.post_ink(board, None)
            elif self.edits > 150 or not fields:
                self.end_editing(board) if len(fields) >= 1 else self.new_board()
            elif r < 0.5:
                self.key_input(self.rng.choice(fields))
            elif r < 0.85:
                self.patch(self.rng.choice(fields))
            else:
                self.commit(self.rng.choice(fields))
            return
        if r < 0.35 or not fields:
            self.post_ink(board, None)
        elif r < 0.45:
            self.post_ink(board, self.rng.choice(fields))
        elif r < 0.62:
            self.patch(self.rng.choice(fields))
        elif r < 0.82:
            self.key_input(self.rng.choice(fields))
        elif r < 0.90:
            self.commit(self.rng.choice(fields))
        elif len(fields) >= 2:
            self.end_editing(board)

    def new_board(self):
        self.board = None
        status, value = self.call("POST", "/v1/boards", {"title": f"crash {self.wid}"})
        if status == 201:
            self.board = Board(value["id"], value["token"])
            with self.model.lock:
                self.model.boards[self.board.id] = self.board
                self.model.acks += 1

    def acked_update(self, sticker, value, kind):
        """An update's 2xx answer: the version must be exactly one more than the last acknowledged one."""
        if value["version"] != sticker.version + 1:
            self.model.violation(f"{kind} on {sticker.id}: answered version {value['version']}, "
                                 f"last acknowledged {sticker.version}")
        sticker.version, sticker.text, sticker.state = value["version"], value["text"], value["state"]
        sticker.pending = None
        with self.model.lock:
            self.model.acks += 1

    def post_ink(self, board, field):
        sample = self.rng.choice(self.samples)
        body = {"strokes": sample["strokes"]}
        if field is None:
            n = len(board.stickers)
            body.update(target="new", center={"x": 1000 + 2000 * n, "y": 1000})
        else:
            body["target"] = field.id
            field.pending = ("ink", field.text)
        status, value = self.call("POST", f"/v1/boards/{board.id}/stickers", body)
        if field is None and status == 201:
            sticker = Sticker(value["id"], board.id, value["version"], value["text"], value["state"])
            with self.model.lock:
                self.model.stickers[sticker.id] = sticker
                self.model.acks += 1
            board.stickers.append(sticker.id)
            if not sticker.text.strip():
                self.patch(sticker)  # an empty field would be deleted by commit; keep every sticker checkable
        elif field is not None and status == 200:
            self.acked_update(field, value, "ink")
            field.inks += 1
        elif field is not None:
            field.pending = None

    def patch(self, sticker):
        self.counter += 1
        text = f"p{self.wid}.{self.counter}"
        sticker.pending = ("patch", text)
        status, value = self.call("PATCH", f"/v1/boards/{sticker.board}/stickers/{sticker.id}", {"text": text})
        if status == 200:
            self.acked_update(sticker, value, "patch")
        else:
            sticker.pending = None

    def key_input(self, sticker):
        self.counter += 1
        marker = f"k{self.wid}.{self.counter}"
        ops = [{"insertText": " "}, {"insertText": marker}, {"insertText": "!"}, {"deleteBackward": 1}, {"insertText": ";"}]
        sticker.pending = ("input", sticker.text + " " + marker + ";")
        status, value = self.call("POST", f"/v1/boards/{sticker.board}/stickers/{sticker.id}/input", {"ops": ops})
        if status == 200:
            if value["text"] != sticker.pending[1]:
                self.model.violation(f"input on {sticker.id}: answered text {value['text']!r}, expected {sticker.pending[1]!r}")
            self.acked_update(sticker, value, "input")
        else:
            sticker.pending = None

    def commit(self, sticker):
        sticker.pending = ("commit", sticker.text)
        status, value = self.call("POST", f"/v1/boards/{sticker.board}/stickers/{sticker.id}/commit")
        if status == 200:
            self.acked_update(sticker, value, "commit")
        else:
            sticker.pending = None

    def end_editing(self, board):
        fields = [self.model.stickers[s] for s in board.stickers if self.model.stickers[s].state == "field"]
        board.pending_end = True
        for f in fields:
            f.pending = ("end", f.text)
        status, value = self.call("POST", f"/v1/boards/{board.id}/end-editing")
        if status == 200:
            if value.get("committed") != len(fields):
                self.model.violation(f"end-editing on {board.id}: committed {value}, expected {len(fields)} fields")
            for f in fields:
                f.version, f.state, f.pending = f.version + 1, "label", None
            board.ended, board.pending_end = True, False
            with self.model.lock:
                self.model.acks += 1
        else:
            board.pending_end = False
            for f in fields:
                f.pending = None


SNAPSHOT = [("boards", "SELECT id FROM boards"),
            ("stickers", "SELECT id, board_id, version, text, state, committed_at FROM stickers"),
            ("inks", "SELECT sticker_id, seq FROM inks"),
            ("events", "SELECT sticker_id, version FROM events WHERE sticker_id IS NOT NULL")]


def read_postgres(db):
    """The SNAPSHOT queries as one statement (one snapshot) through psql, as JSON."""
    parts = ", ".join(
        f"'{name}', (SELECT coalesce(json_agg(json_build_array({sql[len('SELECT '):sql.index(' FROM ')]})), '[]')"
        f" {sql[sql.index('FROM '):]})" for name, sql in SNAPSHOT)
    out = psql(db, f"SELECT json_build_object({parts})")
    return [], {name: [tuple(row) for row in rows] for name, rows in json.loads(out).items()}


def read_sqlite(db):
    problems = []
    con = sqlite3.connect(db, timeout=10)
    try:
        integrity = con.execute("PRAGMA integrity_check").fetchall()
        if integrity != [("ok",)]:
            problems.append(f"integrity_check {integrity}")
        fk = con.execute("PRAGMA foreign_key_check").fetchall()
        if fk:
            problems.append(f"foreign_key_check {fk[:5]}")
        con.execute("BEGIN")  # one snapshot for everything below
        tables = {name: con.execute(sql).fetchall() for name, sql in SNAPSHOT}
        con.execute("COMMIT")
    finally:
        con.close()
    return problems, tables


def check_file(db, model, phase, resolve=False):
    """Checks the database against the model; with `resolve`, adopts what the in-flight requests did."""
    found, tables = read_postgres(db) if "=" in db else read_sqlite(db)
    problems = [f"{phase}: {p}" for p in found]
    boards = {r[0] for r in tables["boards"]}
    rows = {r[0]: tuple(r[1:]) for r in tables["stickers"]}
    inks = {}
    for sid, seq in tables["inks"]:
        inks.setdefault(sid, []).append(seq)
    events = set(tables["events"])

    for bid in model.boards:
        if bid not in boards:
            problems.append(f"{phase}: acknowledged board {bid} is missing")
    for sid, (bid, version, text, state, committed_at) in rows.items():
        if (sid, version) not in events:
            problems.append(f"{phase}: sticker {sid} version {version} has no event (change without its event)")
        if sorted(inks.get(sid, [])) != list(range(1, len(inks.get(sid, [])) + 1)) or not inks.get(sid):
            problems.append(f"{phase}: sticker {sid} has inks {sorted(inks.get(sid, []))}")
    for bid, board in model.boards.items():
        if board.pending_end:
            # The fields the end-editing in flight covered: all labels now, or all still fields.
            covered = [s for s in board.stickers if model.stickers[s].pending and model.stickers[s].pending[0] == "end"]
            states = {rows[s][3] for s in covered if s in rows}
            if len(states) > 1:
                problems.append(f"{phase}: end-editing on board {bid} half applied: {len(covered)} fields are now {states}")
            if resolve:
                board.pending_end, board.ended = False, True
    for sid, s in model.stickers.items():
        row = rows.get(sid)
        if row is None:
            problems.append(f"{phase}: acknowledged sticker {sid} (version {s.version}) is missing")
            continue
        _, version, text, state, _ = row
        if version == s.version:
            if text != s.text or state != s.state:
                problems.append(f"{phase}: sticker {sid} v{version} is {state} {text!r}, acknowledged {s.state} {s.text!r}")
            applied = False
        elif version == s.version + 1 and s.pending:
            kind, expected = s.pending
            ok = {"patch": text == expected and state == "field",
                  "input": text == expected and state == "field",
                  "commit": text == expected and state == "label",
                  "end": text == expected and state == "label",
                  "ink": text.startswith(expected) and state == "field"
                  and len(inks.get(sid, [])) == s.inks + 1}[kind]
            if not ok:
                problems.append(f"{phase}: sticker {sid} v{version} is {state} {text!r}: not what the {kind} "
                                f"in flight would make of {s.state} {s.text!r} (expected {expected!r})")
            applied = True
        else:
            problems.append(f"{phase}: sticker {sid} is at version {version}, acknowledged {s.version}"
                            f"{' with ' + s.pending[0] + ' in flight' if s.pending else ''}")
            continue
        if not applied and len(inks.get(sid, [])) != s.inks:
            problems.append(f"{phase}: sticker {sid} has {len(inks.get(sid, []))} inks, acknowledged {s.inks}")
        if resolve and s.pending:
            key = (s.pending[0], "applied" if applied else "not applied")
            model.in_flight_outcomes[key] = model.in_flight_outcomes.get(key, 0) + 1
            if applied:
                s.version, s.text, s.state = version, text, state
                if s.pending[0] == "ink":
                    s.inks += 1
            s.pending = None
    return problems


def check_api(port, model):
    problems = []
    client = Client(port)
    for sid, s in model.stickers.items():
        token = model.boards[s.board].token
        status, _, value = client.call("GET", f"/v1/boards/{s.board}/stickers/{sid}", token=token)
        if status != 200 or value["version"] != s.version or value["text"] != s.text or value["state"] != s.state:
            problems.append(f"api: sticker {sid}: {status} {value if status != 200 else (value['version'], value['text'])},"
                            f" expected v{s.version} {s.text!r}")
    client.close()
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--editors", type=int, default=2, help="how many of the threads mostly edit")
    parser.add_argument("--min-run", type=float, default=1.0, help="earliest kill, seconds after the load starts")
    parser.add_argument("--max-run", type=float, default=4.0, help="latest kill")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--synchronous", default="normal", choices=["normal", "full"])
    parser.add_argument("--keep", help="directory for the database and logs (default: a temporary one, removed)")
    parser.add_argument("--postgres", help="run on a fresh schema of this PostgreSQL cluster instead of SQLite")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    directory = args.keep or tempfile.mkdtemp(prefix="inksticker-crash-")
    os.makedirs(directory, exist_ok=True)
    db = os.path.join(directory, "crash.sqlite")
    if args.postgres:
        db = new_schema(args.postgres, "crash_")
    samples = load_corpus("print.jsonl", limit=60)
    model = Model()
    server_args = ["--rate-ink-per-address", "0", "--rate-ink-per-token", "0", "--rate-boards-per-address", "0", "--synchronous", args.synchronous]
    started = time.time()
    print(f"seed {seed}, database {db}")
    problems = []
    for round_no in range(1, args.rounds + 1):
        server = Server(db, server_args, log_path=os.path.join(directory, "server.log")).start()
        writers = [Writer(i, server.port, model, samples, rng.randrange(1 << 30), editor=i < args.editors)
                   for i in range(args.threads)]
        acks_before = model.acks
        for w in writers:
            w.start()
        run_for = rng.uniform(args.min_run, args.max_run)
        time.sleep(run_for)
        server.kill()
        for w in writers:
            w.stop = True
            w.join(30)
        in_flight = sorted(w.in_flight for w in writers if w.in_flight)
        round_problems = check_file(db, model, f"round {round_no} after kill")
        server = Server(db, server_args, log_path=os.path.join(directory, "server.log")).start()
        round_problems += check_file(db, model, f"round {round_no} after restart", resolve=True)
        round_problems += check_api(server.port, model)
        if round_no < args.rounds:
            server.kill()
        else:
            server.stop()
        statuses = {}
        for w in writers:
            for k, v in w.statuses.items():
                statuses[k] = statuses.get(k, 0) + v
        print(f"round {round_no}: killed after {run_for:.2f} s, {model.acks - acks_before} acknowledged writes, "
              f"in flight at the kill: {in_flight}, statuses {dict(sorted(statuses.items()))}, "
              f"{len(model.stickers)} stickers on {len(model.boards)} boards so far, {len(round_problems)} problems")
        problems += round_problems
    problems += check_file(db, model, "final, server stopped")
    print("edits in flight at a kill, by outcome after restart: "
          + (", ".join(f"{k[0]} {k[1]}: {v}" for k, v in sorted(model.in_flight_outcomes.items())) or "none"))
    problems += model.violations
    elapsed = time.time() - started
    for p in problems:
        print("VIOLATION", p)
    print(f"{args.rounds} rounds in {elapsed:.1f} s: {len(problems)} violations")
    if not args.keep and not problems:
        shutil.rmtree(directory, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
