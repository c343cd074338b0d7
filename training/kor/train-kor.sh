#!/usr/bin/env bash
# Builds the Korean pen-ink model Models/kor-ink.traineddata (served as `kor` and `ko`) from
# synthetic ink of Korean handwriting fonts, measuring the two starting points the issue asks
# for side by side, one training job each:
#   a: tessdata_best kor_vert (float; Hangul already in its character set and recoder; trained
#      on vertical text) with its character set extended to ours (--old_traineddata), fine-tuned
#      on our horizontal ink. Its own set lacks the Latin letters and 596 of the syllables of the
#      training texts: fine-tuned as it is, it skipped 40 % of the training lines;
#   b: the Latin pen-ink network (training/ink-float.traineddata, 261 real writers) with its
#      character set extended by Hangul (--old_traineddata), so what it learned of pens carries over.
# The better on the held-out font wins. Evaluation fonts (kor/mix-kor-eval.json,
# Tests/Fixtures/hangul) are never used here.
#
#   training/kor/train-kor.sh                 # deps data render lstmf starter train finish dictionary
#   training/kor/train-kor.sh train finish    # some stages, in order; `train` resumes its jobs
#
# Settings (environment): WORK=training/work-kor, KOR_N=16000 Korean training samples (two
# generator processes), LATIN_N=4000 Latin ones (../mix.json: digits, Latin and punctuation stay
# readable), DEV_N=400 held-out samples in the held-out training font (kor/mix-kor-dev.json; as
# many random syllables in it, kor/mix-kor-dev-syll.json, and as many samples of three designs it
# never trains on, kor/mix-kor-dev-design.json, and of two handwritten designs it never trains on,
# kor/mix-kor-dev-hand.json, and of twelve real people's hands of ../shared/fonts/kor it never
# trains on, kor/mix-kor-dev-clova.json), SEED=111 (the Korean training ink's seeds are SEED and SEED+1;
# another seed writes other samples of the same mix),
# TRAIN_MINUTES=100, SNAPSHOT_MINUTES=20, RATE=0.001, JOBS="a b" (the jobs `train` runs or
# resumes; `finish` compares the jobs that have run), KOR_MIX=kor/mix-kor.json (the training
# ink's mix; kor/mix-kor-loose.json moves each syllable's jamo apart, kor/mix-kor-print.json also
# adds print designs, kor/mix-kor-syll.json writes far more runs of random syllables,
# kor/mix-kor-warp.json also varies every syllable's jamo and strokes, kor/mix-kor-jamo.json also
# draws half of the syllables with jamo of two fonts, kor/mix-kor-bend.json (measured worse) also
# bends every syllable's strokes, kor/mix-kor-hand.json instead adds three GPL hand designs,
# kor/mix-kor-more.json adds two OFL pen hands, kor/mix-kor-hands.json weights those two up,
# kor/mix-kor-hands2.json once more, kor/mix-kor-jamo2.json (the shipped twelfth run) draws 80 %
# of the syllables with jamo of two fonts, kor/mix-kor-syll2.json (measured worse) writes more
# random syllables, kor/mix-kor-square.json (measured worse) draws 30 % of the syllables with a
# final out of square, kor/mix-kor-layout.json (measured worse) places each line's characters as
# a hand does),
# BLOCK_MARGIN_SCALE: the margin of Korean lines (the serving option --block-margin-scale) used to
# draw every line and to serve the candidates in `finish` (default: the service's; a model must be
# served as it was trained),
# TICKS=1 draws all the ink (training and held-out) with the top ticks of ㅎ and ㅊ that tracing
# loses restored (gen_ink.py --hangul-ticks; the same texts, fonts and places as without it),
# FRESH=1 restarts the jobs,
# CONTINUE_FROM=training/kor/kor-ink-float.traineddata starts job b from the shipped network,
# TOP=INDEX/SPEC (with CONTINUE_FROM) cuts that network after layer INDEX and puts SPEC and a new
# output layer on it: 6/Lfx256 keeps every layer and adds an LSTM of 256 (the network is
# Input Ct3,3,16 Mp3,3 Lfys48 Lfx96 Lrx96 Lfx192 O1c1, indexes 0-7), 5/Lfx384 replaces the Lfx192,
# INPUT_HEIGHT=48 (with CONTINUE_FROM) makes that network read lines 48 pixels high instead of 36
# (kor/input_height.py: no weight depends on the height).
# The lines are drawn as high as job b's network reads them (INPUT_HEIGHT, else CONTINUE_FROM's
# own height, else as high as other lines, 38 pixels: inkrender --input-height), as the service
# draws Korean lines for a model (--block-ink-scale model, its default), so `finish` serves each
# candidate as it was trained (but job a: kor_vert reads 48-pixel lines, so without
# CONTINUE_FROM it trains on lines Tesseract scales up from 38 and is served lines drawn at 48).
set -euo pipefail

