import Foundation
import Geometry
import Ink
import Testing
@testable import OCR

/// A 1 in a digits field drawn as one bowed stroke, which the network reads as a bracket.
@Suite struct LoneStickTests {
    /// One stroke from (x, top) to (x, top + height), bowed `bow` of its height to the left.
    static func stick(x: Double = 300, top: Double = 100, height: Double = 200, bow: Double) -> Stroke {
        let count = 20
        let points = (0..<count).map { i -> Point in
            let f = Double(i) / Double(count - 1)
            return Point(x: x - bow * height * sin(.pi * f), y: top + height * f)
        }
        return Stroke(points: points)
    }

    @Test func aStickIsAOneAndOtherShapesAreNot() {
        let one = LoneStick.one([Self.stick(bow: 0.3)], origin: [4])
        #expect(one?.text == "1" && one?.words.map(\.strokes) == [[4]] && one?.confidence == LoneStick.confidence)
        #expect(one?.box == Self.stick(bow: 0.3).bounds)
        // A narrow loop (a 0) has its ends together; a wide stroke is no stick; two strokes are not one.
        let loop = Stroke(points: (0...24).map { i in
            let a = 2 * Double.pi * Double(i) / 24
            return Point(x: 300 + 30 * sin(a), y: 200 - 100 * cos(a))
        })
        #expect(LoneStick.one([loop], origin: [0]) == nil)
        #expect(LoneStick.one([Stroke(points: [Point(x: 0, y: 0), Point(x: 150, y: 200)])], origin: [0]) == nil)
        #expect(LoneStick.one([Self.stick(bow: 0.1), Self.stick(x: 400, bow: 0.1)], origin: [0, 1]) == nil)
        #expect(LoneStick.one([Stroke(points: []), Self.stick(bow: 0.1)], origin: [0, 1])?.words.first?.strokes == [1])
    }

    /// Through the pipeline with the shipped model: without a hint the bowed stroke reads as
    /// something other than a 1 (a bracket), which the digits hint leaves out; under `digits` the
    /// field reads 1 from its shape, where it read nothing.
    @Test func aBowedOneInADigitsFieldIsRead() throws {
        let harness = try PipelineHarness()
        let bowed = [Self.stick(bow: 0.3)]
        let free = try harness.recognize(bowed).get()
        #expect(free.text != "1", "read \(free.text) without a hint")
        let digits = try harness.recognize(bowed, charset: .digits).get()
        #expect(digits.text == "1" && digits.confidence == LoneStick.confidence, "read \(digits.text) at \(digits.confidence)")
        #expect(digits.lines.first?.words.first?.strokes == [0])
        // A straight one the network reads itself, at its own confidence.
        let straight = try harness.recognize([Self.stick(bow: 0)], charset: .digits).get()
        #expect(straight.text == "1" && straight.confidence != LoneStick.confidence)
    }
}
