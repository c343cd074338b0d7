import Testing
import JSONKit
@testable import Ink

@Suite struct InkDecoderTests {
    private let at = JSONPointer.root.appending("strokes")

    private func decode(_ text: String, limits: InkLimits = InkLimits()) throws -> [Stroke] {
        try InkDecoder(limits: limits).decode(JSONReader.parse(text), at: at)
    }

    /// The decoder's error for `text`, or `nil` if it accepted it.
    private func failure(_ text: String, limits: InkLimits = InkLimits()) throws -> InkDecodingError? {
        let value = try JSONReader.parse(text)
        do {
            _ = try InkDecoder(limits: limits).decode(value, at: at)
            return nil
        } catch {
            return error
        }
    }

    @Test func decodesStrokesWithOptionalChannels() throws {
        let strokes = try decode(#"[{"x":[1,2],"y":[3,4],"t":[0,10]},{"x":[5],"y":[6],"p":[0.5],"t":null,"color":"red"}]"#)
        #expect(strokes == [
            Stroke(x: [1, 2], y: [3, 4], t: [0, 10]),
            Stroke(x: [5], y: [6], t: nil, p: [0.5]),
        ])
    }

    @Test func zeroStrokesAreValid() throws {
        #expect(try decode("[]") == [])
    }

    @Test(arguments: [
        (#"{"x":[1]}"#, "", "expected array of strokes, found object"),
        (#"[3]"#, "/0", "expected stroke object, found number"),
        (#"[{"y":[1]}]"#, "/0/x", "missing required member"),
        (#"[{"x":[1],"y":"1"}]"#, "/0/y", "expected array of numbers, found string"),
        (#"[{"x":[1,2,"3"],"y":[1,2,3]}]"#, "/0/x/2", "expected number, found string"),
        (#"[{"x":[1],"y":[null]}]"#, "/0/y/0", "expected number, found null"),
        (#"[{"x":[],"y":[]}]"#, "/0/x", "a stroke needs at least one point"),
        (#"[{"x":[1,2],"y":[1]}]"#, "/0/y", "has 1 values but x has 2"),
        (#"[{"x":[1,2],"y":[1,2],"t":[0]}]"#, "/0/t", "has 1 values but x has 2"),
        (#"[{"x":[1],"y":[1],"p":[]}]"#, "/0/p", "has 0 values but x has 1"),
        (#"[{"x":[1,20000001],"y":[1,2]}]"#, "/0/x/1", "20000001 is outside ±10000000"),
        (#"[{"x":[1],"y":[-1e8]}]"#, "/0/y/0", "-100000000 is outside ±10000000"),
        (#"[{"x":[1,2,3],"y":[1,2,3],"t":[0,-1,2]}]"#, "/0/t/1", "time -1 is not a finite number ≥ 0"),
        (#"[{"x":[1,2,3,4,5,6],"y":[1,2,3,4,5,6],"t":[0,1,2,3,120,100]}]"#, "/0/t/5", "time 100 is earlier than the previous time 120"),
        (#"[{"x":[1,2],"y":[1,2],"p":[0.5,1.5]}]"#, "/0/p/1", "pressure 1.5 is outside 0...1"),
        (#"[{"x":[1],"y":[1],"t":"now"}]"#, "/0/t", "expected array of numbers, found string"),
    ])
    func invalidInkIsReportedWithAPointer(text: String, pointer: String, detail: String) throws {
        let error = try #require(try failure(text))
        #expect(error.kind == .invalid)
        #expect(error.violations == [FieldViolation(pointer: try JSONPointer(parsing: "/strokes" + pointer), detail: detail)])
    }

    @Test func pointersNameTheStrokeIndex() throws {
        let error = try #require(try failure(#"[{"x":[1],"y":[1]},{"x":[1],"y":[1]},{"x":[1],"y":[1]},{"x":[1],"y":[2,"a"]}]"#))
        #expect(error.violations.map(\.pointer.description) == ["/strokes/3/y/1"])
    }

    @Test func severalViolationsAreCollectedUpToTheCap() throws {
        let bad = Array(repeating: #"{"x":[1],"y":["a"]}"#, count: 30).joined(separator: ",")
        let error = try #require(try failure("[\(bad)]", limits: InkLimits(maxReportedViolations: 5)))
        #expect(error.kind == .invalid)
        #expect(error.violations.map(\.pointer.description) == (0..<5).map { "/strokes/\($0)/y/0" })
        // Several problems in one stroke are all reported.
        let multi = try #require(try failure(#"[{"x":"a","y":{},"t":[true]}]"#))
        #expect(multi.violations.map(\.pointer.description) == ["/strokes/0/x", "/strokes/0/y", "/strokes/0/t/0"])
    }

    @Test func tooManyStrokesIsTooLarge() throws {
        let strokes = Array(repeating: #"{"x":[1],"y":[1]}"#, count: 4).joined(separator: ",")
        let error = try #require(try failure("[\(strokes)]", limits: InkLimits(maxStrokes: 3)))
        #expect(error.kind == .tooLarge)
        #expect(error.violations == [FieldViolation(pointer: at, detail: "4 strokes; at most 3 are allowed")])
    }

    @Test func tooManyPointsIsTooLargeEvenWhenAlsoInvalid() throws {
        // The stroke is invalid too (y is short and holds a string), but size is judged first
        // and from counts alone.
        let error = try #require(try failure(#"[{"x":[1,2,3,4],"y":["a"]}]"#, limits: InkLimits(maxPointsPerStroke: 3)))
        #expect(error.kind == .tooLarge)
        #expect(error.violations.map(\.pointer.description) == ["/strokes/0/x"])

        let total = try #require(try failure(#"[{"x":[1,2],"y":[1,2]},{"x":[1,2],"y":[1,2]}]"#, limits: InkLimits(maxTotalPoints: 3)))
        #expect(total.kind == .tooLarge)
        #expect(total.violations == [FieldViolation(pointer: at, detail: "4 points in all; at most 3 are allowed")])
    }

    @Test func nonFiniteValuesBuiltInCodeAreInvalid() throws {
        let value = JSONValue.array([.object(["x": .numbers([.nan]), "y": .numbers([1])])])
        #expect(throws: InkDecodingError(kind: .invalid, violations: [
            FieldViolation(pointer: at.appending(0).appending("x").appending(0), detail: "nan is outside ±10000000"),
        ])) {
            try InkDecoder().decode(value, at: at)
        }
    }

    @Test func everyCorpusSampleDecodes() throws {
        for file in ["print.jsonl", "hand-text.jsonl"] {
            let samples = try Corpus.samples(file)
            #expect(samples.allSatisfy { !$0.strokes.isEmpty }, "\(file)")
        }
    }
}
