import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import InkStickerApp
import Testing

/// Board pictures: SVG that is valid XML with escaped text, and the recogniser's images as PNG.
@Suite(.serialized) struct RenderTests {
    @Test func boardRendersAsValidSVGWithOutlinedLabelsFieldsAndInk() throws {
        let harness = try ServiceHarness()
        let client = harness.client
        let sample = try TestPaths.sample("print.jsonl", id: "d1-00005")
        let (token, base) = try client.newBoard()
        let first = try client.request("POST", base + "/stickers", json: ["strokes": sample.strokes], token: token)
        let id = first.json["id"] as? String ?? ""
        _ = try client.request("PATCH", base + "/stickers/\(id)", json: ["text": "a < b & \"c\"\nline 2",
                                                                          "style": ["strokeWidth": 3, "strokeColor": "#112233", "fillColor": "#FFFFFF"]], token: token)
        _ = try client.request("POST", base + "/stickers/\(id)/commit", token: token)
        _ = try client.request("POST", base + "/stickers", json: ["strokes": sample.strokes, "target": "new", "center": ["x": 0, "y": 0]], token: token)

        let svg = try client.request("GET", base + "/render.svg?ink=1", token: token)
        #expect(svg.status == 200)
        #expect(svg.header("Content-Type")?.hasPrefix("image/svg+xml") == true)
        let document = try XMLDocument(data: svg.body)
        let root = try #require(document.rootElement())
        #expect(root.name == "svg")
        let label = try #require(try root.nodes(forXPath: "//*[@class='label']/*[local-name()='text']").first as? XMLElement)
        func attribute(_ name: String) -> String? { label.attributes?.first { $0.name == name }?.stringValue }
        #expect(attribute("paint-order") == "stroke")
        #expect(attribute("stroke") == "#112233")
        #expect(attribute("stroke-width") == "6")
        // The faces the frame was measured with: DejaVu, and Nanum for the characters it lacks (Hangul).
        #expect(attribute("font-family") == "'DejaVu Sans', 'NanumGothic', sans-serif")
        let spans = label.children?.compactMap { $0.stringValue } ?? []
        #expect(spans == ["a < b & \"c\"", "line 2"])
        #expect(try root.nodes(forXPath: "//*[@class='field']/*[local-name()='rect']").count == 1)
        let paths = try root.nodes(forXPath: "//*[local-name()='path']")
        #expect(paths.count == 2 * ((sample.strokes as? [Any])?.count ?? 0))
        #expect(try client.request("GET", base + "/render.svg", token: "wrong").status == 401)
    }

    @Test func inkPNGIsWhatTheRecogniserSaw() throws {
        let harness = try ServiceHarness()
        let client = harness.client
        let sample = try TestPaths.sample("print.jsonl", id: "d1-00005")
        let (token, base) = try client.newBoard()
        let created = try client.request("POST", base + "/stickers", json: ["strokes": sample.strokes], token: token)
        let png = try client.request("GET", base + "/stickers/\(created.json["id"] as? String ?? "")/ink.png", token: token)
        #expect(png.status == 200)
        #expect(png.header("Content-Type") == "image/png")
        #expect(Array(png.body.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // IHDR: width and height big-endian at bytes 16..23; one line of about 24 px ink plus padding.
        let bytes = Array(png.body)
        let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        #expect(height > 20 && height < 80, "height \(height)")
        #expect(width > height)

        // The same images for ink that is only being recognised.
        let debug = try client.request("POST", "/v1/recognize?debug=png", json: ["strokes": sample.strokes])
        #expect(debug.status == 200)
        #expect(debug.header("Content-Type") == "image/png")
        #expect(debug.body == png.body)
    }