source "$(dirname "$0")/../common.sh"
T="$ROOT/training"
K="$T/kor"
WORK="${WORK:-$T/work-kor}"
KOR_N="${KOR_N:-16000}"
LATIN_N="${LATIN_N:-4000}"
DEV_N="${DEV_N:-400}"
TRAIN_MINUTES="${TRAIN_MINUTES:-100}"
SNAPSHOT_MINUTES="${SNAPSHOT_MINUTES:-20}"
RATE="${RATE:-0.001}"
JOBS="${JOBS:-a b}"
KOR_MIX="${KOR_MIX:-$K/mix-kor.json}"
SEED="${SEED:-111}"
KOR_BASE="$SHARED/models/kor_vert.traineddata"
INK_FLOAT="$T/ink-float.traineddata"
PY="${PY:-/usr/bin/python3}"
GEN=("$PY" "$T/gen_ink.py")
[[ "${TICKS:-0}" == 1 ]] && GEN+=(--hangul-ticks)
export OMP_THREAD_LIMIT=1 INKGEN_DIR="$SHARED/tools"


stage_deps() {
    "$ROOT/scripts/deps.sh" tesseract-ocr tesseract-ocr-kor hershey-fonts-data python3-numpy python3-pil \
        fonts-nanum-extra fonts-woowa-bm fonts-seto fonts-lxgw-wenkai fonts-nanum fonts-baekmuk fonts-lexi-saebom fonts-unfonts-core \
        fonts-unfonts-extra hunspell-ko debian-faq-ko \
        fonts-dkg-handwriting fonts-breip \
        fonts-dancingscript fonts-comic-neue fonts-ecolier-court fonts-kristi fonts-rufscript \
        fonts-fantasque-sans fonts-humor-sans fonts-bwht fonts-femkeklaver fonts-isabella fonts-okolaks \
        fonts-tomsontalks wamerican fortunes base-files
}

