import Geometry
import Testing
import TextLayout

@Suite struct WordLayoutTests {
    let measurer = TextMeasurer(library: try! FontLibrary())

    @Test func wordsSitWhereTheMeasuredTextIsDrawn() throws {
        let text = "dolls and\nteddy bears"
        let metrics = try measurer.measure(text, size: 28)
        let box = Rect(x: 100, y: 50, width: metrics.width + 40, height: metrics.height)
        let words = WordLayout.words(of: text, metrics: metrics, in: box, alignment: .center)
        #expect(words.map(\.text) == ["dolls", "and", "teddy", "bears"])
        #expect(words.map(\.range) == [0..<5, 6..<9, 10..<15, 16..<21])
        #expect(words.map(\.line) == [0, 0, 1, 1])
        // Each word is as wide as the text measures alone (no kerning across a space in DejaVu's
        // pairs for these), and its line is centred in the box.
        for word in words {
            let alone = try measurer.measure(word.text, size: 28).width
            #expect(abs(word.bounds.width - alone) < 0.01, "\(word.text)")
        }
        let first = metrics.lines[0]
        #expect(abs(words[0].bounds.minX - (box.x + (box.width - first.width) / 2)) < 1e-9)
        #expect(abs(words[1].bounds.maxX - (box.x + (box.width + first.width) / 2)) < 1e-9)
        #expect(words[2].bounds.minY > words[0].bounds.minY)
        #expect(abs(words[0].bounds.height - (first.ascent + first.descent)) < 1e-9)
        // Left and right alignment move the lines to the box's edges.
        #expect(WordLayout.words(of: text, metrics: metrics, in: box, alignment: .left)[0].bounds.minX == box.x)
        let right = WordLayout.words(of: text, metrics: metrics, in: box, alignment: .right)
        #expect(abs(right[3].bounds.maxX - box.maxX) < 1e-9)
    }

    @Test func removingWordsKeepsOneSeparator() {
        let text = "dolls and teddy bears"
        #expect(WordLayout.removing([6..<9], from: text) == "dolls teddy bears")
        #expect(WordLayout.removing([0..<5], from: text) == "and teddy bears")
        #expect(WordLayout.removing([16..<21], from: text) == "dolls and teddy")
        #expect(WordLayout.removing([10..<15, 16..<21], from: text) == "dolls and")
        #expect(WordLayout.removing([0..<5, 6..<9, 10..<15, 16..<21], from: text) == "")
        #expect(WordLayout.removing([6..<9], from: "dolls and\nbears") == "dolls\nbears")
        #expect(WordLayout.removing([0..<2], from: "한글 👍🏽 ok") == "👍🏽 ok")
    }

    /// A line crossed out whole goes with its line break: no blank line is left where it was.
    @Test func aLineThatLosesAllItsWordsGoesWithItsBreak() {
        let text = "dolls and\nteddy bears"
        #expect(WordLayout.removing([0..<5, 6..<9], from: text) == "teddy bears")
        #expect(WordLayout.removing([10..<15, 16..<21], from: text) == "dolls and")
        #expect(WordLayout.removing([6..<9, 10..<15, 16..<21], from: text) == "dolls")
        #expect(WordLayout.removing([6..<9], from: "dolls\nand\nbears") == "dolls\nbears")
        #expect(WordLayout.removing([0..<5], from: "dolls\r\nbears") == "bears")
        #expect(WordLayout.removing([6..<11], from: "dolls\r\nbears") == "dolls", "a CR LF is one character")
        // Lines the removal does not touch stay as they were, blank ones too.
        #expect(WordLayout.removing([5..<6], from: "a\n\nb c") == "a\n\nb")
        #expect(WordLayout.removing([3..<4], from: "a\n\nb\nc") == "a\n\nc")
        #expect(WordLayout.removing([0..<5, 6..<9, 10..<15, 16..<21], from: text) == "")
    }
}
