import Ink

/// One recognition from strokes to `Recognition`, run on a worker thread with that worker's
/// Tesseract handles.
struct RecognitionPipeline: Sendable {
    let imager: LineImager
    let options: RecognitionOptions

    /// What every line of one request is read with.
    private struct Plan {
        var strokes: [Stroke]
        var imager: LineImager
        var typicalStrokeHeight: Double?
        var variants: [RenderVariant]
        /// Whether the later variants are read only when the first reading is unsure
        /// (`quality: auto`, `RecognitionOptions.rereadThreshold`); else always.
        var rereadsOnlyUnsure: Bool
        var mode: PageSegmentationMode
        var hint: CharacterHint
        /// The model file that reads it (`InkRecognizer` resolved the request's name).
        var model: String
        var glyph: Bool
        /// Whether Tesseract collects its per-symbol alternatives (about a tenth more time):
        /// under a character hint (the best allowed one is taken) and for `words` (a vocabulary
        /// word that they spell replaces the reading).
        var alternatives: Bool
        /// First readings shared with the request's other jobs (`auto`).
        var firstReadings: FirstReadings?
    }

    /// Reads `request`. A deadline that runs out before the reading itself has taken half of it
    /// was spent mostly waiting for a worker: that is the server being busy (`overloaded`, 503),
    /// not too much ink (`deadlineExceeded`, 422).
    func run(_ request: RecognitionRequest, context: WorkerContext, deadline: RecognitionDeadline) throws(OCRError) -> Recognition {
        let begun = ContinuousClock.now
        // A job that starts with no time left spent it all waiting: no work is done for it.
        guard (try? deadline.remaining()) != nil else { throw .overloaded(retryAfterSeconds: 1) }
        do {
            return try read(request, context: context, deadline: deadline)
        } catch .deadlineExceeded(let milliseconds) {
            guard ContinuousClock.now - begun >= .milliseconds(milliseconds) / 2 else { throw .overloaded(retryAfterSeconds: 1) }
            throw .deadlineExceeded(milliseconds: milliseconds)
        }
    }

    private func read(_ request: RecognitionRequest, context: WorkerContext, deadline: RecognitionDeadline) throws(OCRError) -> Recognition {
        let clock = ContinuousClock()
        let start = clock.now
        var ocrTime = Duration.zero
        let hint = request.charset ?? .text
        // The same imaging the training renderer (`inkrender`) uses, so the model reads what it learned from.
        let ink = RecognitionImaging(imager: imager, options: options).prepare(request.strokes, hint: hint)
        let plan = Plan(strokes: ink.imageStrokes, imager: ink.imager, typicalStrokeHeight: ink.lines.typicalStrokeHeight,
                        variants: options.renders(for: request.quality),
                        rereadsOnlyUnsure: request.quality == .auto,
                        mode: ink.mode, hint: hint, model: request.language, glyph: ink.isSingleGlyph,
                        alternatives: hint != .text || !request.words.isEmpty, firstReadings: request.firstReadings)
        let vocabulary = RecognitionVocabulary(request.words, options: options.vocabulary)

        var recognized: [Recognition.Line] = []
        var lineCandidates: [[Recognition.Candidate]] = []
        for line in ink.lines.lines {
            let readings = try read(line, plan, context: context, deadline: deadline, ocrTime: &ocrTime)
            guard var reading = LineReading.consensus(readings, confidenceWeight: options.consensusConfidenceWeight) else { continue }
            if plan.rereadsOnlyUnsure, readings.count == 1, plan.hint == .text, reading.words.count > 1 {
                rereadUnsureWords(of: &reading, boardStrokes: ink.strokes, plan, context: context, deadline: deadline,
                                  ocrTime: &ocrTime)
            }
            let asRead = reading.text
            if !vocabulary.isEmpty { reading.apply(vocabulary) }
            var result = reading.line(strokes: ink.strokes)
            guard !result.text.isEmpty else { continue }
            // Back to the request's strokes (repair may have cut some, and the strokes were put in
            // geometric order).
            for w in result.words.indices {
                result.words[w].strokes = Array(Set(result.words[w].strokes.map { ink.origin[$0] })).sorted()
            }
            recognized.append(result)
            var alternatives = reading.alternatives(hint: hint)
            // A reading the vocabulary changed keeps its original as the runner-up.
            if asRead != result.text, !alternatives.contains(where: { $0.text == asRead }) {
                alternatives.insert(Recognition.Candidate(text: asRead, confidence: result.confidence * 0.9),
                                    at: min(1, alternatives.count))
            }
            // What the other renderings read (an unsure line under `auto`, every line under `best`)
            // costs nothing more: the runners-up, surest first.
            for other in readings.sorted(by: { $0.confidence > $1.confidence }) where !other.text.isEmpty
                && !alternatives.contains(where: { $0.text == other.text }) {
                alternatives.append(Recognition.Candidate(text: other.text, confidence: min(other.confidence, result.confidence)))
            }
            lineCandidates.append(alternatives)
        }
        // A 1 in a digits field that the network read as a bracket, which the hint drops (`LoneStick`).
        if recognized.isEmpty, plan.glyph, hint == .digits, let one = LoneStick.one(ink.strokes, origin: ink.origin) {
            recognized = [one]
            lineCandidates = [[Recognition.Candidate(text: one.text, confidence: one.confidence)]]
        }
        let text = recognized.map(\.text).joined(separator: "\n")
        let confidence = Self.confidence(of: recognized)
        let total = clock.now - start
        return Recognition(text: text, confidence: confidence,
                           candidates: LineReading.combine(lineCandidates, text: text, confidence: confidence),
                           lines: recognized,
                           timings: Recognition.Timings(renderMs: (total - ocrTime).milliseconds, ocrMs: ocrTime.milliseconds))
    }