stage_data() {
    mkdir -p "$WORK/ink"
    local half=$((KOR_N / 2))
    log "ink: $KOR_N Korean (seeds $SEED, $((SEED + 1))), $LATIN_N Latin (seed 121), $DEV_N held-out font (seed 221)${TICKS:+, TICKS=$TICKS}"
    rm -f "$WORK"/ink/kor-*.jsonl
    "${GEN[@]}" --config "$KOR_MIX" --seed "$SEED" --n "$half" --prefix k -o "$WORK/ink/kor-$SEED.jsonl" &
    "${GEN[@]}" --config "$KOR_MIX" --seed "$((SEED + 1))" --n "$((KOR_N - half))" --prefix k -o "$WORK/ink/kor-$((SEED + 1)).jsonl"
    wait_all
    "${GEN[@]}" --config "$T/mix.json" --seed 121 --n "$LATIN_N" --prefix l -o "$WORK/ink/latin-121.jsonl" &
    "${GEN[@]}" --config "$K/mix-kor-dev.json" --seed 221 --n "$DEV_N" --prefix kd -o "$WORK/ink/dev-kor.jsonl"
    # The same held-out font with its syllables' jamo moved apart: how a model reads loose blocks.
    "${GEN[@]}" --config "$K/mix-kor-dev-loose.json" --seed 222 --n "$DEV_N" --prefix kl -o "$WORK/ink/dev-kor-loose.jsonl"
    wait_all
    # The same font writing random syllables: reading syllable shapes without a known word.
    "${GEN[@]}" --config "$K/mix-kor-dev-syll.json" --seed 223 --n "$DEV_N" --prefix ks -o "$WORK/ink/dev-kor-syll.jsonl" &
    # Designs never trained on (print faces of other packages): how a model reads a new design.
    "${GEN[@]}" --config "$K/mix-kor-dev-design.json" --seed 241 --n "$DEV_N" --prefix kn -o "$WORK/ink/dev-kor-design.jsonl"
    wait_all
    # Handwritten designs never trained on: how a model reads a new hand.
    "${GEN[@]}" --config "$K/mix-kor-dev-hand.json" --seed 261 --n "$DEV_N" --prefix kv -o "$WORK/ink/dev-kor-hand.jsonl" &
    # Twelve real people's hands of ../shared/fonts/kor never trained on (words and lines).
    "${GEN[@]}" --config "$K/mix-kor-dev-clova.json" --seed 265 --n "$DEV_N" --prefix kp -o "$WORK/ink/dev-kor-clova.jsonl"
    wait_all
    cat "$WORK/ink/dev-kor.jsonl" "$WORK/ink/dev-kor-syll.jsonl" "$WORK/ink/dev-kor-design.jsonl" \
        "$WORK/ink/dev-kor-hand.jsonl" "$WORK/ink/dev-kor-clova.jsonl" > "$WORK/ink/dev-kor-all.jsonl"
    "${GEN[@]}" --config "$K/mix-kor-dictcheck.json" --seed 231 --n 300 --prefix kc -o "$WORK/ink/dictcheck.jsonl" &
    # Words of the held-out font with low-hanging finals: measured, never chooses.
    "${GEN[@]}" --config "$K/mix-kor-dev-hang.json" --seed 251 --n "$((DEV_N / 2))" --prefix kh -o "$WORK/ink/dev-kor-hang.jsonl"
    wait_all
    # Measured, never choose: the unseen hands writing random syllables (unseen words in an unseen
    # hand), and two held-out samples stacked 1.2-1.6 line heights apart (how lines are found).
    "${GEN[@]}" --config "$K/mix-kor-dev-hand-syll.json" --seed 262 --n 300 --prefix kw -o "$WORK/ink/dev-kor-hand-syll.jsonl"
    "$PY" "$T/stack_lines.py" "$WORK/ink/dev-kor.jsonl" --n "$DEV_N" --seed 7 -o "$WORK/ink/stack-kor.jsonl"
    "$PY" "$T/stack_lines.py" "$WORK/ink/dev-kor-hand.jsonl" --n "$DEV_N" --seed 7 -o "$WORK/ink/stack-kor-hand.jsonl"
    # Measured, never chooses: out-of-square designs never trained on (finals below the line).
    "${GEN[@]}" --config "$K/mix-kor-dev-square.json" --seed 271 --n "$DEV_N" --prefix kq -o "$WORK/ink/dev-kor-square.jsonl" &
    # Measured, never chooses: every held-out font writing real words no training text writes (the
    # stock word list's; the dictionary holds them, as it holds the evaluation fonts' words).
    "${GEN[@]}" --config "$K/mix-kor-dev-unseen.json" --seed 281 --n "$((DEV_N * 3))" --prefix ku -o "$WORK/ink/dev-kor-unseen.jsonl"
    wait_all
}

# The height of the network the lines are drawn for: INPUT_HEIGHT, else CONTINUE_FROM's own (a
# network that already reads taller lines), else nothing (as high as other lines).
network_height() {
    if [[ -n "${INPUT_HEIGHT:-}" ]]; then
        echo "$INPUT_HEIGHT"
    elif [[ -n "${CONTINUE_FROM:-}" ]]; then
        "$PY" "$K/input_height.py" "$CONTINUE_FROM"
    fi
}

