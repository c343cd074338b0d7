"""tools/eval.py of the shared folder (SHARED, default ../shared beside the repository): its
request, its normalisation of truths and readings, and its edit distance, so that held-out ink
is scored here exactly as the test files are."""
import os
import sys

sys.path.insert(0, os.path.join(os.environ.get("SHARED", os.path.join(os.path.dirname(__file__), "..", "..", "shared")), "tools"))
from eval import edit_distance, normalize, recognize  # noqa: E402,F401
