# Sourced by the training scripts: ROOT (the repository) and SHARED (the read-only corpora, tools
# and base models: $SHARED, else ../shared beside the checkout or above it).
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ -z "${SHARED:-}" ]]; then
    for candidate in "$ROOT/../shared" "$ROOT/../../shared" /work/shared; do
        if [[ -d "$candidate/corpus" ]]; then SHARED="$(cd "$candidate" && pwd)"; break; fi
    done
fi
: "${SHARED:?set SHARED to the shared corpus, tools and models directory}"

# A line of progress with the time.
log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*"; }

# Waits for every background job of this shell and fails if any failed (a bare `wait` would
# not notice a generator that died half way through its file).
wait_all() {
    local pid status=0
    for pid in $(jobs -p); do wait "$pid" || status=$?; done
    return "$status"
}