stage_render() {
    (cd "$ROOT" && swift build --product inkrender 2>&1 | tail -1)
    # Lines split by syllable blocks, as the service splits ink for a Korean model (Latin ink
    # too: the Korean model reads it the same way).
    local height
    height="$(network_height)"
    local render=("$ROOT/.build/debug/inkrender" --syllable-blocks ${BLOCK_MARGIN_SCALE:+--block-margin-scale "$BLOCK_MARGIN_SCALE"}
                  ${height:+--input-height "$height"})
    [[ -z "$height" ]] || log "Korean lines drawn for a network reading $height-pixel lines"
    rm -rf "$WORK/lines"
    mkdir -p "$WORK/lines/train" "$WORK/lines/dev"
    local ink name
    for ink in "$WORK"/ink/kor-*.jsonl; do
        name="$(basename "$ink" .jsonl)"
        "${render[@]}" "$ink" --out "$WORK/lines/train" --name "$name" --seed "${name#kor-}" --shard-size 250 &
    done
    wait_all
    "${render[@]}" "$WORK/ink/latin-121.jsonl" --out "$WORK/lines/train" --name latin-121 --seed 121 --shard-size 250 &
    "${render[@]}" "$WORK/ink/dev-kor.jsonl" --out "$WORK/lines/dev" --name dev-kor --plain-fraction 1 --shard-size 100
    wait_all
    "${render[@]}" "$WORK/ink/dev-kor-syll.jsonl" --out "$WORK/lines/dev" --name dev-kor-syll --plain-fraction 1 --shard-size 100 &
    "${render[@]}" "$WORK/ink/dev-kor-design.jsonl" --out "$WORK/lines/dev" --name dev-kor-design --plain-fraction 1 --shard-size 100
    wait_all
    "${render[@]}" "$WORK/ink/dev-kor-hand.jsonl" --out "$WORK/lines/dev" --name dev-kor-hand --plain-fraction 1 --shard-size 100 &
    "${render[@]}" "$WORK/ink/dev-kor-clova.jsonl" --out "$WORK/lines/dev" --name dev-kor-clova --plain-fraction 1 --shard-size 100
    wait_all
}

stage_lstmf() {
    lstmf_files "$WORK/lines"
    find "$WORK/lines/train" -name '*.lstmf' | sort > "$WORK/train.list"
    find "$WORK/lines/dev" -name '*.lstmf' | sort > "$WORK/dev.list"
    log "$(wc -l < "$WORK/train.list") training and $(wc -l < "$WORK/dev.list") held-out lstmf files"
}

# The character set of both jobs: printable ASCII plus every character of the training texts,
# character properties from kor_vert's (Hangul) and the Latin pen-ink model's unicharsets.
stage_starter() {
    local dir="$WORK/starter"
    rm -rf "$dir"
    mkdir -p "$dir/kor" "$dir/ink" "$dir/script" "$dir/out"
    combine_tessdata -u "$KOR_BASE" "$dir/kor/kor." >/dev/null 2>&1
    combine_tessdata -u "$INK_FLOAT" "$dir/ink/ink." >/dev/null 2>&1
    # Every character of the training texts and, when training continues from a network, every
    # character it already reads: a mix that writes fewer rare syllables (no random syllable
    # runs) would otherwise drop them from the output, and no later run could read them.
    local from_chars=""
    if [[ -n "${CONTINUE_FROM:-}" ]]; then
        mkdir -p "$dir/from"
        combine_tessdata -u "$CONTINUE_FROM" "$dir/from/from." >/dev/null 2>&1
        from_chars="$dir/from/from.lstm-unicharset"
    fi
    "$PY" - "$WORK/ink" "$from_chars" > "$dir/chars.txt" <<'PY'
import glob, json, string, sys
chars = set(c for c in string.printable if not c.isspace() or c == " ")
for path in glob.glob(sys.argv[1] + "/kor-*.jsonl") + glob.glob(sys.argv[1] + "/latin-*.jsonl"):
    for line in open(path, encoding="utf-8"):
        chars.update(c for c in json.loads(line)["text"] if c not in "\n\t")
if sys.argv[2]:
    with open(sys.argv[2], encoding="utf-8") as f:
        next(f)                                    # the first line is the entry count
        chars.update(c for c in (line.split(" ", 1)[0] for line in f) if len(c) == 1 and not c.isspace())
print("".join(sorted(chars)))
PY
    unicharset_extractor --output_unicharset "$dir/kor-ink.unicharset" --norm_mode 1 "$dir/chars.txt" >/dev/null 2>&1
    cp "$dir/kor/kor.lstm-unicharset" "$dir/script/Hangul.unicharset"
    cp "$dir/kor/kor.lstm-unicharset" "$dir/script/Common.unicharset"
    cp "$dir/ink/ink.lstm-unicharset" "$dir/script/Latin.unicharset"
    printf '13312 1 4\n' > "$dir/script/radical-stroke.txt"
    combine_lang_model --input_unicharset "$dir/kor-ink.unicharset" --script_dir "$dir/script" \
        --lang kor-ink --output_dir "$dir/out" >"$dir/combine.log" 2>&1
    test -s "$dir/out/kor-ink/kor-ink.traineddata"
    log "starter b: $(head -1 "$dir/kor-ink.unicharset") characters"
}

