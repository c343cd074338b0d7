import Geometry
import Ink

/// Corrections of Tesseract's reading that the ink itself justifies.
///
/// Tesseract was trained on print, and on pen ink it makes two kinds of mistake that the
/// strokes can settle:
/// - **Marks without a mark.** Reading a line image whole, the LSTM often ends a word with a
///   full stop, comma, colon or dash that nobody wrote (its box is a sliver at the end of the
///   last letter). A written mark of that kind is a small stroke of its own, so a mark symbol
///   with no small stroke under it is dropped.
/// - **Dash lengths.** Print distinguishes `-`, `–` and `—`; a pen does not, and a stroke that
///   came out long or wavy is read as `—` or, between digits, `~`. Such a dash is `-`; a dash
///   read twice over the same stroke (`-—`) is one.
enum RecognitionCleanup {
    /// Symbols that a writer draws as one small dot, tick or bar.
    static let marks: Set<String> = [".", ",", ":", ";", "'", "\"", "`", "’", "‘", "“", "”", "‚", "„",
                                     "-", "—", "–", "‒", "―", "−", "‐", "~", "_", "·", "•"]
    /// Dashes a pen cannot tell apart from `-`.
    static let dashes: Set<String> = ["—", "–", "‒", "―", "−", "‐"]
    /// A stroke at most this fraction of the line's ink height tall (in the image) is small
    /// enough to be a mark.
    static let markHeightRatio = 0.45
    /// How far (as a fraction of the ink height) a mark's stroke may lie outside its symbol box.
    static let markReachRatio = 0.25

    /// Cleans one piece of a line. `inkHeight` is the rendered ink height in pixels.
    static func clean(_ piece: inout LineReading.Piece, strokes: [Stroke], inkHeight: Double) {
        let smallStrokes = smallStrokeSpans(piece.image, strokes: strokes, maxHeight: markHeightRatio * inkHeight)
        let reach = markReachRatio * inkHeight
        var words: [RecognizedWord] = []
        for var word in piece.page.words {
            let symbols = word.symbols
            guard !symbols.isEmpty, symbols.map(\.text).joined() == word.text else {
                words.append(word)
                continue
            }
            var kept: [RecognizedSymbol] = []
            for var symbol in symbols {
                if marks.contains(symbol.text) {
                    let left = symbol.box.minX - reach, right = symbol.box.maxX + reach
                    guard smallStrokes.contains(where: { $0 >= left && $0 <= right }) else { continue }
                }
                if dashes.contains(symbol.text) { symbol.text = "-" }
                if symbol.text == "-", let previous = kept.last, previous.text == "-" || previous.text == "~",
                   overlap(previous.box, symbol.box) {
                    kept[kept.count - 1].text = "-"
                    continue
                }
                kept.append(symbol)
            }
            // A tilde between digits is a dash drawn with a wobble.
            for index in kept.indices where kept[index].text == "~" {
                if index > 0, index < kept.count - 1, isDigit(kept[index - 1].text), isDigit(kept[index + 1].text) {
                    kept[index].text = "-"
                }
            }
            guard !kept.isEmpty else { continue }
            word.symbols = kept
            word.text = kept.map(\.text).joined()
            words.append(word)
        }
        piece.page.words = words
        piece.page.text = TesseractPage.joinedText(of: words)
    }

    /// Horizontal centres (image pixels) of the piece's strokes that are no taller than
    /// `maxHeight` pixels once drawn.
    static func smallStrokeSpans(_ image: LineImage, strokes: [Stroke], maxHeight: Double) -> [Double] {
        let t = image.boardToImage
        var centres: [Double] = []
        for index in image.strokeIndexes {
            let stroke = strokes[index]
            guard stroke.pointCount > 0 else { continue }
            var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
            for point in 0..<stroke.pointCount {
                let x = t.a * stroke.x[point] + t.c * stroke.y[point] + t.tx
                let y = t.b * stroke.x[point] + t.d * stroke.y[point] + t.ty
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
            if maxY - minY <= maxHeight { centres.append((minX + maxX) / 2) }
        }
        return centres
    }

    static func overlap(_ a: Rect, _ b: Rect) -> Bool {
        let shared = min(a.maxX, b.maxX) - max(a.minX, b.minX)
        return shared > 0.5 * min(a.width, b.width)
    }

    static func isDigit(_ text: String) -> Bool {
        text.count == 1 && text.first.map { $0.isASCII && $0.isNumber } == true
    }
}