    /// One reading of the line per rendering variant (under `quality: auto`, the later ones only
    /// when the first is unsure). The first must finish within the deadline; later ones are a
    /// bonus, dropped when time runs out.
    private func read(_ line: [Int], _ plan: Plan, context: WorkerContext, deadline: RecognitionDeadline,
                      ocrTime: inout Duration) throws(OCRError) -> [LineReading] {
        let clock = ContinuousClock()
        var readings: [LineReading] = []
        for (attempt, variant) in plan.variants.enumerated() {
            if attempt == 1, plan.rereadsOnlyUnsure,
               readings[0].confidence >= options.rereadThreshold(hint: plan.hint, words: readings[0].words.count) { break }
            // A later rendering is a bonus: not even drawn when the time is up.
            if attempt > 0, (try? deadline.remaining()) == nil { break }
            if attempt == 0, let first = plan.firstReadings?[plan.model, line, variant] {
                readings.append(first)
                continue
            }
            let images = plan.imager.render(line: line, of: plan.strokes, typicalStrokeHeight: plan.typicalStrokeHeight,
                                            variant: variant)
            let before = clock.now
            defer { ocrTime += clock.now - before }
            do {
                var pieces: [LineReading.Piece] = []
                for image in images {
                    let page = try context.recognize(image.image, model: plan.model, pageSegmentationMode: plan.mode,
                                                     hint: plan.hint, deadline: try deadline.remaining(),
                                                     alternatives: plan.alternatives)
                    var piece = LineReading.Piece(image: image, page: page.page)
                    if options.cleansMarks {
                        RecognitionCleanup.clean(&piece, strokes: plan.strokes, inkHeight: plan.imager.drawn(variant).inkHeight)
                    }
                    // One glyph in a digits field is one digit: Tesseract sometimes reads a
                    // lone digit as two ("3" → "83"); the surer symbol is kept.
                    if plan.glyph, plan.hint == .digits { piece.keepMostConfidentSymbol() }
                    pieces.append(piece)
                }
                readings.append(LineReading(pieces: pieces))
                if attempt == 0 { plan.firstReadings?[plan.model, line, variant] = readings[0] }
            } catch .deadlineExceeded {
                guard attempt > 0 else { throw .deadlineExceeded(milliseconds: deadline.milliseconds) }
                break
            }
        }
        return readings
    }