# The traineddata (character set and recoder) both jobs train with.
job_traineddata() {
    echo "$WORK/starter/out/kor-ink/kor-ink.traineddata"
}

stage_train() {
    local pids=() name from
    for name in $JOBS; do
        mkdir -p "$WORK/run-$name"
        if [[ -s "$WORK/run-$name/kor_checkpoint" && -z "${FRESH:-}" ]]; then
            from=(--continue_from "$WORK/run-$name/kor_checkpoint")
            log "job $name: resuming, at most $TRAIN_MINUTES more minutes"
        else
            rm -rf "$WORK/run-$name"
            mkdir -p "$WORK/run-$name"
            if [[ $name == a ]]; then
                from=(--continue_from "$WORK/starter/kor/kor.lstm" --old_traineddata "$KOR_BASE"
                      --reset_learning_rate --learning_rate "$RATE")
            elif [[ -n "${CONTINUE_FROM:-}" ]]; then
                # More training for the shipped network (kor/kor-ink-float.traineddata). Another
                # mix writes other texts, so its character set differs: --old_traineddata maps
                # the output layer from the shipped set to this starter's (the identity when
                # they are the same).
                combine_tessdata -e "$CONTINUE_FROM" "$WORK/continue-from.lstm" >/dev/null 2>&1
                local old="$CONTINUE_FROM"
                if [[ -n "${INPUT_HEIGHT:-}" ]]; then
                    # The same network reading taller lines (kor/input_height.py); the lines
                    # are drawn that tall (network_height).
                    "$PY" "$K/input_height.py" "$WORK/continue-from.lstm" "$INPUT_HEIGHT"
                    old="$WORK/continue-from.traineddata"
                    cp "$CONTINUE_FROM" "$old"
                    combine_tessdata -o "$old" "$WORK/continue-from.lstm" >/dev/null 2>&1
                fi
                from=(--continue_from "$WORK/continue-from.lstm" --old_traineddata "$old"
                      --reset_learning_rate --learning_rate "$RATE")
                if [[ -n "${TOP:-}" ]]; then
                    # A larger top: the layers after index ${TOP%%/*} are cut off and the new
                    # layers, then a new output layer, put on (as train.sh's "s:R:C:INDEX/SPEC").
                    from+=(--append_index "${TOP%%/*}" --net_spec "[${TOP#*/} O1c1]")
                fi
            else
                from=(--continue_from "$WORK/starter/ink/ink.lstm" --old_traineddata "$INK_FLOAT"
                      --reset_learning_rate --learning_rate "$RATE")
            fi
            log "job $name: from $([[ $name == a ]] && echo kor_vert || echo "${CONTINUE_FROM:-the Latin pen-ink network}")${TOP:+, new top $TOP}${INPUT_HEIGHT:+, input height $INPUT_HEIGHT}, $TRAIN_MINUTES minutes"
        fi
        timeout --signal=TERM "$((TRAIN_MINUTES * 60))" \
            lstmtraining "${from[@]}" --traineddata "$(job_traineddata "$name")" \
            --model_output "$WORK/run-$name/kor" --train_listfile "$WORK/train.list" \
            --eval_listfile "$WORK/dev.list" --max_iterations 1000000 --target_error_rate 0.005 \
            --debug_interval 0 >> "$WORK/run-$name/train.log" 2>&1 &
        pids+=($!)
    done
    # shellcheck disable=SC2086  # job names are words
    snapshot_checkpoints kor $JOBS &
    await_training $! "${pids[@]}"
}

cer() {
    lstmeval --model "$1" --traineddata "$2" --eval_listfile "$WORK/dev.list" 2>&1 |
        sed -n 's/.*BCER eval=\([0-9.]*\).*/\1/p' | tail -1
}

