import Testing
import TextLayout

@Suite("TextMeasurer")
struct TextMeasurerTests {
    /// Relative comparison for values that went through different (but exact-in-theory) arithmetic.
    static func close(_ a: Double, _ b: Double, tolerance: Double = 1e-9) -> Bool {
        abs(a - b) <= tolerance * max(1, abs(a), abs(b))
    }

    @Test("widths are the font's design units scaled by size / unitsPerEm")
    func designUnits() throws {
        let measurer = try Fixtures.measurer()
        // DejaVu Sans Bold 2.37 (read from its hmtx and kern tables with fontTools): A and V advance 1585 units,
        // the kern pair A,V is -139, the em is 2048 units. At 1024 pt one unit is half a point.
        #expect(try measurer.measure("A", family: .sansBold, size: 1024).width == 1585.0 / 2)
        #expect(try measurer.measure("AV", family: .sansBold, size: 1024).width == (1585.0 + 1585 - 139) / 2)
    }

    @Test("the kerning pair AV is narrower than A plus V")
    func kerningPair() throws {
        let measurer = try Fixtures.measurer()
        for family in [FontFamily.sans, .sansBold, .serif, .serifBold] {
            let a = try measurer.measure("A", family: family, size: 28).width
            let v = try measurer.measure("V", family: family, size: 28).width
            let av = try measurer.measure("AV", family: family, size: 28).width
            #expect(av < a + v, "\(family)")
        }
        // DejaVu Sans Mono has no kern table: a monospaced font must not kern.
        let a = try measurer.measure("A", family: .mono, size: 28).width
        let v = try measurer.measure("V", family: .mono, size: 28).width
        #expect(try measurer.measure("AV", family: .mono, size: 28).width == a + v)
    }

    @Test("a monospaced face gives every ASCII character the same advance")
    func monospaced() throws {
        let measurer = try Fixtures.measurer()
        let one = try measurer.measure("i", family: .mono, size: 20).width
        for text in ["iiiiiiii", "WWWWWWWW", "12345678", "a b.c,d!"] {
            let width = try measurer.measure(text, family: .mono, size: 20).width
            #expect(Self.close(width, 8 * one), "\(text)")
        }
    }

    @Test("appending characters never makes a line narrower", arguments: FontFamily.allCases)
    func monotonicGrowth(family: FontFamily) throws {
        let measurer = try Fixtures.measurer()
        var generator = SplitMix64(seed: 0xC0FFEE ^ UInt64(family.rawValue.utf8.count))
        for _ in 0..<40 {
            var text = ""
            var previous = 0.0
            for _ in 0..<30 {
                text.append(Fixtures.printableASCII.randomElement(using: &generator) ?? "x")
                let width = try measurer.measure(text, family: family, size: 28).width
                #expect(width > previous, "\(family) \(text.debugDescription)")
                previous = width
            }
        }
    }

    @Test("tracking adds (characters − 1) × tracking")
    func tracking() throws {
        let measurer = try Fixtures.measurer()
        for text in ["A", "AV", "Sticker", "two words", "WAVE."] {
            let plain = try measurer.measure(text, size: 28).width
            for tracking in [-1.5, 0.5, 3.0] {
                let tracked = try measurer.measure(text, size: 28, tracking: tracking).width
                #expect(Self.close(tracked - plain, Double(text.count - 1) * tracking), "\(text) \(tracking)")
            }
        }
    }

    @Test("tracking goes between grapheme clusters, not inside one")
    func trackingByCluster() throws {
        let measurer = try Fixtures.measurer()
        // e + COMBINING ACUTE ACCENT is one character: no tracking inside it.
        let decomposed = "e\u{301}"
        let plain = try measurer.measure(decomposed, size: 28).width
        #expect(try measurer.measure(decomposed, size: 28, tracking: 10).width == plain)
        // Two of them are two characters: one gap.
        let two = try measurer.measure(decomposed + decomposed, size: 28).width
        #expect(Self.close(try measurer.measure(decomposed + decomposed, size: 28, tracking: 10).width, two + 10))
    }

    @Test("with tracking that steps back over the characters, a line is as wide as the span they cover")
    func negativeTrackingSpans() throws {
        let measurer = try Fixtures.measurer()
        let advance = try measurer.measure("i", size: 10).width
        // Each "i" starts 100 points left of where the one before ended: from the last one's start
        // to the first one's end.
        let metrics = try measurer.measure("iiii", size: 10, tracking: -100)
        #expect(Self.close(metrics.width, 300 - 2 * advance), "\(metrics.width)")
        // Tracking that only tightens is still subtracted as before.
        #expect(Self.close(try measurer.measure("iiii", size: 10, tracking: -1).width, 4 * advance - 3))
    }