    /// Under `quality: auto`, each word of a line of several words read with a confidence under
    /// `RecognitionOptions.lineRereadBelow` is read again on its own, from its strokes, in `render`
    /// and `rereadRenders`; the reading that those and the word as read in its line agree on most
    /// replaces it when it is surer than the word as read (its symbols are dropped). Reading a
    /// word again costs what the word costs, not what its line does. A bonus: it stops when time
    /// runs out. `boardStrokes` are the strokes the pieces' transforms map (`plan.strokes` are
    /// the ones drawn).
    private func rereadUnsureWords(of reading: inout LineReading, boardStrokes: [Stroke], _ plan: Plan,
                                   context: WorkerContext, deadline: RecognitionDeadline, ocrTime: inout Duration) {
        var alone = plan
        alone.variants = options.renders(for: .auto)
        alone.rereadsOnlyUnsure = false
        // (piece, word index in its page, the word's strokes), least confident first: when time
        // runs out, the surest are the ones left as read.
        var unsure: [(piece: Int, word: Int, strokes: [Int], confidence: Double)] = []
        for p in reading.pieces.indices {
            let words = reading.pieces[p].page.words
            let texted = words.indices.filter { !words[$0].text.isEmpty }
            // Strokes are assigned to words only where some word is unsure (never at the default 0).
            guard texted.contains(where: { words[$0].confidence < options.lineRereadBelow }) else { continue }
            let members = LineReading.strokeMembers(of: reading.pieces[p], strokes: boardStrokes)
            for (m, w) in texted.enumerated() where !members[m].isEmpty && words[w].confidence < options.lineRereadBelow {
                unsure.append((p, w, members[m].sorted(), words[w].confidence))
            }
        }
        unsure.sort { $0.confidence < $1.confidence }
        for (p, w, strokes, _) in unsure {
            let word = reading.pieces[p].page.words[w]
            var asRead = reading.pieces[p]
            asRead.page.words = [word]
            asRead.page.text = word.text
            let again: [LineReading]
            do {
                again = try read(strokes, alone, context: context, deadline: deadline, ocrTime: &ocrTime)
            } catch {
                return
            }
            guard let best = LineReading.consensus([LineReading(pieces: [asRead])] + again,
                                                   confidenceWeight: options.consensusConfidenceWeight),
                  !best.text.isEmpty, best.text != word.text, best.confidence > word.confidence else { continue }
            var corrected = word
            corrected.text = best.text
            corrected.confidence = best.confidence
            corrected.symbols = []
            reading.pieces[p].page.words[w] = corrected
        }
    }

    /// Line confidences weighted by their text length.
    static func confidence(of lines: [Recognition.Line]) -> Double {
        let characters = lines.reduce(0) { $0 + $1.text.count }
        guard characters > 0 else { return 0 }
        return lines.reduce(0.0) { $0 + $1.confidence * Double($1.text.count) } / Double(characters)
    }
}

extension LineReading.Piece {
    /// Reduces the page to its single most confident symbol.
    mutating func keepMostConfidentSymbol() {
        var best: (word: RecognizedWord, symbol: RecognizedSymbol)?
        for word in page.words {
            for symbol in word.symbols where best.map({ symbol.confidence > $0.symbol.confidence }) ?? true {
                best = (word, symbol)
            }
        }
        guard let best, page.words.count > 1 || page.words.first?.symbols.count ?? 0 > 1 else { return }
        var word = best.word
        word.symbols = [best.symbol]
        word.text = best.symbol.text
        word.box = best.symbol.box
        word.confidence = min(word.confidence, best.symbol.confidence)
        page.words = [word]
        page.text = word.text
    }
}

extension LineReading {
    /// The reading that agrees best with the others: the smallest sum of edit distances to the
    /// other readings (each relative to the longer text) minus `confidenceWeight` times its own
    /// confidence; the earlier reading wins a tie. With one or two readings this is the more
    /// confident one.
    ///
    /// Tesseract's confidence alone ranks renderings of handwriting poorly (each rendering is
    /// confidently wrong in its own way); readings that several renderings agree on are right
    /// more often.
    static func consensus(_ readings: [LineReading], confidenceWeight: Double) -> LineReading? {
        guard readings.count > 1 else { return readings.first }
        let texts = readings.map { Array($0.text) }
        var best: (score: Double, index: Int)?
        for (i, text) in texts.enumerated() {
            var score = -confidenceWeight * readings[i].confidence
            for (j, other) in texts.enumerated() where j != i {
                let length = max(text.count, other.count, 1)
                score += Double(RecognitionVocabulary.editDistance(text, other, choices: nil)) / Double(length)
            }
            if best.map({ score < $0.score - 1e-9 }) ?? true { best = (score, i) }
        }
        return best.map { readings[$0.index] }
    }

    /// Replaces words by vocabulary words where `vocabulary` finds the evidence for it. A
    /// replaced word keeps its confidence and box; its symbols are respelled when the lengths
    /// agree and dropped otherwise.
    mutating func apply(_ vocabulary: RecognitionVocabulary) {
        for p in pieces.indices {
            for w in pieces[p].page.words.indices {
                let word = pieces[p].page.words[w]
                guard let replacement = vocabulary.replacement(for: word) else { continue }
                var corrected = word
                corrected.text = replacement
                if word.symbols.count == replacement.count && word.symbols.allSatisfy({ $0.text.count == 1 }) {
                    for (s, character) in replacement.enumerated() { corrected.symbols[s].text = String(character) }
                } else {
                    corrected.symbols = []
                }
                pieces[p].page.words[w] = corrected
            }
        }
    }
}