# Each job's best checkpoint on the held-out ink (the held-out font's texts and random syllables,
# and the designs and hands never trained on) by lstmeval
# (latest and snapshots; within a job the character set is the same, so the scores compare),
# then the two jobs' best through the service's HTTP API on the held-out font's ink, the way the
# service reads it. The winner is converted to an integer model and installed as
# Models/kor-ink.traineddata; its float network goes to kor/kor-ink-float.traineddata.
stage_finish() {
    local name candidate score best best_score
    local cand="$WORK/candidates"
    rm -rf "$cand"
    mkdir -p "$cand"
    : > "$WORK/checkpoints.txt"
    for name in a b; do
        best="" best_score=999
        for candidate in "$WORK/run-$name"/snapshot-*.checkpoint "$WORK/run-$name/kor_checkpoint"; do
            [[ -s "$candidate" ]] || continue
            score="$(cer "$candidate" "$(job_traineddata "$name")")"
            [[ -n "$score" ]] || { log "unreadable checkpoint, skipped: $candidate"; continue; }
            echo "$score $name $candidate" | tee -a "$WORK/checkpoints.txt"
            if awk -v s="$score" -v b="$best_score" 'BEGIN { exit !(s < b) }'; then
                best="$candidate" best_score="$score"
            fi
        done
        [[ -n "$best" ]] || continue
        log "job $name: best $best ($best_score % lstmeval)"
        echo "$best" > "$cand/$name.checkpoint-path"
        lstmtraining --stop_training --convert_to_int --continue_from "$best" --traineddata "$(job_traineddata "$name")" \
            --model_output "$cand/kor-ink-$name.traineddata" >/dev/null 2>&1
    done
    ls "$cand"/kor-ink-*.traineddata >/dev/null 2>&1 || { log "no checkpoint"; return 1; }
    local langs=() winner="" winner_cer=999 cer_api
    for name in a b; do [[ -s "$cand/kor-ink-$name.traineddata" ]] && langs+=("kor-ink-$name"); done
    WORK="$WORK" MODELS="$cand" SETS="$WORK/ink/dev-kor-all.jsonl" \
        SERVER_ARGS="--lang ${langs[0]}${BLOCK_MARGIN_SCALE:+ --block-margin-scale $BLOCK_MARGIN_SCALE}" \
        "$T/evaluate.sh" "${langs[@]}" > "$WORK/finish-eval.log" 2>&1
    for lang in "${langs[@]}"; do
        cer_api="$(sed -n 's/^TOTAL.*CER= *\([0-9.]*\)%.*/\1/p' "$WORK/eval-dev-kor-all-$lang.txt" | tail -1)"
        log "$lang: $cer_api % CER on the held-out ink (held-out font, its random syllables, unseen designs and hands) through the API"
        if awk -v s="$cer_api" -v b="$winner_cer" 'BEGIN { exit !(s < b) }'; then winner="${lang#kor-ink-}" winner_cer="$cer_api"; fi
    done
    log "winner: job $winner ($winner_cer %)"
    cp "$cand/kor-ink-$winner.traineddata" "$ROOT/Models/kor-ink.traineddata"
    lstmtraining --stop_training --continue_from "$(cat "$cand/$winner.checkpoint-path")" \
        --traineddata "$(job_traineddata "$winner")" --model_output "$K/kor-ink-float.traineddata" >/dev/null 2>&1
    log "installed Models/kor-ink.traineddata ($(stat -c %s "$ROOT/Models/kor-ink.traineddata") bytes)"
}

