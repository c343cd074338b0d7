#!/usr/bin/env python3
"""Runs the README's API shell blocks (### Example, ### Integrate and the InkML and clean-up
blocks after it) against a live server, in order, in one bash session, as a reader would paste
them, with the server's address in place of localhost:8080. Fails when a block exits non-zero
or when the server's access log shows any answer other than 2xx or 304 for their requests.

  python3 e2e/http/readme_blocks.py          # the debug build unless $INKSTICKER_BIN
Prints 'N passed, N failed'.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "reliability"))
from common import ROOT, Server  # noqa: E402


def api_blocks(readme):
    """The ```sh blocks from '### Example' up to the next '## ' heading."""
    start = readme.index("### Example")
    end = readme.index("\n## ", start)
    return re.findall(r"```sh\n(.*?)```", readme[start:end], re.S)


def main():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        blocks = api_blocks(f.read())
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(os.path.join(tmp, "db.sqlite"), args=["--models", os.path.join(ROOT, "Models")],
                        build="debug").start()
        base = "http://127.0.0.1:%d" % server.port
        try:
            script = "set -euo pipefail\n" + "\n".join(
                block.replace("http://127.0.0.1:8080", base).replace("localhost:8080", base) for block in blocks)
            run = subprocess.run(["bash", "-c", script], cwd=tmp, capture_output=True, text=True, timeout=120)
        finally:
            server.stop()
        with open(server.log_path, encoding="utf-8", errors="replace") as f:
            answers = [json.loads(line) for line in f if '"msg":"request"' in line]
    ok = run.returncode == 0
    print(("ok    " if ok else "FAIL  ") + "%d README blocks run to the end" % len(blocks)
          + ("" if ok else ": exit %d\n%s" % (run.returncode, run.stderr[-2000:])))
    passed, failed = passed + ok, failed + (not ok)
    bad = [a for a in answers if not (200 <= a["status"] < 300 or a["status"] == 304)]
    ok = bool(answers) and not bad
    print(("ok    " if ok else "FAIL  ") + "%d requests, all answered 2xx or 304" % len(answers)
          + ("" if ok else ": " + "; ".join("%s %s → %d" % (a["method"], a["path"], a["status"]) for a in bad)))
    passed, failed = passed + ok, failed + (not ok)
    routes = {a.get("route", "") for a in answers}
    print("      routes exercised: %d" % len(routes))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
