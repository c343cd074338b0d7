# Sourced by the training scripts: ROOT (the repository) and SHARED (the read-only corpora, tools
# and base models: $SHARED, else ../shared beside the checkout or above it).
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ -z "${SHARED:-}" ]]; then
    for candidate in "$ROOT/../shared" "$ROOT/../../shared" /work/shared; do
        if [[ -d "$candidate/corpus" ]]; then SHARED="$(cd "$candidate" && pwd)"; break; fi
    done
fi
: "${SHARED:?set SHARED to the shared corpus, tools and models directory}"

# lstmf_files DIR: every line image under DIR as tesseract's training file (`lstm.train`, PSM 13),
# two at a time; an image already converted is kept.
lstmf_files() {
    find "$1" -name '*.tif' | sort | sed 's/\.tif$//' |
        xargs -P 2 -I{} sh -c '[ -s "{}.lstmf" ] || tesseract "{}.tif" "{}" --psm 13 lstm.train >/dev/null 2>&1 || echo "failed: {}" >&2'
}

# A line of progress with the time.
log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*"; }

# Waits for every background job of this shell and fails if any failed (a bare `wait` would
# not notice a generator that died half way through its file).
wait_all() {
    local pid status=0
    for pid in $(jobs -p); do wait "$pid" || status=$?; done
    return "$status"
}

# Run in the background beside training jobs: every SNAPSHOT_MINUTES, a copy of each named job's
# latest checkpoint (WORK/run-NAME/PREFIX_checkpoint) as WORK/run-NAME/snapshot-HHMM-Mmin.checkpoint,
# so that the effect of training time is measured (the clock time keeps a resumed job's snapshots
# apart from its first run's).
snapshot_checkpoints() {
    local prefix=$1 elapsed=0 name
    shift
    while sleep "$((SNAPSHOT_MINUTES * 60))"; do
        elapsed=$((elapsed + SNAPSHOT_MINUTES))
        for name in "$@"; do
            # -e, not -s: lstmtraining rewrites the file in place, and an instant at which it is
            # empty must not skip the snapshot (copy_settled waits until it is written).
            [[ -e "$WORK/run-$name/${prefix}_checkpoint" ]] &&
                copy_settled "$WORK/run-$name/${prefix}_checkpoint" "$WORK/run-$name/snapshot-$(date +%H%M)-${elapsed}min.checkpoint"
        done
    done
}

# copy_settled FROM TO: a copy of a file that another process rewrites in place every few seconds
# (lstmtraining's checkpoint): copied only when it was not being written before or during the
# copy (same modification time and size before and after, at least a second old), else tried
# again; a copy taken mid-write is a truncated checkpoint that lstmtraining cannot read.
copy_settled() {
    local from="$1" to="$2" before after try
    for try in $(seq 1 60); do
        before="$(stat -c '%.9Y %s' "$from")"
        if ((${before#* } > 0 && $(date +%s) - ${before%%.*} >= 1)); then
            cp "$from" "$to.part"
            after="$(stat -c '%.9Y %s' "$from")"
            if [[ $before == "$after" && $(stat -c %s "$to.part") == "${after#* }" ]]; then
                mv "$to.part" "$to"
                return 0
            fi
        fi
        sleep 0.5
    done
    rm -f "$to.part"
    log "no settled copy of $from"
}

# Waits for the training jobs (the pids after the first) and then stops the snapshot loop (the
# first pid). A job stopped by its time bound (timeout's status 124) ended normally.
await_training() {
    local snapshots=$1 pid status=0
    shift
    for pid in "$@"; do wait "$pid" || status=$?; done
    # The snapshot loop and the sleep it waits in (an orphaned sleep would hold the caller's output open).
    pkill -P "$snapshots" 2>/dev/null || true
    kill "$snapshots" 2>/dev/null || true
    [[ $status == 0 || $status == 124 ]] || { log "training failed ($status)"; return "$status"; }
}
