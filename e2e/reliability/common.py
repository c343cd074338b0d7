"""Shared helpers for the reliability scripts: paths, starting the server, a small HTTP client, RSS.

Standard library only (see requirements.txt).
"""
import http.client
import json
import os
import re
import signal
import subprocess
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def corpus_path(name="print.jsonl"):
    """An ink file of the repository's fixtures (Tests/Fixtures/ink), or any JSON-lines ink file
    named by path."""
    path = name if os.path.sep in name else os.path.join(ROOT, "Tests", "Fixtures", "ink", name)
    if not os.path.exists(path):
        raise SystemExit(f"ink file {path} not found")
    return path


def load_corpus(name="print.jsonl", limit=None):
    samples = []
    with open(corpus_path(name)) as f:
        for line in f:
            if line.strip():
                samples.append(json.loads(line))
            if limit and len(samples) >= limit:
                break
    return samples


def binary(build="release"):
    """The executable to test: $INKSTICKER_BIN when set (the test suite passes its debug build), else
    .build/<build>/inksticker."""
    path = os.environ.get("INKSTICKER_BIN") or os.path.join(ROOT, ".build", build, "inksticker")
    if not os.path.exists(path):
        raise SystemExit(f"{path} not found; run: swift build -c {build} --product inksticker")
    return path


def psql(conninfo, sql):
    """The output of `sql` run by psql (Debian's postgresql-client): unaligned, tuples only, `|`
    between columns, a row per line."""
    return subprocess.run(["psql", conninfo, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-c", sql],
                          check=True, capture_output=True, text=True).stdout


def new_schema(conninfo, prefix="t_"):
    """A connection string for a fresh, empty schema of the PostgreSQL at `conninfo`: a database
    of its own for a test or a benchmark, in a cluster the suite started."""
    schema = prefix + os.urandom(6).hex()
    psql(conninfo, f"CREATE SCHEMA {schema}")
    return f"{conninfo} options='-c search_path={schema}'"


def test_database(sqlite_path):
    """The database a test server uses: `sqlite_path`, or with $INKSTICKER_TEST_POSTGRES (a
    connection string of a cluster the suite started) a fresh schema in that PostgreSQL."""
    postgres = os.environ.get("INKSTICKER_TEST_POSTGRES")
    return new_schema(postgres) if postgres else sqlite_path


class Server:
    """The inksticker executable on a free port, its log in `log_path`. `db` is a SQLite path
    (replaced by a PostgreSQL schema under $INKSTICKER_TEST_POSTGRES, see test_database) or any
    --db value."""

    def __init__(self, db, args=(), log_path=None, build="release"):
        self.log_path = log_path or (db + ".log" if os.path.sep in db and "=" not in db else None)
        if "=" not in db and "://" not in db:
            db = test_database(db)
        self.db = db
        self.args = list(args)
        if self.log_path is None:
            raise ValueError("log_path is required for a PostgreSQL database")
        self.build = build
        self.proc = None
        self.port = None

    def start(self, timeout=30):
        env = dict(os.environ, OMP_THREAD_LIMIT="1")
        self.log = open(self.log_path, "ab")
        offset = self.log.tell()
        self.proc = subprocess.Popen([binary(self.build), "serve", "--port", "0", "--db", self.db] + self.args,
                                     cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}; see {self.log_path}")
            with open(self.log_path, "rb") as f:
                f.seek(offset)
                for line in f:
                    if b'"msg":"listening"' in line:
                        self.port = int(json.loads(line)["port"])
                        return self
            time.sleep(0.05)
        raise RuntimeError(f"server did not log its port within {timeout} s; see {self.log_path}")

    @property
    def pid(self):
        return self.proc.pid

    def kill(self):
        """SIGKILL: no shutdown code runs, as in a crash or the OOM killer."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self, timeout=20):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.proc:
            self.log.close()
        return self.proc.returncode if self.proc else None

    def rss_kb(self):
        return rss_kb(self.proc.pid)


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Client:
    """One keep-alive connection; `call` returns (status, headers, parsed JSON or raw bytes)."""

    def __init__(self, port, timeout=30):
        self.port = port
        self.timeout = timeout
        self.conn = None

    def call(self, method, path, body=None, token=None, headers=None):
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        h = {}
        data = None
        if body is not None:
            data = body if isinstance(body, (bytes, bytearray)) else json.dumps(body).encode()
            h["Content-Type"] = "application/json"
        if token:
            h["Authorization"] = "Bearer " + token
        h.update(headers or {})
        try:
            self.conn.request(method, path, body=data, headers=h)
            response = self.conn.getresponse()
            raw = response.read()
        except Exception:
            self.close()
            raise
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        ctype = response.getheader("Content-Type", "")
        value = json.loads(raw) if raw and "json" in ctype else raw
        return response.status, dict((k.lower(), v) for k, v in response.getheaders()), value

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def report(failures):
    """Prints each failure and the verdict; the exit code (1 on any failure)."""
    for f in failures:
        print("FAIL", f)
    print("PASS" if not failures else "FAILED")
    return 1 if failures else 0


def read_until_close(sock):
    """Everything the peer sends until it closes."""
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(p / 100 * (len(ordered) - 1)))))
    return ordered[index]


def ink_body(sample, center=None, target="new"):
    body = {"strokes": sample["strokes"], "target": target}
    if center:
        body["center"] = {"x": center[0], "y": center[1]}
    return body


def metrics(port):
    """The Prometheus text of /metrics as {name{labels}: value}."""
    status, _, raw = Client(port).call("GET", "/metrics")
    out = {}
    for line in raw.decode().splitlines():
        m = re.match(r"^([a-zA-Z_:][^ ]*) ([0-9.eE+-]+)$", line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


class AsyncConnection:
    """A minimal keep-alive HTTP/1.1 client for asyncio (Content-Length bodies only), cheap enough to drive load."""

    def __init__(self, port):
        self.port = port
        self.reader = self.writer = None

    async def request(self, method, path, body=b"", token=None, content_type="application/json"):
        import asyncio
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        if body or method in ("POST", "PATCH", "PUT"):
            head += f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
        try:
            self.writer.write(head.encode() + b"\r\n" + body)
            raw = await self.reader.readuntil(b"\r\n\r\n")
            lines = raw.decode("latin-1").split("\r\n")
            status = int(lines[0].split(" ", 2)[1])
            headers = {}
            for line in lines[1:]:
                if ":" in line:
                    name, value = line.split(":", 1)
                    headers[name.strip().lower()] = value.strip()
            length = int(headers.get("content-length", "0"))
            data = await self.reader.readexactly(length) if length and method != "HEAD" else b""
        except Exception:
            self.close()
            raise
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, headers, data

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None
