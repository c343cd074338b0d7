import Geometry
import Testing
import TextLayout

@Suite("StickerGeometry")
struct StickerGeometryTests {
    static let geometry = StickerGeometry()

    static func centred(_ frame: Rect, on center: Point) -> Bool {
        abs(frame.center.x - center.x) <= 1e-9 && abs(frame.center.y - center.y) <= 1e-9
    }

    @Test("field and label frames are centred on the sticker centre for many texts, sizes and centres")
    func centreInvariant() throws {
        let measurer = try Fixtures.measurer()
        var generator = SplitMix64(seed: 42)
        for _ in 0..<500 {
            let length = Int.random(in: 0...24, using: &generator)
            var text = String((0..<length).map { _ in Fixtures.printableASCII.randomElement(using: &generator) ?? "x" })
            if Bool.random(using: &generator) { text += "\n" + text.prefix(length / 2) }
            let size = Double.random(in: 6...200, using: &generator)
            let family = FontFamily.allCases.randomElement(using: &generator) ?? .sansBold
            let tracking = Double.random(in: -2...6, using: &generator)
            // Board coordinates from real tablets reach the tens of thousands, with arbitrary offsets.
            let center = Point(x: Double.random(in: -60_000...60_000, using: &generator),
                                     y: Double.random(in: -60_000...60_000, using: &generator))
            let metrics = try measurer.measure(text, family: family, size: size, tracking: tracking)

            let field = Self.geometry.fieldFrame(center: center, metrics: metrics, fontSize: size)
            let label = Self.geometry.labelFrame(center: center, textWidth: metrics.width, textHeight: metrics.height)
            #expect(Self.centred(field, on: center), "field \(text.debugDescription) \(size) \(center)")
            #expect(Self.centred(label, on: center), "label \(text.debugDescription) \(size) \(center)")
            // The label is exactly the text; the field contains it with its insets.
            #expect(label.width == metrics.width && label.height == metrics.height)
            #expect(field.width >= label.width + 14 && field.height >= label.height + 10)
            #expect(field.minX < label.minX && field.maxX > label.maxX)
            #expect(field.minY < label.minY && field.maxY > label.maxY)
        }
    }

    @Test("a field re-centres as its text changes: the centre never drifts while typing and deleting")
    func editingKeepsCentre() throws {
        let measurer = try Fixtures.measurer()
        let center = Point(x: 12_345.678, y: -9_876.5)
        let word = "Handwriting"
        var widths: [Double] = []
        for end in Array(0...word.count) + Array((0...word.count).reversed()) {
            let metrics = try measurer.measure(String(word.prefix(end)), size: 28)
            let frame = Self.geometry.fieldFrame(center: center, metrics: metrics, fontSize: 28)
            #expect(Self.centred(frame, on: center))
            widths.append(frame.width)
        }
        // Grows (or holds at the minimum) while typing, and comes back the same way.
        #expect(widths == widths.reversed())
        #expect(zip(widths, widths.dropFirst()).prefix(word.count).allSatisfy { $0 <= $1 })
        #expect((widths.last ?? 0) < (widths[word.count]))
    }

    @Test("an empty field keeps a visible, tappable minimum size")
    func emptyFieldMinimum() throws {
        let metrics = try Fixtures.measurer().measure("", size: 28)
        let frame = Self.geometry.fieldFrame(center: Point(x: 0, y: 0), metrics: metrics, fontSize: 28)
        // 2 em of text area plus the 7 pt insets either side; one line plus the 5 pt insets above and below.
        #expect(frame.width == 2 * 28 + 2 * 7)
        #expect(frame.height == metrics.lineHeight + 2 * 5)
        #expect(frame.height > 28)
        // A one-character text narrower than 2 em still gets the minimum width.
        let i = try Fixtures.measurer().measure("i", size: 28)
        #expect(Self.geometry.fieldFrame(center: Point(x: 0, y: 0), metrics: i, fontSize: 28).width == 70)
    }

    @Test("the field is the text plus insets once the text outgrows the minimum")
    func fieldInsets() {
        let frame = Self.geometry.fieldFrame(center: Point(x: 100, y: 50),
                                             textWidth: 300, textHeight: 66,
                                             fontSize: 28, lineHeight: 33)
        #expect(frame == Rect(x: -57, y: 12, width: 314, height: 76))
    }

    @Test("negative and non-finite sizes count as zero")
    func garbageSizes() {
        let center = Point(x: 10, y: 20)
        let label = Self.geometry.labelFrame(center: center, textWidth: -5, textHeight: .nan)
        #expect(label == Rect(x: center.x, y: center.y, width: 0, height: 0))
        let field = Self.geometry.fieldFrame(center: center, textWidth: .infinity, textHeight: -1,
                                             fontSize: 10, lineHeight: 12)
        #expect(field.width == 20 + 14 && field.height == 12 + 10)
        #expect(Self.centred(field, on: center))
    }
}