# A dictionary for the beam search, as `ink` has one: hunspell-ko's words and the word list of
# Tesseract's stock kor, all of them (kor_text.dictionary_words), and the punctuation and number
# patterns of stock kor, added to the installed network. The evaluation fonts write words of the
# evaluation part of those lists, so WORK/dictionary/models/kor-ink-heldout.traineddata, the same
# network with the training part's words only (the dictionary of every model up to the
# twenty-fifth run's), is built beside it to measure how words no dictionary holds read.
# Measured through the API on the held-out font before it is kept: on its texts (training-part
# words, in the dictionary) and on words the dictionary leaves out (WORK/ink/dictcheck.jsonl, read
# with a dictionary built without them). Kept when it helps the first and costs the second at
# most two points; the network without it stays in WORK/dictionary/models/kor-ink-raw.traineddata.
stage_dictionary() {
    local dir="$WORK/dictionary" kind name stock="/usr/share/tesseract-ocr/5/tessdata/kor.traineddata"
    rm -rf "$dir"
    mkdir -p "$dir/models"
    combine_tessdata -u "$ROOT/Models/kor-ink.traineddata" "$dir/kor-ink." >/dev/null 2>&1
    rm -f "$dir"/kor-ink.lstm-*-dawg
    combine_tessdata "$dir/kor-ink." >/dev/null 2>&1
    cp "$dir/kor-ink.traineddata" "$dir/models/kor-ink-raw.traineddata"
    combine_tessdata -u "$stock" "$dir/stock." >/dev/null 2>&1
    (cd "$T" && "$PY" -c 'import kor_text; print("\n".join(kor_text.dictionary_words()))') > "$dir/word.txt"
    (cd "$T" && "$PY" -c 'import kor_text; print("\n".join(kor_text.dictionary_words("train")))') > "$dir/word-heldout.txt"
    (cd "$T" && "$PY" -c 'import sys, kor_text; sys.stdout.writelines(w for w in open(sys.argv[1]) if not kor_text.in_dictionary_check(w.strip()))' \
        "$dir/word.txt") > "$dir/word-check.txt"
    for kind in punc number; do
        dawg2wordlist "$dir/stock.lstm-unicharset" "$dir/stock.lstm-$kind-dawg" "$dir/$kind.txt" >/dev/null 2>&1
        wordlist2dawg "$dir/$kind.txt" "$dir/kor-ink.lstm-$kind-dawg" "$dir/kor-ink.lstm-unicharset" >/dev/null 2>&1
    done
    rm -f "$dir"/stock.*
    local -A words=([check]=word-check [heldout]=word-heldout [dict]=word)
    for name in check heldout dict; do
        wordlist2dawg "$dir/${words[$name]}.txt" "$dir/kor-ink.lstm-word-dawg" "$dir/kor-ink.lstm-unicharset" >/dev/null 2>&1
        combine_tessdata "$dir/kor-ink." >/dev/null 2>&1
        cp "$dir/kor-ink.traineddata" "$dir/models/kor-ink-$name.traineddata"
    done
    local -A cer
    local ink file
    for ink in dev-kor dictcheck dev-kor-syll; do
        [[ -s "$WORK/ink/$ink.jsonl" ]] || continue
        file="$WORK/ink/$ink.jsonl"
        WORK="$dir" MODELS="$dir/models" SETS="$file" \
            SERVER_ARGS="--lang kor-ink-raw${BLOCK_MARGIN_SCALE:+ --block-margin-scale $BLOCK_MARGIN_SCALE}" \
            "$T/evaluate.sh" kor-ink-raw kor-ink-dict kor-ink-check > "$dir/eval-$ink.log" 2>&1
        for name in raw dict check; do
            cer[$ink-$name]="$(sed -n 's/^TOTAL.*CER= *\([0-9.]*\)%.*/\1/p' "$dir/eval-$ink-kor-ink-$name.txt" | tail -1)"
        done
    done
    log "held-out font, its texts (in the dictionary): ${cer[dev-kor-raw]} % without, ${cer[dev-kor-dict]} % with the dictionary"
    log "held-out font, words the dictionary leaves out: ${cer[dictcheck-raw]} % without, ${cer[dictcheck-check]} % with it"
    [[ -n "${cer[dev-kor-syll-raw]:-}" ]] && log "held-out font, random syllables: ${cer[dev-kor-syll-raw]} % without," \
        "${cer[dev-kor-syll-dict]} % with the dictionary (not part of the decision)"
    if awk -v r="${cer[dev-kor-raw]}" -v d="${cer[dev-kor-dict]}" -v cr="${cer[dictcheck-raw]}" -v cc="${cer[dictcheck-check]}" \
        'BEGIN { exit !(d < r && cc <= cr + 2) }'; then
        cp "$dir/models/kor-ink-dict.traineddata" "$ROOT/Models/kor-ink.traineddata"
        log "dictionary kept: $(wc -l < "$dir/word.txt") words, $(wc -l < "$dir/punc.txt") punctuation and" \
            "$(wc -l < "$dir/number.txt") number patterns"
    else
        cp "$dir/models/kor-ink-raw.traineddata" "$ROOT/Models/kor-ink.traineddata"
        log "dictionary not kept"
    fi
    log "installed Models/kor-ink.traineddata ($(stat -c %s "$ROOT/Models/kor-ink.traineddata") bytes)"
}

stages=("$@")
[[ ${#stages[@]} -gt 0 ]] || stages=(deps data render lstmf starter train finish dictionary)
for stage in "${stages[@]}"; do
    start=$SECONDS
    "stage_$stage"
    log "stage $stage: $((SECONDS - start)) s"
done
