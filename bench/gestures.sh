#!/usr/bin/env bash
# The pen-gesture classifier on everything: every sample of the shared corpora (real, synthetic and
# the training corpora, 144,000 writings) drawn over a field of other text must be read as writing
# (it prints the false gestures per file), and GENERATED (default 10,000) generated gestures,
# half scratch-outs of 3-20 reversals (loose and tight, slanted, over 1-5 words), half
# strike-throughs (straight and wavy, slanted up to 15 degrees), must be taken as the right
# gesture deleting exactly the words they were drawn over. The same measures run on a seeded
# subset of the repository's fixtures in the test suite (GestureClassifierTests).
#
# Usage: bench/gestures.sh [SEED, default 1]   (SHARED=... if ../shared is elsewhere, GENERATED=N)
source "$(dirname "$0")/lib.sh"
SEED=${1:-1}
find_shared
(cd "$ROOT" && swift build --product inkbench >&2)
shopt -s nullglob
CORPORA=("$SHARED"/corpus/real/*.jsonl "$SHARED"/corpus/synthetic/*.jsonl "$SHARED"/corpus/train/*.jsonl "$SHARED"/corpus/train/*.jsonl.gz)
"$ROOT/.build/debug/inkbench" gestures --seed "$SEED" --generated "${GENERATED:-10000}" "${CORPORA[@]}" | tee "$OUT/gestures.txt"
