#!/usr/bin/env python3
"""Several InkSticker nodes on one PostgreSQL: the guarantees a load balancer in front of them needs.

Starts three nodes at once on a fresh schema of the PostgreSQL cluster named by --postgres (the test
suite starts a throw-away one, scripts/postgres.sh), then checks, each against the database itself:

  migrations      the nodes started together applied each migration exactly once;
  auto target     the same ink written at the same place through all nodes at once makes one field
                  that every other writing went into (version = writings, one event each);
  key input       concurrent key input through all nodes loses no keystroke; a stale If-Match is 412;
  events          a client of node B's event stream sees every event written through A and C, in
                  id order, with no gap and no duplicate; resuming on C with Last-Event-ID gives the rest;
  idempotency     an Idempotency-Key retried on another node (and sent to two nodes at once) creates
                  one sticker and replays the stored answer;
  etag            a listing's ETag changes on node A once node B's write reached it;
  restart         PostgreSQL stopped: readiness fails and writes get 503 with Retry-After; started
                  again: every node serves again by itself, nothing acknowledged is lost;
  sigkill         a node killed with SIGKILL under a write load loses no acknowledged write.

Standard library only; psql (Debian's postgresql-client) reads the database. PG_DIR names the cluster's
directory for the restart check (scripts/postgres.sh stop/start); without it that check is skipped.
"""
import argparse
import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reliability"))
from common import ROOT, Client, Server, load_corpus, new_schema, psql, report  # noqa: E402


def query_rows(conninfo, sql):
    """Rows of `sql` as lists of strings."""
    return [line.split("|") for line in psql(conninfo, sql).splitlines() if line]