    @Test("width and height scale linearly with size")
    func linearScaling() throws {
        let measurer = try Fixtures.measurer()
        for text in ["Hello", "AVAVAV", "Ink\nSticker", "1/2 + 3:4"] {
            for family in FontFamily.allCases {
                let base = try measurer.measure(text, family: family, size: 7)
                for factor in [2.0, 3.5, 64.0] {
                    let scaled = try measurer.measure(text, family: family, size: 7 * factor)
                    #expect(Self.close(scaled.width, base.width * factor), "\(text) \(family) ×\(factor)")
                    #expect(Self.close(scaled.height, base.height * factor), "\(text) \(family) ×\(factor)")
                }
            }
        }
    }

    @Test("two lines are twice the line height; width is the widest line")
    func twoLines() throws {
        let measurer = try Fixtures.measurer()
        let natural = try Fixtures.library.get().verticalMetrics(family: .sansBold, size: 28).lineHeight
        let metrics = try measurer.measure("Ink\nStickers", size: 28)
        #expect(metrics.lineCount == 2)
        #expect(metrics.lineHeight == natural)
        #expect(Self.close(metrics.height, 2 * natural))
        let first = try measurer.measure("Ink", size: 28).width
        let second = try measurer.measure("Stickers", size: 28).width
        #expect(metrics.lines.map(\.width) == [first, second])
        #expect(metrics.width == max(first, second))

        let explicit = try measurer.measure("Ink\nStickers", size: 28, lineHeight: 40)
        #expect(explicit.height == 80)
        #expect(explicit.lineHeight == 40)
    }

    @Test("\\r\\n separates lines like \\n, and a trailing newline opens an empty line")
    func lineSeparators() throws {
        let measurer = try Fixtures.measurer()
        let unix = try measurer.measure("ab\ncd", size: 28)
        let windows = try measurer.measure("ab\r\ncd", size: 28)
        #expect(unix == windows)
        let trailing = try measurer.measure("ab\n", size: 28)
        #expect(trailing.lineCount == 2)
        #expect(trailing.lines.last?.width == 0)
    }

    @Test("an empty text is one empty line")
    func emptyText() throws {
        let metrics = try Fixtures.measurer().measure("", size: 28)
        #expect(metrics.lineCount == 1)
        #expect(metrics.width == 0)
        #expect(metrics.height == metrics.lineHeight)
    }

    @Test("lineLimit keeps the first lines and reports the rest as truncated")
    func lineLimit() throws {
        let measurer = try Fixtures.measurer()
        let text = "a\nbb\nWWWWWWWW\nccc"
        let all = try measurer.measure(text, size: 28)
        #expect(all.lineCount == 4)
        #expect(all.truncatedLineCount == 0)

        let two = try measurer.measure(text, size: 28, lineLimit: 2)
        #expect(two.lineCount == 2)
        #expect(two.truncatedLineCount == 2)
        #expect(Self.close(two.height, 2 * two.lineHeight))
        // The long third line is cut, so it does not widen the text.
        #expect(two.width == (try measurer.measure("bb", size: 28).width))
        #expect(two.width < all.width)

        // A limit at or above the line count changes nothing.
        #expect(try measurer.measure(text, size: 28, lineLimit: 4) == all)
        #expect(try measurer.measure(text, size: 28, lineLimit: 9) == all)
    }

    @Test("line placement follows alignment and centres the glyph box in the line box")
    func placement() throws {
        let metrics = try Fixtures.measurer().measure("WWWW\nii", size: 28, lineHeight: 50)
        let slack = metrics.width - metrics.lines[1].width
        #expect(slack > 0)
        #expect(metrics.lineOriginX(line: 1, alignment: .left) == 0)
        #expect(metrics.lineOriginX(line: 1, alignment: .center) == slack / 2)
        #expect(metrics.lineOriginX(line: 1, alignment: .right) == slack)
        #expect(metrics.lineOriginX(line: 0, alignment: .right) == 0)
        let line = metrics.lines[0]
        let top = metrics.baselineY(line: 0) - line.ascent
        let bottom = metrics.baselineY(line: 0) + line.descent
        #expect(Self.close(top, 50 - bottom))
        #expect(Self.close(metrics.baselineY(line: 1) - metrics.baselineY(line: 0), 50))
    }

