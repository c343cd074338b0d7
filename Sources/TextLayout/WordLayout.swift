import Geometry

/// One word of a laid-out text: a run of characters between whitespace on one line, with the
/// boxes its characters are drawn in.
public struct TextWord: Sendable, Equatable {
    /// The line it is on (0 = first).
    public var line: Int
    /// Its characters (grapheme clusters) in the whole text, as `Array(text)` counts them.
    public var range: Range<Int>
    /// The word itself.
    public var text: String
    /// One box per character, in the coordinates of the text box it was laid out in: from where
    /// the character starts to where it ends, and from the line's ascent to its descent.
    public var boxes: [Rect]

    /// The union of its characters' boxes.
    public var bounds: Rect {
        boxes.dropFirst().reduce(boxes[0]) { $0.union($1) }
    }
}

/// Where a text's words are drawn, from the metrics its frame was fitted with (so a point on the
/// drawn text maps back to the word under it), and words taken out of a text.
///
/// Lines are placed in the text box as the sticker is drawn: each line by its `alignment` within
/// the box's width, its glyph box (ascent + descent) centred in its line box
/// (``TextMetrics/baselineY(line:)``). Lines past the metrics' line limit are not drawn and have
/// no words.
public enum WordLayout {
    /// The words of `text` as `metrics` measured it, laid out in `textBox`.
    ///
    /// A line whose characters do not match the measured ones one for one (it cannot happen for a
    /// text measured as it is, but a renderer's grapheme rules could differ) has no words: nothing
    /// is placed where it might not be.
    public static func words(of text: String, metrics: TextMetrics, in textBox: Rect,
                             alignment: TextAlignment) -> [TextWord] {
        var words: [TextWord] = []
        var lineCharacters: [(offset: Int, character: Character)] = []
        var line = 0
        let characters = Array(text)
        func finishLine() {
            defer { lineCharacters.removeAll(keepingCapacity: true); line += 1 }
            guard metrics.lines.indices.contains(line) else { return }
            let measured = metrics.lines[line]
            guard measured.characters.count == lineCharacters.count else { return }
            let left = textBox.x + slack(textBox.width - measured.width, alignment)
            let top = textBox.y + metrics.baselineY(line: line) - measured.ascent
            let height = measured.ascent + measured.descent
            var current: (start: Int, boxes: [Rect], text: String)?
            func flush(upTo end: Int) {
                if let word = current {
                    words.append(TextWord(line: line, range: word.start..<end, text: word.text, boxes: word.boxes))
                }
                current = nil
            }
            for (index, entry) in lineCharacters.enumerated() {
                if entry.character.isWhitespace {
                    flush(upTo: entry.offset)
                    continue
                }
                let extent = measured.characters[index]
                let box = Rect(x: left + min(extent.start, extent.end), y: top,
                               width: abs(extent.end - extent.start), height: height)
                if current == nil { current = (entry.offset, [], "") }
                current?.boxes.append(box)
                current?.text.append(entry.character)
            }
            flush(upTo: (lineCharacters.last?.offset ?? 0) + 1)
        }
        for (offset, character) in characters.enumerated() {
            if character == "\n" || character == "\r\n" {
                finishLine()
            } else if character != "\r" {
                lineCharacters.append((offset, character))
            }
        }
        finishLine()
        return words
    }

    /// `text` without the characters in `ranges` (words from ``words(of:metrics:in:alignment:)``),
    /// each with one space or tab next to it, the one after it, else the one before it, so that
    /// the words left keep one separator between them. A line that loses all its words goes with
    /// its line break (the one after it, else the one before it), so that crossing out a line
    /// leaves no blank line in its place; other line breaks, blank lines the text already had
    /// among them, stay.
    public static func removing(_ ranges: [Range<Int>], from text: String) -> String {
        // The lines, each with the offset of its first character and the break that ends it.
        var lines: [(start: Int, characters: [Character], lineBreak: Character?)] = []
        var current: [Character] = []
        var start = 0
        for (offset, character) in text.enumerated() {
            if character == "\n" || character == "\r\n" {
                lines.append((start, current, character))
                current = []
                start = offset + 1
            } else {
                current.append(character)
            }
        }
        lines.append((start, current, nil))

        func isSpace(_ character: Character) -> Bool { character == " " || character == "\t" }
        var kept: [(characters: [Character], lineBreak: Character?)] = []
        for line in lines {
            var characters = line.characters
            var touched = false
            // From the last word to the first, so the offsets of those still to remove stay valid
            // and a run of neighbouring words goes with the separators between them.
            var end = characters.count
            for range in ranges.sorted(by: { $0.lowerBound > $1.lowerBound }) {
                let local = (range.lowerBound - line.start)..<(range.upperBound - line.start)
                let clamped = local.clamped(to: 0..<min(end, characters.count))
                guard !clamped.isEmpty else { continue }
                touched = true
                characters.removeSubrange(clamped)
                let at = clamped.lowerBound
                if characters.indices.contains(at), isSpace(characters[at]) {
                    characters.remove(at: at)
                } else if characters.indices.contains(at - 1), isSpace(characters[at - 1]) {
                    characters.remove(at: at - 1)
                }
                end = at
            }
            if touched, characters.allSatisfy({ isSpace($0) || $0 == "\r" }) {
                // The line is gone with its break; the last line takes the break before it instead.
                if line.lineBreak == nil, !kept.isEmpty { kept[kept.count - 1].lineBreak = nil }
                continue
            }
            kept.append((characters, line.lineBreak))
        }
        var result = ""
        for line in kept {
            result.append(contentsOf: line.characters)
            if let lineBreak = line.lineBreak { result.append(lineBreak) }
        }
        return result
    }

    private static func slack(_ room: Double, _ alignment: TextAlignment) -> Double {
        switch alignment {
        case .left: 0
        case .center: room / 2
        case .right: room
        }
    }
}
