#!/usr/bin/env bash
# Fine-tunes Tesseract's tessdata_best French LSTM on the service's own renders of pen ink —
# 469 real UNIPEN writers (whole persons and whole collections held out) plus synthetic ink —
# and installs the result as Models/ink.traineddata. See training/README.md.
#
#   training/train.sh                 # everything: deps data render lstmf starter train finish dictionary
#                                     # (data is synth then real; either can be run on its own)
#   training/train.sh train finish    # only some stages, in the order given
#
# Every stage can be run again on its own; `train` continues its jobs from their last
# checkpoint when one is there (FRESH=1 starts them over). Settings (environment):
#   SHARED=../shared        read-only corpora, tools and base model
#   WORK=training/work      everything generated (git-ignored)
#   SYNTH_N=20000           synthetic training samples (two generator processes)
#   MIX=training/mix.json   their mix (training/mix-korfonts.json: also the Latin letters and digits
#                           of 90 handwriting fonts of ../shared/fonts/kor, a lever); the held-out
#                           synthetic lines stay mix.json's
#   LEVER_MIX=FILE          stage lever: SYNTH_N more synthetic samples of this mix (seeds 103,
#                           104), drawn as the `synth-lever` shards beside synth-101/102, so that
#                           two jobs of one run can compare two mixes on the same real data:
#                           JOBS="c:RATE:1::synth-lever=0 f:RATE:1::synth-101=0,synth-102=0,synth-lever=1"
#                           (a job that does not name synth-lever trains on both sets)
#   DEV_N=500               synthetic held-out samples
#   DATA_SEED=0             draw number: 1000 times it is added to the seed of every training
#                           sample drawn (synthetic ink, the composed lines and numbers, the letters
#                           chosen, every render, stage number's too): another value draws new
#                           training lines from the same persons and mix (seeds 1000 apart never
#                           meet the held-out sets' seeds, 21-28 and 201-202, which stay the same)
#   ENGLISH_N=400           held-out English lines (unseen fonts and texts, mix-heldout.json)
#   HELDOUT_PROSE_DIR=/usr/share/common-licenses  English texts of those lines
#   HELDOUT=training/heldout.json  persons and contributor directories held out whole
#   WORD_COPIES=3           renders per real word, text segment and number
#   DIGIT_COPIES=2          renders per isolated real digit
#   CHARS_N=10000           isolated real letters and symbols rendered (one each)
#   LINES_N=10000           text lines composed from one writer's real words
#   NUMBERS_N=8000          numbers composed from one person's real digits and symbols
#   CROWDED_N=4000          numbers composed the same way but written as in one movement (narrow
#                           glyphs, touching, some joined): the `real-crowded` shards
#   LETTERS_N=0             words of WORDS written with one person's isolated letters (most persons
#                           who wrote letters wrote no words), two renders each: the `real-letters`
#                           shards
#   INWORD_N=0              words of WORDS written with the letters persons who print wrote inside
#                           their real words, two renders each: the `real-inword` shards
#   TRAIN_MINUTES=100       wall-clock bound of each training job
#   SNAPSHOT_MINUTES=20     a copy of each job's latest checkpoint is kept this often, so the
#                           effect of training time is measured on the same held-out persons
#   JOBS="a:0.0005 b:0.001" training jobs run side by side, one core each: name:learning rate,
#                           optionally :N to list the synthetic shards N times (their share of
#                           the lines a job sees; "c:0.001:2" doubles it), and optionally
#                           :INDEX/LAYER to cut the network at INDEX and put a new LAYER and
#                           output layer on top ("w:0.001:1:5/Lfx256": fra's top Lfx192
#                           replaced by a wider, freshly initialised Lfx256), and optionally
#                           :SHARD=N,... to list the shards whose name starts with SHARD N times
#                           ("n:0.001:1::real-crowded=0": a job without the crowded numbers)
#   CONTINUE_FROM=FILE      start the jobs from this float traineddata of the same character set
#                           (training/ink-float.traineddata: the shipped network before its
#                           conversion to integers) instead of fra
#   INPUT_HEIGHT=48         the jobs' network reads lines this many pixels high instead of its
#                           own height (fra's 36; kor/input_height.py: no weight depends on it),
#                           and every line is drawn that high (inkrender --input-height), as the
#                           service draws lines for such a model. Without it, lines are drawn for
#                           CONTINUE_FROM's own height (38 pixels for a 36-pixel network)
#   WIDTH_SCALE=0.79        text lines and numbers drawn this many times as wide as the service's
#                           default stretch draws them (inkrender --width-scale): 38/48 keeps a
#                           48-pixel network's columns per letter those of a 36-pixel one; the
#                           service must then be started with its width scales times as much
#   MAX_ITERATIONS=1000000  iteration bound (the time bound normally ends training first)
#   NUMBER_MINUTES=40       stage number: training time of the number-hint network
#   NUMBER_RATE=0.0001      stage number: its learning rate
#   NUMBER_SYNTH_N=0        stage number: synthetic numbers (gen_ink.py, mix-number.json: Hershey
#                           and handwriting fonts) drawn with the number hint and added to its lines
#   WORDS=/usr/share/dict/american-english  English word list of the model's dictionary
#   STOCK_ENG=/usr/share/tesseract-ocr/5/tessdata/eng.traineddata  source of the punctuation
#                           and number patterns of the dictionary
set -euo pipefail