    /// `--text-width-scale` and `--long-text-width-scale` reach the recogniser's imaging: the same
    /// text drawn at 1 and at 1.25 differs in width by that factor (apart from the margins), not
    /// in height.
    @Test func textWidthScaleOptionStretchesWhatTheRecogniserSees() throws {
        let sample = try TestPaths.sample("print.jsonl", id: "d1-00005")
        func size(_ arguments: [String]) throws -> (width: Int, height: Int) {
            let configuration = try AppOptions.parse(arguments: arguments, environment: [:])
            let harness = try ServiceHarness {
                $0.textWidthScale = configuration.textWidthScale
                $0.longTextWidthScale = configuration.longTextWidthScale
            }
            let png = try harness.client.request("POST", "/v1/recognize?debug=png", json: ["strokes": sample.strokes])
            #expect(png.status == 200)
            let bytes = Array(png.body)
            return (bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, bytes[20..<24].reduce(0) { $0 << 8 | Int($1) })
        }
        // The long-line stretch set to the same value, so that the line's length does not matter.
        let plain = try size(["--text-width-scale", "1", "--long-text-width-scale", "1"])
        let stretched = try size(["--long-text-width-scale", "1.25"])
        #expect(stretched.height == plain.height)
        // Margins: 2 × (0.25 + 0.04) × 24 px, not stretched.
        let ratio = (Double(stretched.width) - 13.9) / (Double(plain.width) - 13.9)
        #expect(abs(ratio - 1.25) < 0.03, "widths \(plain.width) and \(stretched.width)")
        #expect(throws: OptionError.self) { try AppOptions.parse(arguments: ["--text-width-scale", "3"], environment: [:]) }
        #expect(throws: OptionError.self) { try AppOptions.parse(arguments: ["--numeric-width-scale", "x"], environment: [:]) }
        #expect(throws: OptionError.self) { try AppOptions.parse(arguments: ["--long-text-width-scale", "0.2"], environment: [:]) }
        #expect(try AppOptions.parse(arguments: ["--long-text-width-scale", "1.5"], environment: [:]).recognitionOptions.longTextWidthScale == 1.5)
    }

    /// How unsure a word must be for `hints.words` to replace it on distance alone reaches the
    /// recogniser, by flag or environment, within 0...1.
    @Test func wordsLowConfidenceReachesTheVocabulary() throws {
        #expect(try AppOptions.parse(arguments: [], environment: [:]).recognitionOptions.vocabulary.lowConfidence == 0.3)
        #expect(try AppOptions.parse(arguments: ["--words-low-confidence", "0.7"], environment: [:]).recognitionOptions.vocabulary.lowConfidence == 0.7)
        #expect(try AppOptions.parse(arguments: [], environment: ["INKSTICKER_WORDS_LOW_CONFIDENCE": "0.5"]).recognitionOptions.vocabulary.lowConfidence == 0.5)
        #expect(throws: OptionError.self) { try AppOptions.parse(arguments: ["--words-low-confidence", "1.5"], environment: [:]) }
        #expect(throws: OptionError.self) { try AppOptions.parse(arguments: ["--words-low-confidence", "x"], environment: [:]) }
    }

    /// How unsure a line's first reading must be to be read again reaches the recogniser, by flag
    /// or environment, within 0...1.
    @Test func rereadBelowReachesTheRecogniser() throws {
        let defaults = try AppOptions.parse(arguments: [], environment: [:]).recognitionOptions
        #expect(defaults.textRereadBelow == 0.4 && defaults.lineRereadBelow == 0.5 && defaults.numberRereadBelow == 0.9)
        #expect(try AppOptions.parse(arguments: ["--line-reread-below", "0.3"], environment: [:]).recognitionOptions.lineRereadBelow == 0.3)
        #expect(try AppOptions.parse(arguments: ["--reread-below", "0"], environment: [:]).recognitionOptions.textRereadBelow == 0)
        #expect(try AppOptions.parse(arguments: ["--number-reread-below", "0.7"], environment: [:]).recognitionOptions.numberRereadBelow == 0.7)
        #expect(try AppOptions.parse(arguments: [], environment: ["INKSTICKER_REREAD_BELOW": "0.8"]).recognitionOptions.textRereadBelow == 0.8)
        #expect(try AppOptions.parse(arguments: [], environment: ["INKSTICKER_NUMBER_REREAD_BELOW": "1"]).recognitionOptions.numberRereadBelow == 1)
        #expect(throws: OptionError.self) { try AppOptions.parse(arguments: ["--reread-below", "1.5"], environment: [:]) }
        #expect(throws: OptionError.self) { try AppOptions.parse(arguments: ["--reread-below", "half"], environment: [:]) }
    }

