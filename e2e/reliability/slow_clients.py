#!/usr/bin/env python3
"""Slow clients: many connections that send their request head one byte per second must not stop a normal client.

Starts the release build with --header-timeout (default 5 s), measures GET /healthz (a fresh connection per
request) unloaded, then keeps --connections (default 500) slow connections open for --seconds, each sending
its head one byte per second and reconnecting when the server closes it, and measures /healthz again meanwhile.

Then a slow reader: one connection pipelines GET /healthz as fast as it can for --non-reader-seconds and never
reads a response. The server should stop reading from it once its responses back up (and drop it after the
write timeout), not buffer them without bound.

Checks: the loaded p50 is under --max-ratio (default 2) times the unloaded p50; every slow connection is closed
by the server with a 408 within the header timeout plus a margin; none completes a request; the non-reading
client grows the server's RSS by less than --max-rss-growth-mb (default 64) and /healthz p50 stays under
--max-ratio times unloaded meanwhile. Exits 1 otherwise. Standard library only.
"""
import argparse
import asyncio
import multiprocessing
import os
import socket
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Server, percentile, read_until_close, report  # noqa: E402

SLOW_HEAD = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: one-byte-per-second\r\nAccept: */*\r\n\r\n"


def healthz_latencies(port, count, pause=0.005):
    """GET /healthz on a fresh connection each time; seconds per request (connect to last byte)."""
    samples, failures = [], 0
    request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    for _ in range(count):
        started = time.perf_counter()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
                s.sendall(request)
                data = read_until_close(s)
        except OSError:
            failures += 1
            continue
        if data.startswith(b"HTTP/1.1 200"):
            samples.append(time.perf_counter() - started)
        else:
            failures += 1
        time.sleep(pause)
    return samples, failures


async def slow_connection(port, index, connections, stop_at, results):
    await asyncio.sleep(index / connections)  # spread the connects and the bytes over each second
    while time.monotonic() < stop_at:
        opened = time.monotonic()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError as e:
            results.append(("connect failed", 0.0, str(e)))
            await asyncio.sleep(1)
            continue
        received = b""
        closed = False
        sent = 0
        while not closed and time.monotonic() < stop_at + 10:
            if sent < len(SLOW_HEAD) and not received:
                try:
                    writer.write(SLOW_HEAD[sent:sent + 1])
                    await writer.drain()
                    sent += 1
                except OSError:
                    closed = True
                    break
            try:
                chunk = await asyncio.wait_for(reader.read(4096), timeout=1.0)
            except asyncio.TimeoutError:
                continue
            except OSError:
                closed = True
                break
            if not chunk:
                closed = True
            received += chunk
        writer.close()
        status = received[9:12].decode("latin-1") if received.startswith(b"HTTP/1.1 ") else ("none" if closed else "still open")
        results.append((status, time.monotonic() - opened, f"{sent} bytes sent"))
        if not closed:
            return


def slow_process(port, connections, seconds, queue):
    results = []
    stop_at = time.monotonic() + seconds

    async def main():
        await asyncio.gather(*(slow_connection(port, i, connections, stop_at, results) for i in range(connections)))
    asyncio.run(main())
    queue.put(results)


def non_reader(port, stop):
    """Pipelines requests without ever reading; returns the bytes it managed to send."""
    request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 1000
    sent = 0
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # keep the responses out of our kernel buffer
        s.connect(("127.0.0.1", port))
        s.settimeout(0.2)
        while not stop.is_set():
            try:
                sent += s.send(request)
            except socket.timeout:
                continue
            except OSError:
                break  # the server dropped us: fine
    return sent


def open_connections(pid):
    """Sockets the server process has open (established or not), from /proc."""
    try:
        return sum(1 for fd in os.listdir(f"/proc/{pid}/fd") if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"))
    except OSError:
        return -1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--connections", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=20, help="how long the slow connections are kept up")
    parser.add_argument("--header-timeout", type=float, default=5)
    parser.add_argument("--requests", type=int, default=400, help="/healthz requests per measurement")
    parser.add_argument("--max-ratio", type=float, default=2.0)
    parser.add_argument("--non-reader-seconds", type=float, default=5)
    parser.add_argument("--max-rss-growth-mb", type=float, default=64)
    parser.add_argument("--dir", help="directory for the database and server log (default: temporary)")
    args = parser.parse_args()
    directory = args.dir or tempfile.mkdtemp(prefix="inksticker-slow-")
    os.makedirs(directory, exist_ok=True)
    db = os.path.join(directory, "slow.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    server = Server(db, ["--header-timeout", str(args.header_timeout)], log_path=os.path.join(directory, "slow-server.log")).start()
    failures = []
    try:
        healthz_latencies(server.port, 50)  # warm-up
        unloaded, unloaded_failures = healthz_latencies(server.port, args.requests)
        context = multiprocessing.get_context("spawn")
        queue = context.Queue()
        slow = context.Process(target=slow_process, args=(server.port, args.connections, args.seconds, queue))
        slow.start()
        time.sleep(1.5)  # all slow connections open and dribbling
        sockets_during = open_connections(server.pid)
        loaded, loaded_failures = [], 0
        measure_until = time.monotonic() + args.seconds - 2.5
        while time.monotonic() < measure_until:
            batch, failed = healthz_latencies(server.port, 50)
            loaded += batch
            loaded_failures += failed
        results = queue.get(timeout=args.seconds + 60)
        slow.join(30)
        sockets_after = open_connections(server.pid)

        rss_before = server.rss_kb()
        stop = threading.Event()
        sent = [0]
        pipeliner = threading.Thread(target=lambda: sent.__setitem__(0, non_reader(server.port, stop)))
        peak = [rss_before]

        def sample_rss():  # its own thread: the /healthz requests below may block for seconds
            while not stop.is_set():
                peak[0] = max(peak[0], server.rss_kb())
                time.sleep(0.05)
        sampler = threading.Thread(target=sample_rss)
        pipeliner.start()
        sampler.start()
        during, during_failures = [], 0
        until = time.monotonic() + args.non_reader_seconds
        while time.monotonic() < until:
            batch, failed = healthz_latencies(server.port, 5, pause=0.05)
            during += batch
            during_failures += failed
        stop.set()
        pipeliner.join(30)
        sampler.join(5)
        rss_peak = peak[0]
        time.sleep(0.5)
        rss_after_close = server.rss_kb()
    finally:
        server.stop()

    p50u, p50l = percentile(unloaded, 50), percentile(loaded, 50)
    print(f"server: --header-timeout {args.header_timeout:g}; {args.connections} slow connections for {args.seconds:g} s, "
          f"one byte per second of a {len(SLOW_HEAD)}-byte head")
    print(f"GET /healthz unloaded:  {len(unloaded)} requests, p50 {p50u * 1e3:.3f} ms, p99 {percentile(unloaded, 99) * 1e3:.3f} ms, failures {unloaded_failures}")
    print(f"GET /healthz with slow: {len(loaded)} requests, p50 {p50l * 1e3:.3f} ms, p99 {percentile(loaded, 99) * 1e3:.3f} ms, failures {loaded_failures}")
    print(f"p50 ratio loaded/unloaded: {p50l / p50u:.2f} (limit {args.max_ratio:g})")
    print(f"server sockets while the slow clients ran: {sockets_during}; after: {sockets_after}")
    by_status = {}
    for status, _, _ in results:
        by_status[status] = by_status.get(status, 0) + 1
    closed_408 = [seconds for status, seconds, _ in results if status == "408"]
    print(f"slow connections: {len(results)} finished; by outcome {by_status}")
    if closed_408:
        print(f"closed with 408 after: min {min(closed_408):.2f} s, p50 {percentile(closed_408, 50):.2f} s, "
              f"p99 {percentile(closed_408, 99):.2f} s, max {max(closed_408):.2f} s")
    if p50l > args.max_ratio * p50u:
        failures.append(f"loaded p50 {p50l * 1e3:.3f} ms is over {args.max_ratio:g}x the unloaded {p50u * 1e3:.3f} ms")
    if loaded_failures or unloaded_failures:
        failures.append(f"/healthz failures: unloaded {unloaded_failures}, loaded {loaded_failures}")
    others = {k: v for k, v in by_status.items() if k != "408"}
    if others:
        failures.append(f"slow connections that did not end with a 408: {others}")
    late = [s for s in closed_408 if s > args.header_timeout + 2]
    if late:
        failures.append(f"{len(late)} slow connections were closed more than 2 s after the header timeout")
    if len(closed_408) < args.connections:
        failures.append(f"only {len(closed_408)} 408s for {args.connections} slow connections")
    growth_mb = (rss_peak - rss_before) / 1024
    p50n = percentile(during, 50)
    print(f"non-reading pipeliner for {args.non_reader_seconds:g} s: sent {sent[0] / 1e6:.1f} MB of requests; server RSS "
          f"{rss_before / 1024:.1f} MB before, peak {rss_peak / 1024:.1f} MB (+{growth_mb:.1f} MB), "
          f"{rss_after_close / 1024:.1f} MB after it closed; /healthz meanwhile: {len(during)} requests, "
          f"p50 {p50n * 1e3:.3f} ms, max {max(during) * 1e3 if during else float('nan'):.1f} ms, failed (10 s timeout) {during_failures}")
    if growth_mb >= args.max_rss_growth_mb:
        failures.append(f"a client that never reads grew the server's RSS by {growth_mb:.0f} MB in "
                        f"{args.non_reader_seconds:g} s (limit {args.max_rss_growth_mb:g} MB): responses are buffered without bound")
    if not during or during_failures or p50n > args.max_ratio * p50u:
        failures.append(f"/healthz p50 {p50n * 1e3:.3f} ms, {during_failures} timed out, while one client pipelined without reading "
                        f"(unloaded {p50u * 1e3:.3f} ms)")
    return report(failures)


if __name__ == "__main__":
    sys.exit(main())