source "$(dirname "$0")/common.sh"
T="$ROOT/training"
WORK="${WORK:-$T/work}"
SYNTH_N="${SYNTH_N:-20000}"
MIX="${MIX:-$T/mix.json}"
DEV_N="${DEV_N:-500}"
DATA_SEED="${DATA_SEED:-0}"
ENGLISH_N="${ENGLISH_N:-400}"
HELDOUT_PROSE_DIR="${HELDOUT_PROSE_DIR:-/usr/share/common-licenses}"
HELDOUT="${HELDOUT:-$T/heldout.json}"
WORD_COPIES="${WORD_COPIES:-3}"
DIGIT_COPIES="${DIGIT_COPIES:-2}"
CHARS_N="${CHARS_N:-10000}"
LINES_N="${LINES_N:-10000}"
NUMBERS_N="${NUMBERS_N:-8000}"
CROWDED_N="${CROWDED_N:-4000}"
LETTERS_N="${LETTERS_N:-0}"
INWORD_N="${INWORD_N:-0}"
TRAIN_MINUTES="${TRAIN_MINUTES:-100}"
SNAPSHOT_MINUTES="${SNAPSHOT_MINUTES:-20}"
JOBS="${JOBS:-a:0.0005 b:0.001}"
MAX_ITERATIONS="${MAX_ITERATIONS:-1000000}"
NUMBER_MINUTES="${NUMBER_MINUTES:-40}"
NUMBER_RATE="${NUMBER_RATE:-0.0001}"
NUMBER_SYNTH_N="${NUMBER_SYNTH_N:-0}"
WORDS="${WORDS:-/usr/share/dict/american-english}"
STOCK_ENG="${STOCK_ENG:-/usr/share/tesseract-ocr/5/tessdata/eng.traineddata}"
BASE="$SHARED/models/fra.traineddata"
# The held-out sets of each part (persons, groups): real words, text segments, digits, letters
# and numbers, lines and numbers composed from the part's own ink, and words and text segments
# whose labels no training person wrote (as the test files' labels: UNIPEN gave many writers the
# same prompts, and a held-out person's word the training persons wrote too reads far better).
HELDOUT_SETS="words text lines digits chars numbers cnumbers xnumbers newwords newtext"
# The real corpora: the first file's 261 persons and the 208 the test files released (version 2).
REAL=("$SHARED/corpus/train/unipen-writers.jsonl.gz" "$SHARED/corpus/train/unipen-writers-b.jsonl.gz")
# Debian's python3 (numpy and Pillow from Debian packages), whatever python3 comes first on PATH.
PY="${PY:-/usr/bin/python3}"
export OMP_THREAD_LIMIT=1 INKGEN_DIR="$SHARED/tools"

# Debian packages of the recipe, installed when missing (root or sudo).
stage_deps() {
    "$ROOT/scripts/deps.sh" tesseract-ocr tesseract-ocr-eng hershey-fonts-data wamerican python3-numpy python3-pil \
        fortunes base-files fonts-dkg-handwriting fonts-breip fonts-dancingscript fonts-comic-neue \
        fonts-ecolier-court fonts-kristi fonts-rufscript fonts-fantasque-sans fonts-humor-sans fonts-bwht \
        fonts-femkeklaver fonts-isabella fonts-okolaks fonts-tomsontalks
}

# Held-out ink of one part of the real corpus (persons or groups), as line images for lstmeval:
# its words and text segments, digits, letters and numbers, plus lines and numbers composed from
# its own persons' words and glyphs (never mixed with training persons).
heldout_real() {
    local part="$1" in="$WORK/ink/dev-$1.jsonl"
    "$PY" "$T/select_kind.py" "$in" --kind word --max 500 --seed 21 -o "$WORK/ink/dev-$part-words.jsonl"
    "$PY" "$T/select_kind.py" "$in" --kind text --max 300 --seed 22 -o "$WORK/ink/dev-$part-text.jsonl"
    "$PY" "$T/select_kind.py" "$in" --kind word --max 500 --seed 29 --new-labels "$WORK/ink/real-all.jsonl" \
        -o "$WORK/ink/dev-$part-newwords.jsonl"
    "$PY" "$T/select_kind.py" "$in" --kind text --max 300 --seed 30 --new-labels "$WORK/ink/real-all.jsonl" \
        -o "$WORK/ink/dev-$part-newtext.jsonl"
    "$PY" "$T/select_kind.py" "$in" --kind digit --max 200 --seed 23 -o "$WORK/ink/dev-$part-digits.jsonl"
    "$PY" "$T/select_kind.py" "$in" --kind char --max 200 --seed 24 -o "$WORK/ink/dev-$part-chars.jsonl"
    "$PY" "$T/select_kind.py" "$in" --kind number -o "$WORK/ink/dev-$part-numbers.jsonl"
    "$PY" "$T/compose_real.py" lines "$in" --n 300 --seed 25 --prefix "dev$part-line" -o "$WORK/ink/dev-$part-lines.jsonl"
    "$PY" "$T/compose_real.py" numbers "$in" --n 200 --seed 26 --prefix "dev$part-number" \
        -o "$WORK/ink/dev-$part-cnumbers.jsonl"
    # Numbers of three or more parts (runs of digits written apart, lists, sums, phone numbers),
    # a fifth of them on two or three rows: the layouts the short real numbers lack.
    "$PY" "$T/compose_real.py" numbers "$in" --n 200 --min-parts 3 --seed 28 --prefix "dev$part-xnumber" \
        -o "$WORK/ink/dev-$part-xnumbers.jsonl"
}