    /// The margin and height of Korean lines reach the recogniser, by flag or environment, within
    /// their ranges.
    @Test func blockScaleOptionsReachTheRecogniser() throws {
        let defaults = try AppOptions.parse(arguments: [], environment: [:]).recognitionOptions
        #expect(defaults.blockInkScale == .model && defaults.blockMarginScale == 1)
        #expect(try AppOptions.parse(arguments: ["--block-ink-scale", "1.2632"], environment: [:]).recognitionOptions.blockInkScale == .fixed(1.2632))
        #expect(try AppOptions.parse(arguments: [], environment: ["INKSTICKER_BLOCK_INK_SCALE": "1.5"]).recognitionOptions.blockInkScale == .fixed(1.5))
        #expect(try AppOptions.parse(arguments: ["--block-ink-scale", "model"], environment: ["INKSTICKER_BLOCK_INK_SCALE": "1.5"]).recognitionOptions.blockInkScale == .model)
        #expect(try AppOptions.parse(arguments: ["--block-margin-scale", "0.25"], environment: [:]).recognitionOptions.blockMarginScale == 0.25)
        #expect(throws: OptionError.self) { try AppOptions.parse(arguments: ["--block-ink-scale", "0.8"], environment: [:]) }
        #expect(throws: OptionError.self) { try AppOptions.parse(arguments: ["--block-ink-scale", "x"], environment: [:]) }
    }

    /// Coarse ink is smoothed unless the operator says to keep it, by flag or environment.
    @Test func coarseInkOptionReachesTheRecogniser() throws {
        #expect(try AppOptions.parse(arguments: [], environment: [:]).recognitionOptions.smoothsCoarseInk)
        #expect(try !AppOptions.parse(arguments: ["--coarse-ink", "keep"], environment: [:]).recognitionOptions.smoothsCoarseInk)
        #expect(try !AppOptions.parse(arguments: [], environment: ["INKSTICKER_COARSE_INK": "keep"]).recognitionOptions.smoothsCoarseInk)
        #expect(throws: OptionError.self) { try AppOptions.parse(arguments: ["--coarse-ink", "blur"], environment: [:]) }
    }

    /// The debug images go through the recogniser's own imaging, stroke repair included: a
    /// stroke with an untracked pen jump between two scribbles gives the same images as the two
    /// scribbles sent as separate strokes (drawn as sent, the jump would be a long line).
    @Test func debugPNGShowsRepairedInk() throws {
        let harness = try ServiceHarness()
        var xs: [Double] = [], ys: [Double] = []
        for i in 0..<40 { xs.append(Double(i) * 2); ys.append(i % 4 < 2 ? 0 : 10) }
        for i in 0..<40 { xs.append(300 + Double(i) * 2); ys.append(i % 4 < 2 ? 0 : 10) }
        let jumped: [[String: Any]] = [["x": xs, "y": ys]]
        let separate: [[String: Any]] = [["x": Array(xs[..<40]), "y": Array(ys[..<40])],
                                         ["x": Array(xs[40...]), "y": Array(ys[40...])]]
        let one = try harness.client.request("POST", "/v1/recognize?debug=png", json: ["strokes": jumped])
        let two = try harness.client.request("POST", "/v1/recognize?debug=png", json: ["strokes": separate])
        #expect(one.status == 200 && two.status == 200)
        #expect(one.body == two.body)
    }
}
