import Geometry
import Ink

/// What Tesseract read in the images of one text line, and how that becomes a recognised line in
/// board coordinates with alternative readings.
struct LineReading {
    /// One image of the line and the page read from it.
    struct Piece {
        var image: LineImage
        var page: TesseractPage
    }

    static let maxCandidates = 5

    /// Left to right.
    var pieces: [Piece]

    /// Every word of every piece, in reading order.
    var words: [RecognizedWord] { pieces.flatMap(\.page.words).filter { !$0.text.isEmpty } }

    /// The line's text: words joined by single spaces.
    var text: String { words.map(\.text).joined(separator: " ") }

    /// Word confidences weighted by word length (as Tesseract's mean text confidence); 0 when
    /// nothing was read. This is what competing renderings of a line are ranked by.
    var confidence: Double {
        let words = self.words
        let characters = words.reduce(0) { $0 + $1.text.count }
        guard characters > 0 else { return 0 }
        return words.reduce(0.0) { $0 + $1.confidence * Double($1.text.count) } / Double(characters)
    }

    /// The recognised line: words with board boxes and the strokes that drew them.
    func line(strokes: [Stroke]) -> Recognition.Line {
        var lineBox: Rect?
        for piece in pieces {
            for index in piece.image.strokeIndexes {
                if let bounds = strokes[index].bounds { lineBox = lineBox.map { $0.union(bounds) } ?? bounds }
            }
        }
        let box = lineBox ?? Rect(x: 0, y: 0, width: 0, height: 0)
        var words: [Recognition.Word] = []
        for piece in pieces {
            words += Self.words(of: piece, strokes: strokes, clip: box)
        }
        return Recognition.Line(text: words.map(\.text).joined(separator: " "), confidence: confidence,
                                box: box, words: words)
    }

    /// The words of one piece. A word's box is Tesseract's box mapped back to the board and clipped
    /// to the line's ink (the pen's width can spill past it). Each stroke of the piece goes to
    /// exactly one word: the one whose horizontal extent holds most of its points (a point in
    /// several, the narrowest), or, for a stroke outside every word (a stray dot), the nearest.
    static func words(of piece: Piece, strokes: [Stroke], clip: Rect) -> [Recognition.Word] {
        let recognized = piece.page.words.filter { !$0.text.isEmpty }
        guard !recognized.isEmpty else { return [] }
        let members = strokeMembers(of: piece, strokes: strokes)
        return recognized.enumerated().map { w, word in
            let board = piece.image.imageToBoard.apply(to: word.box)
            return Recognition.Word(text: word.text, confidence: word.confidence,
                                    box: board.intersection(clip) ?? board, strokes: members[w].sorted())
        }
    }

    /// The strokes of each of the piece's words with text (in order), as `words(of:strokes:clip:)`
    /// assigns them.
    static func strokeMembers(of piece: Piece, strokes: [Stroke]) -> [[Int]] {
        let recognized = piece.page.words.filter { !$0.text.isEmpty }
        guard !recognized.isEmpty else { return [] }
        var members = [[Int]](repeating: [], count: recognized.count)
        let transform = piece.image.boardToImage
        for index in piece.image.strokeIndexes {
            let stroke = strokes[index]
            guard stroke.pointCount > 0 else { continue }
            var votes = [Int](repeating: 0, count: recognized.count)
            var sumX = 0.0
            for point in 0..<stroke.pointCount {
                let x = transform.a * stroke.x[point] + transform.c * stroke.y[point] + transform.tx
                sumX += x
                // Tesseract's box of a word can reach over the next words: a point inside
                // several boxes counts for the narrowest.
                var narrowest: Int?
                for (w, word) in recognized.enumerated() where x >= word.box.minX && x <= word.box.maxX {
                    if narrowest.map({ word.box.width < recognized[$0].box.width }) ?? true { narrowest = w }
                }
                if let narrowest { votes[narrowest] += 1 }
            }
            var best = votes.indices.max { votes[$0] < votes[$1] } ?? 0
            if votes[best] == 0 {
                let centre = sumX / Double(stroke.pointCount)
                best = recognized.indices.min {
                    gap(centre, recognized[$0].box) < gap(centre, recognized[$1].box)
                } ?? 0
            }
            members[best].append(index)
        }
        return members
    }

    /// Horizontal distance from `x` to a box (0 inside it).
    private static func gap(_ x: Double, _ box: Rect) -> Double {
        max(0, box.minX - x, x - box.maxX)
    }

    /// Readings that swap the least certain symbols for their runner-up choices that `hint`
    /// allows, best first; the first is the line's own text.
    func alternatives(hint: CharacterHint = .text) -> [Recognition.Candidate] {
        let words = self.words
        let text = self.text
        let confidence = self.confidence
        var candidates = [Recognition.Candidate(text: text, confidence: confidence)]
        var swaps: [(margin: Double, word: Int, symbol: Int, choice: SymbolChoice)] = []
        // A word whose symbols no longer spell it (respelled by the vocabulary) is kept whole.
        let spelled = words.map { word in
            let symbols = word.symbols.map(\.text)
            return symbols.joined() == word.text ? symbols : [word.text]
        }
        for (w, word) in words.enumerated() where spelled[w].count == word.symbols.count {
            for (s, symbol) in word.symbols.enumerated() {
                guard symbol.choices.count > 1 else { continue }
                for choice in symbol.choices where choice.text != symbol.text && hint.allows(choice.text) {
                    swaps.append((symbol.confidence - choice.confidence, w, s, choice))
                }
            }
        }
        swaps.sort { $0.margin < $1.margin }
        for swap in swaps where candidates.count < Self.maxCandidates {
            var variant = spelled
            variant[swap.word][swap.symbol] = swap.choice.text
            let alternative = variant.map { $0.joined() }.filter { !$0.isEmpty }.joined(separator: " ")
            guard !candidates.contains(where: { $0.text == alternative }) else { continue }
            candidates.append(Recognition.Candidate(text: alternative, confidence: max(0, confidence - max(0, swap.margin))))
        }
        return candidates
    }

    /// Whole-ink candidates: the best reading, then each line's alternatives with the other lines
    /// at their best, most confident first, at most `maxCandidates`, all distinct.
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