# data = synth + real (each can be run again on its own).
stage_data() {
    stage_synth
    stage_real
}

stage_synth() {
    mkdir -p "$WORK/ink"
    log "synthetic ink: $SYNTH_N training samples of $(basename "$MIX") (seeds 101, 102, + 1000 × DATA_SEED $DATA_SEED), $DEV_N held out (seed 201)"
    local half=$((SYNTH_N / 2))
    "$PY" "$T/gen_ink.py" --config "$MIX" --seed "$((101 + 1000 * DATA_SEED))" --n "$half" --prefix g -o "$WORK/ink/synth-101.jsonl" &
    "$PY" "$T/gen_ink.py" --config "$MIX" --seed "$((102 + 1000 * DATA_SEED))" --n "$((SYNTH_N - half))" --prefix g -o "$WORK/ink/synth-102.jsonl" &
    "$PY" "$T/gen_ink.py" --config "$T/mix.json" --seed 201 --n "$DEV_N" --prefix dev -o "$WORK/ink/dev-synth.jsonl"
    # Held-out English: fonts and texts training never sees.
    PROSE_DIR="$HELDOUT_PROSE_DIR" "$PY" "$T/gen_ink.py" --config "$T/mix-heldout.json" --seed 202 \
        --n "$ENGLISH_N" --prefix deven -o "$WORK/ink/dev-english.jsonl"
    wait_all
}

# A second synthetic set drawn from LEVER_MIX (see the settings): its ink here, its shards in
# `render`, its lstmf files in `lstmf`.
stage_lever() {
    [[ -n "${LEVER_MIX:-}" ]] || { log "stage lever needs LEVER_MIX"; return 1; }
    mkdir -p "$WORK/ink"
    log "lever: $SYNTH_N synthetic training samples of $(basename "$LEVER_MIX") (seeds 103, 104, + 1000 × DATA_SEED)"
    local half=$((SYNTH_N / 2))
    "$PY" "$T/gen_ink.py" --config "$LEVER_MIX" --seed "$((103 + 1000 * DATA_SEED))" --n "$half" --prefix l -o "$WORK/ink/synth-lever-103.jsonl" &
    "$PY" "$T/gen_ink.py" --config "$LEVER_MIX" --seed "$((104 + 1000 * DATA_SEED))" --n "$((SYNTH_N - half))" --prefix l \
        -o "$WORK/ink/synth-lever-104.jsonl"
    wait_all
}

stage_real() {
    mkdir -p "$WORK/ink"
    # Real ink (corpus/train only; corpus/real is test data): whole persons and whole contributor
    # directories held out (heldout.json).
    "$PY" "$T/split_writers.py" "${REAL[@]}" --heldout "$HELDOUT" --train "$WORK/ink/real-all.jsonl" \
        --persons "$WORK/ink/dev-persons.jsonl" --groups "$WORK/ink/dev-groups.jsonl"
    "$PY" "$T/select_kind.py" "$WORK/ink/real-all.jsonl" --kind word,text,number -o "$WORK/ink/real-words.jsonl"
    "$PY" "$T/select_kind.py" "$WORK/ink/real-all.jsonl" --kind digit -o "$WORK/ink/real-digits.jsonl"
    "$PY" "$T/select_kind.py" "$WORK/ink/real-all.jsonl" --kind char --max "$CHARS_N" --seed "$((4 + 1000 * DATA_SEED))" -o "$WORK/ink/real-chars.jsonl"
    "$PY" "$T/compose_real.py" lines "$WORK/ink/real-all.jsonl" --n "$LINES_N" --seed "$((5 + 1000 * DATA_SEED))" -o "$WORK/ink/real-lines.jsonl" &
    "$PY" "$T/compose_real.py" numbers "$WORK/ink/real-all.jsonl" --n "$NUMBERS_N" --seed "$((5 + 1000 * DATA_SEED))" -o "$WORK/ink/real-numbers.jsonl"
    wait_all
    rm -f "$WORK/ink/real-crowded.jsonl"
    if ((CROWDED_N > 0)); then
        "$PY" "$T/compose_real.py" numbers "$WORK/ink/real-all.jsonl" --n "$CROWDED_N" --crowd 1 --seed "$((6 + 1000 * DATA_SEED))" \
            --prefix crowded -o "$WORK/ink/real-crowded.jsonl"
    fi
    rm -f "$WORK/ink/real-letters.jsonl"
    if ((LETTERS_N > 0)); then
        "$PY" "$T/compose_real.py" letters "$WORK/ink/real-all.jsonl" --words "$WORDS" --n "$LETTERS_N" --seed "$((16 + 1000 * DATA_SEED))" \
            -o "$WORK/ink/real-letters.jsonl"
    fi
    rm -f "$WORK/ink/real-inword.jsonl"
    if ((INWORD_N > 0)); then
        "$PY" "$T/compose_real.py" inword "$WORK/ink/real-all.jsonl" --words "$WORDS" --n "$INWORD_N" --seed "$((17 + 1000 * DATA_SEED))" \
            -o "$WORK/ink/real-inword.jsonl"
    fi
    heldout_real persons
    heldout_real groups
}