class EventReader(threading.Thread):
    """Reads a board's Server-Sent Events from one node into `ids` until stopped."""

    def __init__(self, port, board, token, last_event_id=None):
        super().__init__(daemon=True)
        self.port, self.board, self.token, self.last = port, board, token, last_event_id
        self.ids, self.types, self.error = [], [], None
        self.ready = threading.Event()

    def run(self):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            headers = {"Authorization": "Bearer " + self.token, "Accept": "text/event-stream"}
            if self.last is not None:
                headers["Last-Event-ID"] = str(self.last)
            conn.request("GET", f"/v1/boards/{self.board}/events", headers=headers)
            response = conn.getresponse()
            if response.status != 200:
                self.error = f"events answered {response.status}"
                return
            self.ready.set()
            event_id = None
            while True:
                line = response.fp.readline()
                if not line:
                    return
                line = line.decode().rstrip("\n")
                if line.startswith("id: "):
                    event_id = int(line[4:])
                elif line.startswith("event: ") and event_id is not None:
                    self.ids.append(event_id)
                    self.types.append(line[7:])
                    event_id = None
        except Exception as error:  # the socket closes when the test ends
            if not self.error:
                self.error = repr(error)

    def wait_for(self, count, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline and len(self.ids) < count:
            time.sleep(0.05)
        return len(self.ids) >= count


class Nodes:
    def __init__(self, directory, db, count, args):
        self.servers = [Server(db, args, log_path=os.path.join(directory, f"node{i}.log")) for i in range(count)]

    def start(self):
        with ThreadPoolExecutor(len(self.servers)) as pool:
            list(pool.map(lambda s: s.start(timeout=60), self.servers))
        return self

    def ports(self):
        return [s.port for s in self.servers]

    def stop(self):
        for s in self.servers:
            s.stop()


def new_board(port):
    status, _, value = Client(port).call("POST", "/v1/boards", {"title": "nodes"})
    assert status == 201, (status, value)
    return value["id"], value["token"]


def check_migrations(conninfo, nodes, failures):
    rows = query_rows(conninfo, "SELECT version FROM schema_migrations ORDER BY version")
    versions = [int(r[0]) for r in rows]
    applied = []
    for server in nodes.servers:
        with open(server.log_path) as f:
            for line in f:
                if '"applied migrations"' in line:
                    applied.append(json.loads(line)["versions"])
    if versions != list(range(1, len(versions) + 1)) or len(applied) != 1:
        failures.append(f"migrations: recorded {versions}, applied by {len(applied)} nodes: {applied}")
    else:
        print(f"ok    migrations: {len(versions)} applied once, by one of {len(nodes.servers)} nodes started together")


def check_auto_target(conninfo, ports, sample, failures):
    board, token = new_board(ports[0])
    body = {"strokes": sample["strokes"], "target": "auto"}
    writers = 9

    def write(i):
        return Client(ports[i % len(ports)]).call("POST", f"/v1/boards/{board}/stickers", body, token=token)

    with ThreadPoolExecutor(writers) as pool:
        answers = list(pool.map(write, range(writers)))
    statuses = sorted(a[0] for a in answers)
    ok = [a for a in answers if a[0] in (200, 201)]
    rows = query_rows(conninfo, f"SELECT id, version FROM stickers WHERE board_id = '{board}'")
    events = query_rows(conninfo, f"SELECT count(*) FROM events WHERE board_id = '{board}'")[0][0]
    inks = query_rows(conninfo, f"SELECT count(*) FROM inks WHERE board_id = '{board}'")[0][0]
    if len(rows) != 1 or int(rows[0][1]) != len(ok) or int(events) != len(ok) or int(inks) != len(ok) \
            or statuses.count(201) != 1:
        failures.append(f"auto target: answers {statuses}, stickers {rows}, events {events}, inks {inks}")
    else:
        print(f"ok    auto target: {writers} writings at one place through {len(ports)} nodes at once: one field,"
              f" version {rows[0][1]}, {events} events, answers {statuses}")


def check_events_and_key_input(conninfo, ports, sample, failures):
    board, token = new_board(ports[0])
    status, _, sticker = Client(ports[0]).call("POST", f"/v1/boards/{board}/stickers",
                                               {"strokes": sample["strokes"], "target": "new"}, token=token)
    assert status == 201, (status, sticker)
    reader = EventReader(ports[1], board, token, last_event_id=0)
    reader.start()
    reader.ready.wait(10)
    start_text = sticker["text"]
    per_node, writers = 15, [ports[0], ports[2]]

    def type_keys(port):
        client, answers = Client(port), []
        for _ in range(per_node):
            answers.append(client.call("POST", f"/v1/boards/{board}/stickers/{sticker['id']}/input",
                                       {"ops": [{"insertText": "k"}]}, token=token)[0])
        return answers

    with ThreadPoolExecutor(len(writers) * 2) as pool:
        results = list(pool.map(type_keys, writers * 2))
    statuses = [s for r in results for s in r]
    typed = statuses.count(200)
    status, headers, final = Client(ports[1]).call("GET", f"/v1/boards/{board}/stickers/{sticker['id']}", token=token)
    expected_text = start_text + "k" * typed
    if final["text"] != expected_text or final["version"] != 1 + typed:
        failures.append(f"key input: {typed} of {len(statuses)} accepted ({sorted(set(statuses))}), text"
                        f" {final['text']!r} v{final['version']}, expected {expected_text!r} v{1 + typed}")
    else:
        print(f"ok    key input: {typed} keystrokes through 2 nodes at once, none lost (version {final['version']});"
              f" answers {dict((s, statuses.count(s)) for s in sorted(set(statuses)))}")
    stale = Client(ports[2]).call("PATCH", f"/v1/boards/{board}/stickers/{sticker['id']}", {"text": "stale"},
                                  token=token, headers={"If-Match": '"v1"'})[0]
    if stale != 412:
        failures.append(f"If-Match: a stale version through another node answered {stale}, not 412")
    else:
        print("ok    If-Match: a stale version through another node is 412")

    stored = [int(r[0]) for r in query_rows(conninfo, f"SELECT id FROM events WHERE board_id = '{board}' ORDER BY id")]
    reader.wait_for(len(stored))
    if reader.ids != stored:
        failures.append(f"events: node B saw {len(reader.ids)} events {reader.ids[:5]}…, the table has"
                        f" {len(stored)} {stored[:5]}… ({reader.error})")
    else:
        print(f"ok    events: node B's stream saw all {len(stored)} events written through A and C, in order,"
              " no gap, no duplicate")
    middle = stored[len(stored) // 2]
    resumed = EventReader(ports[2], board, token, last_event_id=middle)
    resumed.start()
    rest = [i for i in stored if i > middle]
    resumed.wait_for(len(rest))
    time.sleep(0.3)
    if resumed.ids != rest:
        failures.append(f"events: resuming on C after {middle} gave {resumed.ids[:5]}…, expected {rest[:5]}…")
    else:
        print(f"ok    events: resuming on node C with Last-Event-ID {middle} gave exactly the {len(rest)} later ones")


def check_idempotency(conninfo, ports, sample, failures):
    board, token = new_board(ports[0])
    body = {"strokes": sample["strokes"], "target": "new"}
    path = f"/v1/boards/{board}/stickers"
    first = Client(ports[0]).call("POST", path, body, token=token, headers={"Idempotency-Key": "retry-1"})
    again = Client(ports[1]).call("POST", path, body, token=token, headers={"Idempotency-Key": "retry-1"})
    with ThreadPoolExecutor(2) as pool:
        racing = list(pool.map(lambda p: Client(p).call("POST", path, body, token=token,
                                                        headers={"Idempotency-Key": "race-1"}), ports[1:3]))
    count = int(query_rows(conninfo, f"SELECT count(*) FROM stickers WHERE board_id = '{board}'")[0][0])
    problems = []
    if first[0] != 201 or again[0] != 201 or again[1].get("idempotent-replayed") != "true" or again[2] != first[2]:
        problems.append(f"retry on another node: {first[0]} then {again[0]} replayed={again[1].get('idempotent-replayed')}")
    ids = {r[2]["id"] for r in racing if r[0] == 201}
    if [r[0] for r in racing] != [201, 201] or len(ids) != 1:
        problems.append(f"same key on two nodes at once: {[r[0] for r in racing]}, stickers {ids}")
    if count != 2:
        problems.append(f"{count} stickers stored, expected 2")
    if problems:
        failures.append("idempotency: " + "; ".join(problems))
    else:
        print("ok    idempotency: a key retried on another node replays; sent to two nodes at once, one sticker")


def check_etag(ports, sample, failures):
    board, token = new_board(ports[0])
    path = f"/v1/boards/{board}/stickers"
    _, headers, _ = Client(ports[0]).call("GET", path, token=token)
    etag = headers.get("etag")
    # Node A serves the listing from memory until B's event reaches it (NOTIFY); its stream shows when.
    reader = EventReader(ports[0], board, token)
    reader.start()
    reader.ready.wait(10)
    Client(ports[1]).call("POST", path, {"strokes": sample["strokes"], "target": "new"}, token=token)
    arrived = reader.wait_for(1, timeout=10)
    status, after, value = Client(ports[0]).call("GET", path, token=token, headers={"If-None-Match": etag})
    if not arrived or status != 200 or after.get("etag") == etag or len(value["stickers"]) != 1:
        failures.append(f"etag: after a write on B reached node A (event seen: {arrived}), node A answered {status}"
                        f" with ETag {after.get('etag')} (was {etag})")
    else:
        print(f"ok    etag: once node B's write reached node A, A's listing ETag moved from {etag} to {after.get('etag')}")


def check_restart(conninfo, ports, pg_dir, failures):
    board, token = new_board(ports[0])
    subprocess.run([os.path.join(ROOT, "scripts", "postgres.sh"), "stop", pg_dir], check=True)
    try:
        time.sleep(0.5)
        ready = [Client(p, timeout=20).call("GET", "/readyz")[0] for p in ports]
        write = Client(ports[1], timeout=20).call("POST", "/v1/boards", {"title": "while down"})
        if any(s != 503 for s in ready) or write[0] != 503 or "retry-after" not in write[1]:
            failures.append(f"restart: with PostgreSQL stopped readiness answered {ready}, a write {write[0]}"
                            f" (Retry-After {write[1].get('retry-after')})")
        else:
            print(f"ok    restart: PostgreSQL stopped: readiness {ready}, a write 503 with Retry-After {write[1]['retry-after']}")
    finally:
        subprocess.run([os.path.join(ROOT, "scripts", "postgres.sh"), "start", pg_dir], check=True,
                       stdout=subprocess.DEVNULL)
    # The server is up again (pg_ctl waited for it): the nodes' pooled connections to the old
    # server are dead, and none of them may cost a request a 503.
    first = [Client(p).call("POST", "/v1/boards", {"title": "after"})[0] for p in ports for _ in range(3)]
    if any(s != 201 for s in first):
        failures.append(f"restart: the first writes after PostgreSQL came back answered {first}")
    deadline, ready = time.time() + 30, []
    while time.time() < deadline:
        ready = [Client(p).call("GET", "/readyz")[0] for p in ports]
        if all(s == 200 for s in ready):
            break
        time.sleep(0.2)
    status, _, value = Client(ports[2]).call("GET", f"/v1/boards/{board}", token=token)
    if any(s != 200 for s in ready) or status != 200:
        failures.append(f"restart: after PostgreSQL came back readiness {ready}, the board {status}")
    else:
        print(f"ok    restart: PostgreSQL started again: the first writes on every node {sorted(set(first))}, every node"
              " ready by itself, the board written before is there")


def check_sigkill(conninfo, nodes, failures, seconds=3.0):
    """Writers on node 0 record each acknowledged board and key input; node 0 dies mid-way."""
    ports = nodes.ports()
    acked, lock, stop = [], threading.Lock(), threading.Event()

    def writer(seed):
        client, rng = Client(ports[0], timeout=10), random.Random(seed)
        while not stop.is_set():
            try:
                status, _, board = client.call("POST", "/v1/boards", {"title": f"kill-{rng.random():.6f}"})
                if status == 201:
                    with lock:
                        acked.append(board["id"])
            except Exception:
                client.close()
                if stop.is_set():
                    return
                time.sleep(0.01)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    time.sleep(seconds)
    nodes.servers[0].kill()
    stop.set()
    for t in threads:
        t.join()
    stored = {r[0] for r in query_rows(conninfo, "SELECT id FROM boards")}
    lost = [b for b in acked if b not in stored]
    if lost or not acked:
        failures.append(f"sigkill: {len(lost)} of {len(acked)} acknowledged boards lost")
    else:
        print(f"ok    sigkill: node killed under a write load, all {len(acked)} acknowledged writes are stored")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", required=True, help="connection string of a cluster this suite may use")
    parser.add_argument("--nodes", type=int, default=3)
    args = parser.parse_args()
    sample = load_corpus("hand-words.jsonl", limit=1)[0]
    conninfo = new_schema(args.postgres, "nodes_")
    failures = []
    with tempfile.TemporaryDirectory() as directory:
        nodes = Nodes(directory, conninfo, args.nodes,
                      ["--ocr-workers", "1", "--rate-ink-per-address", "0", "--rate-ink-per-token", "0", "--rate-boards-per-address", "0",
                       "--db-connect-timeout", "2"]).start()
        try:
            ports = nodes.ports()
            check_migrations(conninfo, nodes, failures)
            check_auto_target(conninfo, ports, sample, failures)
            check_events_and_key_input(conninfo, ports, sample, failures)
            check_idempotency(conninfo, ports, sample, failures)
            check_etag(ports, sample, failures)
            if os.environ.get("PG_DIR"):
                check_restart(conninfo, ports, os.environ["PG_DIR"], failures)
            else:
                print("skip  restart: PG_DIR not set")
            check_sigkill(conninfo, nodes, failures)
        finally:
            nodes.stop()
            if failures:
                for server in nodes.servers:
                    print(f"--- {server.log_path}")
                    with open(server.log_path) as f:
                        print("".join(f.readlines()[-15:]))
    return report(failures)


if __name__ == "__main__":
    sys.exit(main())
