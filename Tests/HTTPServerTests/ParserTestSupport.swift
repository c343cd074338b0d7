@testable import HTTPServer

/// Feeds a byte string to a parser, optionally in pieces, and collects complete requests.
struct ParserHarness {
    var parser: HTTPRequestParser
    var buffer: [UInt8] = []
    var heads: [HTTPRequestHead] = []
    var bodies: [[UInt8]] = []

    init(limits: HTTPParserLimits = HTTPParserLimits()) {
        parser = HTTPRequestParser(limits: limits)
    }

    /// Appends bytes and parses until more are needed.
    mutating func feed(_ text: String) throws(HTTPParseError) { try feed(Array(text.utf8)) }

    mutating func feed(_ bytes: [UInt8]) throws(HTTPParseError) {
        buffer += bytes
        while true {
            let copy = buffer
            let parsed = copy.withUnsafeBytes { raw in
                Result { () throws(HTTPParseError) in try parser.parse(raw) }
            }
            let (consumed, event) = try parsed.get()
            buffer.removeFirst(consumed)
            switch event {
            case .needMore: return
            case .head(let head): heads.append(head)
            case .body(let body): bodies.append(body)
            }
        }
    }

    /// Parses `text` in one go and returns the error it raises, or nil.
    static func error(_ text: String, limits: HTTPParserLimits = HTTPParserLimits()) -> HTTPParseError? {
        var harness = ParserHarness(limits: limits)
        do throws(HTTPParseError) {
            try harness.feed(text)
            return nil
        } catch {
            return error
        }
    }
}