# The input height of a network (a .traineddata file), or nothing for fra's 36 or no file.
file_height() {
    local height=""
    [[ -z "${1:-}" || ! -s "$1" ]] || height="$("$PY" "$T/kor/input_height.py" "$1")"
    [[ $height == 36 ]] || echo "$height"
}

# The height the training jobs' lines are drawn for: INPUT_HEIGHT, else that of the network
# they continue from, else nothing (36).
network_height() {
    if [[ -n "${INPUT_HEIGHT:-}" ]]; then
        [[ $INPUT_HEIGHT == 36 ]] || echo "$INPUT_HEIGHT"
    else
        file_height "${CONTINUE_FROM:-}"
    fi
}

# Renders one ink file into DIR as shards NAME-NNNN (inkrender ARGS...), unless the shards are
# there and newer than the ink and the renderer: a later data stage that changes some ink files
# re-renders only those (their old shards and lstmf files go first).
render_set() {
    local ink="$1" dir="$2" name="$3" stamp
    shift 3
    stamp="$dir/.$name.rendered"
    # The stamp holds the height and width scale the lines were drawn for (empty: 36 and 1).
    local drawn="${HEIGHT:-}${WIDTH_SCALE:+ x$WIDTH_SCALE}"
    if [[ -f $stamp && $stamp -nt $ink && $stamp -nt $RENDER && "$(cat "$stamp")" == "$drawn" ]]; then
        return
    fi
    rm -f "$stamp" "$dir/$name"-[0-9][0-9][0-9][0-9].*
    "$RENDER" "$ink" --out "$dir" --name "$name" ${HEIGHT:+--input-height "$HEIGHT"} \
        ${WIDTH_SCALE:+--width-scale "$WIDTH_SCALE"} "$@" && echo -n "$drawn" > "$stamp"
}

stage_render() {
    log "building inkrender"
    (cd "$ROOT" && swift build --product inkrender 2>&1 | tail -1)
    RENDER="$ROOT/.build/debug/inkrender"
    HEIGHT="$(network_height)"
    [[ -z "$HEIGHT" ]] || log "lines drawn for a network reading $HEIGHT-pixel lines"
    local part set hint train="$WORK/lines/train" dev="$WORK/lines/dev"
    mkdir -p "$train" "$dev"
    render_set "$WORK/ink/synth-101.jsonl" "$train" synth-101 --seed "$((101 + 1000 * DATA_SEED))" --shard-size 250 &
    render_set "$WORK/ink/synth-102.jsonl" "$train" synth-102 --seed "$((102 + 1000 * DATA_SEED))" --shard-size 250
    wait_all
    if [[ -s "$WORK/ink/synth-lever-103.jsonl" ]]; then
        render_set "$WORK/ink/synth-lever-103.jsonl" "$train" synth-lever-103 --seed "$((103 + 1000 * DATA_SEED))" --shard-size 250 &
        render_set "$WORK/ink/synth-lever-104.jsonl" "$train" synth-lever-104 --seed "$((104 + 1000 * DATA_SEED))" --shard-size 250
        wait_all
    else
        rm -f "$train"/synth-lever-*
    fi
    render_set "$WORK/ink/real-words.jsonl" "$train" real-words --seed "$((7 + 1000 * DATA_SEED))" \
        --copies "$WORD_COPIES" --plain-fraction 0.25 --shard-size 250 &
    render_set "$WORK/ink/real-lines.jsonl" "$train" real-lines --seed "$((11 + 1000 * DATA_SEED))" --shard-size 250
    wait_all
    # Digits as the service draws them with the digits hint, composed numbers half with the
    # number hint (its slant setting), half as text.
    render_set "$WORK/ink/real-digits.jsonl" "$train" real-digits --seed "$((8 + 1000 * DATA_SEED))" \
        --copies "$DIGIT_COPIES" --hint digits --shard-size 250 &
    render_set "$WORK/ink/real-chars.jsonl" "$train" real-chars --seed "$((9 + 1000 * DATA_SEED))" --shard-size 250
    wait_all
    render_set "$WORK/ink/real-numbers.jsonl" "$train" real-numbers-n --seed "$((12 + 1000 * DATA_SEED))" \
        --hint number --limit "$((NUMBERS_N / 2))" --shard-size 250 &
    render_set "$WORK/ink/real-numbers.jsonl" "$train" real-numbers-t --seed "$((13 + 1000 * DATA_SEED))" --shard-size 250
    wait_all
    if [[ -s "$WORK/ink/real-crowded.jsonl" ]]; then
        render_set "$WORK/ink/real-crowded.jsonl" "$train" real-crowded-n --seed "$((14 + 1000 * DATA_SEED))" \
            --hint number --limit "$((CROWDED_N / 2))" --shard-size 250 &
        render_set "$WORK/ink/real-crowded.jsonl" "$train" real-crowded-t --seed "$((15 + 1000 * DATA_SEED))" --shard-size 250
        wait_all
    else
        rm -f "$train"/real-crowded-*
    fi
    if [[ -s "$WORK/ink/real-letters.jsonl" ]]; then
        render_set "$WORK/ink/real-letters.jsonl" "$train" real-letters --seed "$((16 + 1000 * DATA_SEED))" --copies 2 --shard-size 250
    else
        rm -f "$train"/real-letters-*
    fi
    if [[ -s "$WORK/ink/real-inword.jsonl" ]]; then
        render_set "$WORK/ink/real-inword.jsonl" "$train" real-inword --seed "$((17 + 1000 * DATA_SEED))" --copies 2 --shard-size 250
    else
        rm -f "$train"/real-inword-*
    fi
    # Held-out ink exactly as the service draws it (the hint its kind gets through the API).
    for part in persons groups; do
        for set in $HELDOUT_SETS; do
            hint=text
            [[ $set == digits ]] && hint=digits
            [[ $set == *numbers ]] && hint=number
            render_set "$WORK/ink/dev-$part-$set.jsonl" "$dev" "dev-$part-$set" \
                --plain-fraction 1 --hint "$hint" --shard-size 100 2>&1 | sed 's/^/  /'
        done
    done
    render_set "$WORK/ink/dev-synth.jsonl" "$dev" dev-synth --plain-fraction 1 --shard-size 100
    render_set "$WORK/ink/dev-english.jsonl" "$dev" dev-english --plain-fraction 1 --shard-size 100
}

