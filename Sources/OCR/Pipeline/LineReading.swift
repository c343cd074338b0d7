import Ink

/// Turns a Tesseract page for one line image into a recognised line in board coordinates, and
/// derives alternative readings from the per-symbol choices.
enum LineReading {
    static let maxCandidates = 5

    static func assemble(_ page: TesseractPage, line: LineImage, strokes: [Stroke]) -> (Recognition.Line, [Recognition.Candidate]) {
        guard let boardToImage = line.imageToBoard.inverted() else {
            return (Recognition.Line(text: "", confidence: 0, box: Rect(x: 0, y: 0, width: 0, height: 0), words: []), [])
        }
        // Each stroke's centre in image pixels, to assign strokes to the word boxes that hold them.
        let centres: [(index: Int, point: Point)] = line.strokeIndexes.compactMap { index in
            guard let bounds = strokes[index].bounds else { return nil }
            return (index, boardToImage.apply(to: bounds.center))
        }
        var words: [Recognition.Word] = []
        for word in page.words where !word.text.isEmpty {
            let pixelBox = Rect(x: Double(word.box.left), y: Double(word.box.top),
                                width: Double(word.box.width), height: Double(word.box.height))
            let grown = Rect(x: pixelBox.x - 2, y: pixelBox.y - 100, width: pixelBox.width + 4, height: pixelBox.height + 200)
            let members = centres.filter { grown.contains($0.point) }.map(\.index)
            words.append(Recognition.Word(text: word.text, confidence: word.confidence,
                                          box: line.imageToBoard.apply(to: pixelBox), strokes: members))
        }
        assignOrphans(centres, to: &words, boardToImage: boardToImage, imageToBoard: line.imageToBoard)
        let text = words.map(\.text).joined(separator: " ")
        let confidence = words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
        var box: Rect?
        for index in line.strokeIndexes {
            if let b = strokes[index].bounds { box = box.map { $0.union(b) } ?? b }
        }
        let result = Recognition.Line(text: text, confidence: confidence,
                                      box: box ?? Rect(x: 0, y: 0, width: 0, height: 0), words: words)
        return (result, alternatives(page, text: text, confidence: confidence))
    }

    /// Strokes outside every word box (a stray dot) go to the nearest word, so each stroke belongs to one word.
    private static func assignOrphans(_ centres: [(index: Int, point: Point)], to words: inout [Recognition.Word],
                                      boardToImage: AffineTransform, imageToBoard: AffineTransform) {
        guard !words.isEmpty else { return }
        let assigned = Set(words.flatMap(\.strokes))
        for (index, point) in centres where !assigned.contains(index) {
            var best = 0
            var bestDistance = Double.infinity
            for (i, word) in words.enumerated() {
                let c = boardToImage.apply(to: word.box.center)
                let d = abs(c.x - point.x)
                if d < bestDistance { bestDistance = d; best = i }
            }
            words[best].strokes.append(index)
            words[best].strokes.sort()
        }
    }

    /// Readings that swap the least certain symbols for their runner-up choices, best first.
    static func alternatives(_ page: TesseractPage, text: String, confidence: Double) -> [Recognition.Candidate] {
        var candidates = [Recognition.Candidate(text: text, confidence: confidence)]
        var swaps: [(margin: Double, word: Int, symbol: Int, choice: SymbolChoice)] = []
        for (w, word) in page.words.enumerated() {
            for (s, symbol) in word.symbols.enumerated() {
                let choices = symbol.choices.sorted { $0.confidence > $1.confidence }
                guard choices.count > 1, let top = choices.first else { continue }
                for choice in choices.dropFirst() where choice.text != symbol.text {
                    swaps.append((top.confidence - choice.confidence, w, s, choice))
                }
            }
        }
        swaps.sort { $0.margin < $1.margin }
        for swap in swaps where candidates.count < maxCandidates {
            var words = page.words.map { $0.symbols.map(\.text) }
            words[swap.word][swap.symbol] = swap.choice.text
            let alternative = words.map { $0.joined() }.filter { !$0.isEmpty }.joined(separator: " ")
            guard !candidates.contains(where: { $0.text == alternative }) else { continue }
            candidates.append(Recognition.Candidate(text: alternative, confidence: max(0, confidence - swap.margin)))
        }
        return candidates
    }

    /// Whole-ink candidates: the best reading, then each line's alternatives with the other lines at their best.
    static func combine(_ lines: [[Recognition.Candidate]], text: String, confidence: Double) -> [Recognition.Candidate] {
        guard !lines.isEmpty else { return [] }
        var result = [Recognition.Candidate(text: text, confidence: confidence)]
        let best = lines.map { $0.first?.text ?? "" }
        var pool: [(Double, String)] = []
        for (i, alternatives) in lines.enumerated() {
            for alternative in alternatives.dropFirst() {
                var texts = best
                texts[i] = alternative.text
                pool.append((alternative.confidence, texts.joined(separator: "\n")))
            }
        }
        for (score, candidate) in pool.sorted(by: { $0.0 > $1.0 }) where result.count < maxCandidates {
            if !result.contains(where: { $0.text == candidate }) {
                result.append(Recognition.Candidate(text: candidate, confidence: min(score, confidence)))
            }
        }
        return result
    }
}
