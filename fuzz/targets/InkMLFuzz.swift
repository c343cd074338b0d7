// libFuzzer entry for the InkML reader (see scripts/fuzz.sh), compiled with the reader's
// sources. Besides looking for crashes, it checks that accepted ink obeys the ink rules and
// that writing it back as InkML reads back to the same strokes (numbers included), and that
// every error points inside the document.

/// Small limits so that the size checks are reachable with fuzzer-sized inputs.
private let inkLimits = InkLimits(maxStrokes: 8, maxPointsPerStroke: 32, maxTotalPoints: 96,
                                  maxCoordinateMagnitude: 1e7, maxReportedViolations: 4)
private let markupLimits = InkMLLimits(maxDepth: 16, maxAttributes: 8, maxNameLength: 32, maxChannels: 8,
                                       maxDefinitions: 8, maxNumberLength: 64)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInkML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let document = UnsafeBufferPointer(start: data, count: size)
    let reader = InkMLReader(limits: inkLimits, markupLimits: markupLimits)
    let strokes: [Stroke]
    do throws(InkMLError) {
        strokes = try reader.read(document)
    } catch {
        precondition(error.offset >= 0 && error.offset <= size, "offset \(error.offset) outside 0...\(size)")
        precondition(error.line >= 1 && error.column >= 1 && !error.detail.isEmpty)
        _ = error.description
        return 0
    }

    precondition(strokes.count <= inkLimits.maxStrokes && strokes.totalPointCount <= inkLimits.maxTotalPoints)
    for stroke in strokes {
        let count = stroke.x.count
        precondition(count > 0 && count <= inkLimits.maxPointsPerStroke && stroke.y.count == count)
        precondition((stroke.x + stroke.y).allSatisfy { $0.magnitude <= inkLimits.maxCoordinateMagnitude })
        if let t = stroke.t {
            precondition(t.count == count && t.allSatisfy { $0.isFinite && $0 >= 0 })
            precondition(zip(t, t.dropFirst()).allSatisfy { $0 <= $1 }, "times decrease: \(t)")
        }
        if let p = stroke.p {
            precondition(p.count == count && p.allSatisfy { $0 >= 0 && $0 <= 1 })
        }
    }

    let written = write(strokes)
    do throws(InkMLError) {
        let reread = try reader.read(written)
        if reread != strokes { fatalError("round trip changed the strokes: \(strokes) -> \(reread)") }
    } catch {
        fatalError("written InkML does not read back: \(error)\n\(String(decoding: written, as: UTF8.self))")
    }
    return 0
}

/// The strokes as InkML with explicit values, one context per combination of channels.
private func write(_ strokes: [Stroke]) -> [UInt8] {
    var text = #"<ink xmlns="http://www.w3.org/2003/InkML"><definitions>"#
    for (id, channels) in [("xyt", "T"), ("xyf", "F"), ("xytf", "TF")] {
        text += #"<context xml:id="\#(id)"><traceFormat><channel name="X"/><channel name="Y"/>"#
        if channels.contains("T") { text += #"<channel name="T"/>"# }
        if channels.contains("F") { text += #"<channel name="F" max="1"/>"# }
        text += "</traceFormat></context>"
    }
    text += "</definitions>"
    for stroke in strokes {
        switch (stroke.t != nil, stroke.p != nil) {
        case (false, false): text += "<trace>"
        case (true, false): text += ##"<trace contextRef="#xyt">"##
        case (false, true): text += ##"<trace contextRef="#xyf">"##
        case (true, true): text += ##"<trace contextRef="#xytf">"##
        }
        for index in stroke.x.indices {
            if index > 0 { text += "," }
            text += "\(stroke.x[index]) \(stroke.y[index])"
            if let t = stroke.t { text += " \(t[index])" }
            if let p = stroke.p { text += " \(p[index])" }
        }
        text += "</trace>"
    }
    return Array((text + "</ink>").utf8)
}