stage_lstmf() {
    log "lstmf files (tesseract lstm.train, PSM 13, two at a time)"
    lstmf_files "$WORK/lines"
    find "$WORK/lines/train" -name '*.lstmf' | sort > "$WORK/train.list"
    local part
    for part in persons groups; do
        find "$WORK/lines/dev" -name "dev-$part-*.lstmf" | sort > "$WORK/eval-$part.list"
    done
    find "$WORK/lines/dev" -name 'dev-synth*.lstmf' | sort > "$WORK/eval-synth.list"
    find "$WORK/lines/dev" -name 'dev-english*.lstmf' | sort > "$WORK/eval-english.list"
    # lstmtraining's own periodic evaluation: a few shards of the held-out persons (it runs on
    # the training jobs' cores, so it is kept small; the choice is made in `finish`).
    awk 'NR % 3 == 1' "$WORK/eval-persons.list" > "$WORK/eval-train.list"
    log "$(wc -l < "$WORK/train.list") training and $(cat "$WORK"/eval-{persons,groups,synth,english}.list | wc -l) held-out lstmf files"
}

stage_starter() {
    log "starter traineddata: printable-ASCII unicharset, no dictionaries"
    local dir="$WORK/starter"
    rm -rf "$dir"
    mkdir -p "$dir/script" "$dir/out/ink" "$dir/base"
    python3 -c 'import string; print("".join(c for c in string.printable if not c.isspace() or c == " "))' > "$dir/chars.txt"
    unicharset_extractor --output_unicharset "$dir/ink.unicharset" --norm_mode 2 "$dir/chars.txt" >/dev/null 2>&1
    combine_tessdata -u "$BASE" "$dir/base/fra." >/dev/null 2>&1
    # Character properties come from the base model's unicharset; Latin needs no radical
    # table, but combine_lang_model requires a readable one.
    cp "$dir/base/fra.lstm-unicharset" "$dir/script/Latin.unicharset"
    cp "$dir/base/fra.lstm-unicharset" "$dir/script/Common.unicharset"
    printf '13312 1 4\n' > "$dir/script/radical-stroke.txt"
    combine_lang_model --input_unicharset "$dir/ink.unicharset" --script_dir "$dir/script" \
        --lang ink --output_dir "$dir/out" >"$dir/combine.log" 2>&1
    test -s "$dir/out/ink/ink.traineddata"
}

stage_train() {
    local pids=() job name rate synth_copies top weights from rate_flags
    for job in $JOBS; do
        IFS=: read -r name rate synth_copies top weights <<< "$job"
        mkdir -p "$WORK/run-$name"
        if [[ -s "$WORK/run-$name/ink_checkpoint" && -z "${FRESH:-}" ]]; then
            # Resumed: the checkpoint holds the job's learning rate and iteration count.
            from=(--continue_from "$WORK/run-$name/ink_checkpoint")
            rate_flags=()
            log "training job $name: resuming from its last checkpoint, at most $TRAIN_MINUTES more minutes"
        else
            rm -rf "$WORK/run-$name"
            mkdir -p "$WORK/run-$name"
            from=(--continue_from "$WORK/starter/base/fra.lstm" --old_traineddata "$BASE")
            # Each job's own copy of the network it starts from (the jobs start one after another).
            if [[ -n "${CONTINUE_FROM:-}" ]]; then
                combine_tessdata -e "$CONTINUE_FROM" "$WORK/run-$name/from.lstm" >/dev/null 2>&1
                from=(--continue_from "$WORK/run-$name/from.lstm")
            fi
            if [[ -n "${INPUT_HEIGHT:-}" ]]; then
                # The same network reading taller lines (the lines are drawn that tall).
                [[ -n "${CONTINUE_FROM:-}" ]] || cp "$WORK/starter/base/fra.lstm" "$WORK/run-$name/from.lstm"
                "$PY" "$T/kor/input_height.py" "$WORK/run-$name/from.lstm" "$INPUT_HEIGHT"
                from[1]="$WORK/run-$name/from.lstm"
            fi
            rate_flags=(--reset_learning_rate --learning_rate "$rate")
            if [[ -n "$top" ]]; then
                # A new top: the layers from ${top%%/*} on are replaced (resumed jobs keep it).
                from+=(--append_index "${top%%/*}" --net_spec "[${top#*/} O1c1]")
            fi
            log "training job $name: learning rate $rate, synthetic shards ×${synth_copies:-1}${top:+, new top $top}${weights:+, shards $weights}, at most $TRAIN_MINUTES minutes (log: $WORK/run-$name/train.log)"
        fi
        # The job's training list: every shard once, synthetic shards synth_copies times, shards
        # named in its weights as many times as they say.
        awk -v n="${synth_copies:-1}" -v weights="${weights:-}" '
            BEGIN { k = split(weights, w, ","); for (i = 1; i <= k; i++) { split(w[i], p, "="); copies[p[1]] = p[2] } }
            {
                c = index($0, "/synth-") ? n : 1
                for (shard in copies) if (index($0, "/" shard "-")) c = copies[shard]
                for (i = 0; i < c; i++) print
            }' "$WORK/train.list" > "$WORK/run-$name/train.list"
        train_job "$WORK/run-$name" "$TRAIN_MINUTES" "${from[@]}" "${rate_flags[@]}" &
        pids+=($!)
    done
    # Snapshots of the latest checkpoints, for the effect of training time (stage finish).
    local names=()
    for job in $JOBS; do names+=("${job%%:*}"); done
    snapshot_checkpoints ink "${names[@]}" &
    await_training $! "${pids[@]}"
}

