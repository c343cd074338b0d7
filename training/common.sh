# Sourced by the training scripts: ROOT (the repository) and SHARED (the read-only corpora, tools
# and base models: $SHARED, else ../shared beside the checkout or above it).
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ -z "${SHARED:-}" ]]; then
    for candidate in "$ROOT/../shared" "$ROOT/../../shared" /work/shared; do
        if [[ -d "$candidate/corpus" ]]; then SHARED="$(cd "$candidate" && pwd)"; break; fi
    done
fi
: "${SHARED:?set SHARED to the shared corpus, tools and models directory}"