    @Test("characters DejaVu lacks measure as .notdef without a fallback face")
    func notdefWithoutFallback() throws {
        let measurer = try Fixtures.measurerWithoutFallback()
        let one = try measurer.measure("한", size: 28)
        let two = try measurer.measure("한글", size: 28)
        #expect(one.missingGlyphCount == 1)
        #expect(two.missingGlyphCount == 2)
        #expect(one.width > 0)
        #expect(Self.close(two.width, 2 * one.width))
        // Every missing character gets the same box: a private-use character measures like a syllable.
        #expect(try measurer.measure("\u{E000}", size: 28).width == one.width)
    }

    @Test("Hangul measures with the Nanum fallback face when fonts-nanum is installed",
          .enabled(if: Fixtures.hasNanum, "needs Debian's fonts-nanum"))
    func hangulFallback() throws {
        let measurer = try Fixtures.measurer()
        let notdef = try Fixtures.measurerWithoutFallback().measure("한", size: 28).width
        let metrics = try measurer.measure("한글", size: 28)
        #expect(metrics.fallbackGlyphCount == 2)
        #expect(metrics.missingGlyphCount == 0)
        #expect(metrics.width > 0)
        #expect(metrics.width != 2 * notdef)
        // Hangul syllables are set on a uniform advance in Nanum, so two measure twice one.
        #expect(Self.close(metrics.width, 2 * (try measurer.measure("글", size: 28).width)))
        // Syllables typed as conjoining jamo measure as the syllables a renderer draws from them.
        let jamo = "\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF}"  // 한글, decomposed
        #expect(Self.close(try measurer.measure(jamo, size: 28).width, metrics.width))
        // Mixed text: the Latin part keeps DejaVu, the Hangul part adds Nanum's advances.
        let mixed = try measurer.measure("Ink 한글", size: 28).width
        let latin = try measurer.measure("Ink ", size: 28).width
        #expect(Self.close(mixed, latin + metrics.width))
        // Scaling stays linear across faces with different ems (Nanum uses 1000 units, DejaVu 2048).
        #expect(Self.close(try measurer.measure("Ink 한글", size: 56).width, 2 * mixed))
    }

    @Test("controls and default-ignorable scalars no face has take no room")
    func ignorables() throws {
        let measurer = try Fixtures.measurerWithoutFallback()
        let ab = try measurer.measure("a", size: 28).width + (try measurer.measure("b", size: 28).width)
        let withBell = try measurer.measure("a\u{7}b", size: 28)
        #expect(withBell.width == ab)
        #expect(withBell.missingGlyphCount == 0)
        // VARIATION SELECTOR-16 after a character DejaVu has adds nothing either.
        #expect(try measurer.measure("a\u{FE0F}", size: 28).width == (try measurer.measure("a", size: 28).width))
    }

    @Test("invalid arguments are typed errors naming the argument")
    func invalidArguments() throws {
        let measurer = try Fixtures.measurer()
        func argument(_ body: () throws -> TextMetrics) -> String? {
            do {
                _ = try body()
                return nil
            } catch let error as TextLayoutError {
                if case let .invalidArgument(name, _, _) = error { return name }
                return "\(error)"
            } catch {
                return "\(error)"
            }
        }
        #expect(argument { try measurer.measure("x", size: 0) } == "size")
        #expect(argument { try measurer.measure("x", size: .nan) } == "size")
        #expect(argument { try measurer.measure("x", size: 5000) } == "size")
        #expect(argument { try measurer.measure("x", size: 28, tracking: .infinity) } == "tracking")
        #expect(argument { try measurer.measure("x", size: 28, lineHeight: 0) } == "lineHeight")
        #expect(argument { try measurer.measure("x", size: 28, lineLimit: -1) } == "lineLimit")
        let long = String(repeating: "x", count: 16_385)
        let error = #expect(throws: TextLayoutError.self) { try measurer.measure(long, size: 28) }
        #expect(error == .textTooLong(utf8Bytes: 16_385, limit: 16_384))
    }

    @Test("concurrent measurements on cold caches agree with sequential ones")
    func concurrency() async throws {
        // A private library, so its caches are filled by the concurrent tasks, not by other tests.
        let measurer = TextMeasurer(library: try FontLibrary())
        let texts = (0..<64).map { "Sticker \($0) AV 한글 \($0 * 7) \(Character(Unicode.Scalar(0x400 + $0) ?? "x"))" }
        let results = try await withThrowingTaskGroup(of: (Int, Double).self) { group in
            for (index, text) in texts.enumerated() {
                group.addTask { (index, try measurer.measure(text, size: 28).width) }
            }
            var widths = [Double](repeating: -1, count: texts.count)
            for try await (index, width) in group { widths[index] = width }
            return widths
        }
        let expected = try texts.map { try measurer.measure($0, size: 28).width }
        #expect(results == expected)
    }
}