# train_job RUN MINUTES ARGS...: lstmtraining on RUN/train.list, checkpoints RUN/ink_*, log
# RUN/train.log, evaluating eval-train.list as it goes, stopped after MINUTES; ARGS say where it
# starts from and at which learning rate.
train_job() {
    local run="$1" minutes="$2"
    shift 2
    timeout --signal=TERM "$((minutes * 60))" \
        lstmtraining "$@" --traineddata "$WORK/starter/out/ink/ink.traineddata" \
        --model_output "$run/ink" --train_listfile "$run/train.list" \
        --eval_listfile "$WORK/eval-train.list" --max_iterations "$MAX_ITERATIONS" \
        --target_error_rate 0.01 --debug_interval 0 >> "$run/train.log" 2>&1
}

# Character error rate (%) of a checkpoint or model on a list of held-out lstmf files.
checkpoint_cer() {
    lstmeval --model "$1" --traineddata "$WORK/starter/out/ink/ink.traineddata" --eval_listfile "$2" 2>&1 |
        sed -n 's/.*BCER eval=\([0-9.]*\).*/\1/p' | tail -1
}

# The candidate checkpoints of the given runs (each run's latest, and its timed snapshots from
# the second half of training), each scored by lstmeval on a third of the held-out persons
# (eval-train.list) and on held-out English, two at a time. FILE gets one line per candidate,
# best first by the choice score: persons weighted 3, English 1. Float lstmeval reads about ten
# lines a second per core, so the full held-out sets are read once, for the chosen model, in
# `finish`; the effect of training time on the persons is in each job's log (`BCER eval`).
rank_checkpoints() {
    local out="$1" candidates=() run candidate snapshots
    shift
    for run in "$@"; do
        [[ -f "$run/ink_checkpoint" ]] && candidates+=("$run/ink_checkpoint")
        mapfile -t snapshots < <(ls "$run"/snapshot-*.checkpoint 2>/dev/null | sort -t- -k3 -n)
        for candidate in "${snapshots[@]:$(( ${#snapshots[@]} / 2 ))}"; do candidates+=("$candidate"); done
    done
    [[ ${#candidates[@]} -gt 0 ]] || { log "no checkpoint found"; return 1; }
    export -f checkpoint_cer
    export WORK
    printf '%s\n' "${candidates[@]}" | xargs -P 2 -I{} bash -c \
        'p=$(checkpoint_cer "$1" "$WORK/eval-train.list"); e=$(checkpoint_cer "$1" "$WORK/eval-english.list")
         [ -n "$p" ] && [ -n "$e" ] || { echo "unreadable checkpoint, skipped: $1" >&2; exit 0; }
         awk -v p="$p" -v e="$e" -v c="$1" "BEGIN { printf \"%.3f %s %s %s\\n\", (3 * p + e) / 4, p, e, c }"' sh {} |
        sort -n > "$out"
    log "held-out CER % (score; a third of the persons, English; checkpoint):"
    sed 's/^/  /' "$out"
}

# to_integer CHECKPOINT OUT: the checkpoint's network as an integer model (what the service reads).
to_integer() {
    lstmtraining --stop_training --convert_to_int --continue_from "$1" \
        --traineddata "$WORK/starter/out/ink/ink.traineddata" --model_output "$2" >/dev/null 2>&1
}

stage_finish() {
    log "choosing the checkpoint with the best score on held-out persons and held-out English"
    local score persons english best
    rank_checkpoints "$WORK/checkpoints.txt" "$WORK"/run-*
    read -r score persons english best < "$WORK/checkpoints.txt"
    [[ -n "$best" ]] || { log "no checkpoint could be evaluated"; return 1; }
    log "best: $best; converting to an integer model"
    to_integer "$best" "$WORK/ink.traineddata"
    # The same network in floats: what a later run continues from (CONTINUE_FROM), since the
    # integer model cannot be trained further.
    lstmtraining --stop_training --continue_from "$best" \
        --traineddata "$WORK/starter/out/ink/ink.traineddata" --model_output "$T/ink-float.traineddata" >/dev/null 2>&1
    mkdir -p "$ROOT/Models"
    cp "$WORK/ink.traineddata" "$ROOT/Models/ink-raw.traineddata"
    local set kind lists=()
    for set in persons groups; do
        for kind in $HELDOUT_SETS; do
            find "$WORK/lines/dev" -name "dev-$set-$kind*.lstmf" | sort > "$WORK/eval-$set-$kind.list"
            [[ -s "$WORK/eval-$set-$kind.list" ]] && lists+=("$set-$kind")
        done
    done
    lists+=(english synth)
    export -f checkpoint_cer
    export WORK
    {
        echo "checkpoint: ${best#"$WORK/"}"
        echo "choice score (float): $score (a third of the persons $persons%, English $english%)"
        printf '%s\n' "${lists[@]}" | xargs -P 2 -I{} bash -c \
            'echo "held-out CER, integer model, $1: $(checkpoint_cer "$WORK/ink.traineddata" "$WORK/eval-$1.list")%"' sh {} | sort
    } | tee "$WORK/summary.txt"
    log "installed the network alone as $ROOT/Models/ink-raw.traineddata ($(stat -c %s "$ROOT/Models/ink-raw.traineddata") bytes)"
}

# Adds an English dictionary to the finished network: Tesseract's LSTM beam search then prefers
# readings that are words (lstm-word-dawg), words with the usual punctuation around them
# (lstm-punc-dawg) and number shapes (lstm-number-dawg), without forbidding anything else.
# The result is language ink (and eng); the finish stage installed the network alone as ink-raw
# (names, codes, other languages).
# Words: the word list as written plus capitalised (sentence starts); printable ASCII only,
# no possessives. Punctuation and number patterns: those of Tesseract's own eng model, read
# back from its dawgs and rebuilt on this model's character set.
stage_dictionary() {
    [[ -s "$WORK/ink.traineddata" ]] || { log "no network: run the finish stage first"; return 1; }
    add_dictionary "$WORK/ink.traineddata" "$WORK/dictionary"
    cp "$WORK/dictionary/ink.traineddata" "$ROOT/Models/ink.traineddata"
    log "installed $ROOT/Models/ink.traineddata ($(stat -c %s "$ROOT/Models/ink.traineddata") bytes)"
}

# add_dictionary NETWORK DIR: DIR/ink.traineddata is NETWORK (an integer model) with the word
# list, punctuation and number patterns.
add_dictionary() {
    local network="$1" dir="$2" kind
    rm -rf "$dir"
    mkdir -p "$dir"
    combine_tessdata -u "$network" "$dir/ink." >/dev/null 2>&1
    combine_tessdata -u "$STOCK_ENG" "$dir/eng." >/dev/null 2>&1
    LC_ALL=C grep -E '^[!-~]+$' "$WORDS" | grep -v "'s\$" \
        | awk '{ print; print toupper(substr($0, 1, 1)) substr($0, 2) }' | LC_ALL=C sort -u > "$dir/word.txt"
    for kind in punc number; do
        dawg2wordlist "$dir/eng.lstm-unicharset" "$dir/eng.lstm-$kind-dawg" "$dir/eng-$kind.txt" >/dev/null 2>&1
        LC_ALL=C grep -E '^[ -~]+$' "$dir/eng-$kind.txt" > "$dir/$kind.txt"
    done
    for kind in word punc number; do
        wordlist2dawg "$dir/$kind.txt" "$dir/ink.lstm-$kind-dawg" "$dir/ink.lstm-unicharset" >/dev/null 2>&1
    done
    rm -f "$dir"/eng.*
    combine_tessdata "$dir/ink." >/dev/null 2>&1
    log "dictionary: $(wc -l < "$dir/word.txt") words, $(wc -l < "$dir/punc.txt") punctuation and" \
        "$(wc -l < "$dir/number.txt") number patterns"
}

# Candidates measured through the API without installing anything: each checkpoint in
# CANDIDATES (paths, relative to WORK or absolute) becomes WORK/candidates/NAME/ink.traineddata
# (integer, with the dictionary), NAME the checkpoint's run and file ("c-snapshot-1614-30min").
#   WORK=… CANDIDATES="run-c/snapshot-1614-30min.checkpoint run-n/ink_checkpoint" training/train.sh candidates
#   MODELS=$WORK/candidates/c-snapshot-1614-30min SETS=heldout training/evaluate.sh eng
stage_candidates() {
    local checkpoint name
    mkdir -p "$WORK/candidates"
    for checkpoint in ${CANDIDATES:?CANDIDATES: checkpoints to convert}; do
        [[ $checkpoint == /* ]] || checkpoint="$WORK/$checkpoint"
        name="$(basename "$(dirname "$checkpoint")")-$(basename "$checkpoint" .checkpoint)"
        name="${name#run-}"
        to_integer "$checkpoint" "$WORK/candidates/$name.int"
        add_dictionary "$WORK/candidates/$name.int" "$WORK/candidates/$name"
        rm -f "$WORK/candidates/$name.int"
        find "$WORK/candidates/$name" -type f ! -name ink.traineddata -delete
        log "candidate $name: $WORK/candidates/$name/ink.traineddata"
    done
}

# The network that reads under the `number` hint (`Models/ink-number.traineddata`; the service
# reads a request with that hint with `<model>-number` when it is installed): the finished
# network (training/ink-float.traineddata) trained further on numbers alone, the numbers
# composed from training persons' glyphs (`real-numbers-*`, `real-crowded-*`), their isolated
# digits (`real-digits`) and the numbers they really wrote, drawn with the number hint
# (`real-ownnum`, three renders each, listed four times). The checkpoint is chosen by the mean
# float CER over the five held-out sets of numbers (persons' own, composed and of several parts;
# the collections' composed and of several parts), from snapshots every 10 minutes; the
# `digits` hint keeps the general network (this one read held-out isolated digits no better).
stage_number() {
    local run="$WORK/run-number" lines="$WORK/lines/number" lists=() set best=""
    [[ -s "$T/ink-float.traineddata" && -s "$WORK/train.list" ]] || { log "no network or data: run the stages up to finish first"; return 1; }
    RENDER="$ROOT/.build/debug/inkrender"
    # Drawn for the network it continues from, whatever INPUT_HEIGHT says.
    HEIGHT="$(file_height "$T/ink-float.traineddata")"
    (cd "$ROOT" && swift build --product inkrender 2>&1 | tail -1)
    mkdir -p "$lines"
    "$PY" "$T/select_kind.py" "$WORK/ink/real-all.jsonl" --kind number -o "$WORK/ink/real-ownnum.jsonl"
    render_set "$WORK/ink/real-ownnum.jsonl" "$lines" real-ownnum --seed "$((16 + 1000 * DATA_SEED))" --copies 3 --hint number --shard-size 250
    if ((NUMBER_SYNTH_N > 0)); then
        "$PY" "$T/gen_ink.py" --config "$T/mix-number.json" --seed "$((61 + 1000 * DATA_SEED))" --n "$NUMBER_SYNTH_N" --prefix gn \
            -o "$WORK/ink/synth-number.jsonl"
        render_set "$WORK/ink/synth-number.jsonl" "$lines" synth-number --seed "$((17 + 1000 * DATA_SEED))" --hint number --shard-size 250
    fi
    lstmf_files "$lines"
    rm -rf "$run"
    mkdir -p "$run"
    {
        grep -E '/real-(numbers|crowded|digits)-' "$WORK/train.list"
        for _ in 1 2 3 4; do find "$lines" -name 'real-ownnum-*.lstmf' | sort; done
        ((NUMBER_SYNTH_N == 0)) || find "$lines" -name 'synth-number-*.lstmf' | sort
    } > "$run/train.list"
    log "number network: $(wc -l < "$run/train.list") shards listed, learning rate $NUMBER_RATE, $NUMBER_MINUTES minutes from $T/ink-float.traineddata"
    combine_tessdata -e "$T/ink-float.traineddata" "$run/from.lstm" >/dev/null 2>&1
    train_job "$run" "$NUMBER_MINUTES" --continue_from "$run/from.lstm" \
        --reset_learning_rate --learning_rate "$NUMBER_RATE" &
    local pid=$!
    SNAPSHOT_MINUTES=10 snapshot_checkpoints ink number &
    await_training $! "$pid"
    for set in persons-numbers persons-cnumbers persons-xnumbers groups-cnumbers groups-xnumbers; do
        find -L "$WORK/lines/dev" -name "dev-$set-*.lstmf" | sort > "$WORK/eval-$set.list"
        [[ -s "$WORK/eval-$set.list" ]] && lists+=("$set")
    done
    # Without them every checkpoint would score alike and the choice would be arbitrary.
    ((${#lists[@]} > 0)) || { log "no held-out lines of numbers in $WORK/lines/dev: run the stages up to lstmf first"; return 1; }
    export -f checkpoint_cer number_score
    export WORK NUMBER_SETS="${lists[*]}"
    { find "$run" -name 'snapshot-*.checkpoint' | sort; echo "$run/ink_checkpoint"; } |
        xargs -P 2 -I{} bash -c 'number_score "$1"' sh {} | sort -n > "$run/checkpoints.txt"
    log "held-out numbers, float CER % (mean; checkpoint; per set):"
    sed 's/^/  /' "$run/checkpoints.txt"
    read -r _ best _ < "$run/checkpoints.txt"
    [[ -n "$best" ]] || { log "no checkpoint could be evaluated"; return 1; }
    to_integer "$best" "$run/network.traineddata"
    add_dictionary "$run/network.traineddata" "$run/dictionary"
    cp "$run/dictionary/ink.traineddata" "$ROOT/Models/ink-number.traineddata"
    log "installed $ROOT/Models/ink-number.traineddata ($(stat -c %s "$ROOT/Models/ink-number.traineddata") bytes) from $best"
}

# number_score CHECKPOINT: "MEAN CHECKPOINT SET=CER ..." over the held-out sets in NUMBER_SETS.
number_score() {
    local set cer line="" sum=0 n=0
    for set in $NUMBER_SETS; do
        cer="$(checkpoint_cer "$1" "$WORK/eval-$set.list")"
        [[ -n "$cer" ]] || { echo "unreadable checkpoint, skipped: $1" >&2; return 0; }
        line="$line $set=$cer"
        sum="$(awk -v s="$sum" -v c="$cer" 'BEGIN { print s + c }')"
        n=$((n + 1))
    done
    awk -v s="$sum" -v n="$n" -v c="$1" -v l="$line" 'BEGIN { printf "%.3f %s%s\n", s / n, c, l }'
}

stages=("$@")
[[ ${#stages[@]} -gt 0 ]] || stages=(deps data render lstmf starter train finish dictionary number)
for stage in "${stages[@]}"; do
    start=$SECONDS
    "stage_$stage"
    log "stage $stage: $((SECONDS - start)) s"
done
