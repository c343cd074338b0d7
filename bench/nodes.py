#!/usr/bin/env python3
"""Scale-out benchmark: nginx in front of 1 and 3 nodes on one PostgreSQL, and 1 node on SQLite, in one run.

For each setup, nginx (one worker, `upstream` with keep-alive) balances over the release nodes, and wrk
drives three workloads through it, one after the other:

  board reads   GET of a board's 100 stickers (a different board per request, of 20)
  key input     POST .../input with one keystroke, on 40 fields of 20 boards (a different one each time)
  recognitions  POST of a handwritten word as a new sticker (one OCR worker per node, two connections each)

It prints successful (2xx) requests/s and p50/p99 latency per workload and setup, and the CPU time spent
per successful request by
everything involved (nodes, PostgreSQL, nginx; read from /proc before and after each run), which is what
predicts throughput on a machine with more cores: requests/s ≈ cores / CPU-seconds per request, until the
database or lock contention on one board binds first.

Usage: bench/nodes.py --postgres CONN [--seconds 10] [--connections 16]   (bench/nodes.sh runs it)
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e", "reliability"))
from common import Client, Server, load_corpus, new_schema  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
PROCESSES = ("inksticker", "postgres", "nginx")


def cpu_seconds():
    """User + system CPU of every process of the setup (by command name), in seconds."""
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        if name in PROCESSES:
            fields = stat[stat.rindex(")") + 2:].split()
            total += int(fields[11]) + int(fields[12])
    return total / TICKS


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_nginx(directory, ports):
    port = free_port()
    servers = "".join(f"    server 127.0.0.1:{p};\n" for p in ports)
    conf = os.path.join(directory, "nginx.conf")
    with open(conf, "w") as f:
        f.write(f"""worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/nginx-error.log;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  upstream inksticker {{
{servers}    keepalive 64;
  }}
  server {{
    listen 127.0.0.1:{port};
    client_max_body_size 10m;
    location / {{
      proxy_pass http://inksticker;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
    }}
  }}
}}
""")
    process = subprocess.Popen(["nginx", "-c", conf, "-g", "daemon off;"], stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    return process, port


def lua_script(path, requests):
    """A wrk script sending `requests` (method, path, token, body) round-robin."""
    # Formatted in init(): wrk sets the Host header only once the script is loaded.
    lines = ["local requests = {}", "init = function(args)"]
    for method, target, token, body in requests:
        headers = f'{{["Authorization"] = "Bearer {token}", ["Content-Type"] = "application/json"}}'
        lines.append(f"  table.insert(requests, wrk.format({json.dumps(method)}, {json.dumps(target)}, {headers},"
                     f" {json.dumps(body) if body else 'nil'}))")
    lines += ["end", "local i = 0", "request = function()", "  i = i + 1",
              "  return requests[(i % #requests) + 1]", "end"]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def run_wrk(url, script, seconds, connections):
    out = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", script, url],
                         capture_output=True, text=True).stdout

    def ms(value):
        number, unit = re.match(r"([\d.]+)(us|ms|s|m)$", value).groups()
        return float(number) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit]
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"requests": requests, "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "p50": ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1)),
            "p99": ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1)),
            "errors": int(errors.group(1)) if errors else 0}


def prepare(port, samples):
    """20 boards with 100 stickers each... written through the API would take minutes of OCR; 5 stickers
    per board are recognised for real, and the board reads list those."""
    boards, fields = [], []
    client = Client(port)
    for b in range(20):
        _, _, board = client.call("POST", "/v1/boards", {"title": f"bench {b}"})
        for i in range(2):
            status, _, sticker = client.call("POST", f"/v1/boards/{board['id']}/stickers",
                                             {"strokes": samples[(b * 2 + i) % len(samples)]["strokes"], "target": "new",
                                              "center": {"x": 300 * i, "y": 100}}, token=board["token"])
            assert status == 201, (status, sticker)
            fields.append((board["id"], board["token"], sticker["id"]))
        boards.append((board["id"], board["token"]))
    return boards, fields


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", required=True)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    args = parser.parse_args()
    samples = load_corpus("hand-words.jsonl", limit=40)
    setups = [("SQLite, 1 node", None, 1), ("PostgreSQL, 1 node", "pg", 1), ("PostgreSQL, 3 nodes", "pg", 3)]
    results = []
    with tempfile.TemporaryDirectory() as directory:
        for name, store, count in setups:
            if store:
                db = new_schema(args.postgres, "nodes_")
            else:
                db = os.path.join(directory, f"bench-{len(results)}.sqlite")
            nodes = [Server(db, ["--rate-ink-per-address", "0", "--rate-ink-per-token", "0", "--ocr-workers", "1"],
                            log_path=os.path.join(directory, f"{len(results)}-node{i}.log")) for i in range(count)]
            for node in nodes:
                node.start(timeout=60)
            nginx, port = start_nginx(directory, [n.port for n in nodes])
            try:
                boards, fields = prepare(port, samples)
                scripts = {
                    "board reads": [("GET", f"/v1/boards/{b}/stickers?limit=100", t, None) for b, t in boards],
                    "key input": [("POST", f"/v1/boards/{b}/stickers/{s}/input", t,
                                   json.dumps({"ops": [{"insertText": "a"}, {"deleteBackward": 1}]})) for b, t, s in fields],
                    "recognitions": [("POST", f"/v1/boards/{b}/stickers", t,
                                      json.dumps({"strokes": samples[i % len(samples)]["strokes"], "target": "new",
                                                  "center": {"x": 50 * i, "y": 900}}))
                                     for i, (b, t) in enumerate(boards)],
                }
                for workload, requests in scripts.items():
                    script = os.path.join(directory, f"{workload.replace(' ', '-')}.lua")
                    lua_script(script, requests)
                    # Recognitions: two connections per OCR worker keep every worker busy without
                    # filling the queue (what is over it would be a fast 503, not a recognition).
                    connections = 2 * count if workload == "recognitions" else args.connections
                    run_wrk(f"http://127.0.0.1:{port}", script, 2, connections)  # warm-up
                    before = cpu_seconds()
                    measured = run_wrk(f"http://127.0.0.1:{port}", script, args.seconds, connections)
                    ok = measured["requests"] - measured["errors"]
                    measured["rps"] = ok / args.seconds
                    measured["cpu_ms"] = (cpu_seconds() - before) * 1000 / max(1, ok)
                    results.append((name, workload, measured))
                    print(f"{name:<20} {workload:<13} {measured['rps']:8.0f}/s  p50 {measured['p50']:7.2f} ms"
                          f"  p99 {measured['p99']:7.2f} ms  CPU {measured['cpu_ms']:6.2f} ms/request"
                          f"  errors {measured['errors']}", flush=True)
            finally:
                nginx.terminate()
                nginx.wait()
                for node in nodes:
                    node.stop()
    print(f"\n{os.cpu_count()} cores; wrk -t1 -c{args.connections} -d{args.seconds}s through nginx (upstream keep-alive);"
          " CPU = nodes + PostgreSQL + nginx, per request")
    print(f"{'setup':<20} {'workload':<13} {'2xx/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'CPU ms/2xx':>11} {'non-2xx':>8}")
    for name, workload, m in sorted(results, key=lambda r: (r[1], r[0])):
        print(f"{name:<20} {workload:<13} {m['rps']:8.0f} {m['p50']:8.2f} {m['p99']:8.2f} {m['cpu_ms']:11.2f} {m['errors']:8d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
