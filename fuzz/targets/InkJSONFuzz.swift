// libFuzzer entry for the JSON reader and the ink decoder (see scripts/fuzz.sh), compiled with
// the decoder's sources against JSONKit. Besides looking for crashes, it checks that whatever
// the reader accepts survives a write/read round trip unchanged, compact and pretty-printed.
import JSONKit

/// Small limits so that the size checks are reachable with fuzzer-sized inputs.
private let inkLimits = InkLimits(maxStrokes: 8, maxPointsPerStroke: 16, maxTotalPoints: 48,
                                  maxCoordinateMagnitude: 1e7, maxReportedViolations: 4)
private let readerLimits = JSONReader.Limits(maxDepth: 24, maxStringLength: 512, maxNumberLength: 64)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInkJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let value: JSONValue
    do throws(JSONParseError) {
        value = try JSONReader(limits: readerLimits).parse(bytes)
    } catch {
        precondition(error.offset >= 0 && error.offset <= size, "error offset \(error.offset) outside 0...\(size)")
        _ = error.description
        return 0
    }

    for options in [JSONWriter.Options(), JSONWriter.Options(prettyPrinted: true)] {
        let written = JSONWriter(options: options).write(value)
        do throws(JSONParseError) {
            // Writing adds no depth, so the same limits must accept the output (strings can
            // only grow through escapes, which count after unescaping).
            let reread = try JSONReader(limits: readerLimits).parse(written)
            if reread != value { fatalError("round trip changed the value: \(value) -> \(reread)") }
        } catch {
            fatalError("written JSON does not read back: \(error) in \(String(decoding: written, as: UTF8.self))")
        }
    }

    // The ink decoder takes the `strokes` member of a request object, or any value in tests.
    let strokes: JSONValue
    if case let .object(object) = value, let member = object["strokes"] {
        strokes = member
    } else {
        strokes = value
    }
    do throws(InkDecodingError) {
        let decoded = try InkDecoder(limits: inkLimits).decode(strokes, at: JSONPointer.root.appending("strokes"))
        precondition(decoded.count <= inkLimits.maxStrokes)
        precondition(decoded.totalPointCount <= inkLimits.maxTotalPoints)
        for stroke in decoded {
            precondition(stroke.pointCount > 0 && stroke.x.count == stroke.y.count)
            precondition(stroke.t.map { $0.count == stroke.x.count } ?? true)
            precondition(stroke.p.map { $0.count == stroke.x.count } ?? true)
            _ = stroke.bounds
        }
    } catch {
        precondition(!error.violations.isEmpty && error.violations.count <= inkLimits.maxReportedViolations)
        _ = error.description
    }
    return 0
}
