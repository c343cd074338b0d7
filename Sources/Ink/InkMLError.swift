/// Why an InkML document was refused, and where: byte offset, line and column of the problem.
///
/// The kinds answer with different HTTP statuses, like `InkDecodingError`: `.tooLarge` is 413;
/// `.malformed` (the bytes are not acceptable XML) and `.invalid` (well-formed XML that is not
/// acceptable InkML ink) are client errors to report with the detail and location (422).
public struct InkMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The three ways a document can be refused.
    public enum Kind: Sendable, Equatable {
        /// Not well-formed XML, not UTF-8, nested deeper than the markup limit, or using a
        /// construct the reader refuses on principle: a DOCTYPE (so no DTD, no entity
        /// declarations, no external entities) or a reference to an undeclared entity.
        case malformed
        /// Well-formed XML that is not usable InkML: no `<ink>` root, an unknown reference,
        /// a trace whose values do not match its format, a value out of range.
        case invalid
        /// More strokes or points than `InkLimits` allows (HTTP 413 Content Too Large).
        case tooLarge
    }

    /// Which kind of refusal.
    public let kind: Kind
    /// What was wrong or expected, e.g. "expected '=' after the attribute name 'type'".
    public let detail: String
    /// Byte offset of the problem from the start of the document (after any byte order mark
    /// too: offsets always count from the first byte received).
    public let offset: Int
    /// 1-based line of `offset` (lines end at LF).
    public let line: Int
    /// 1-based column of `offset`, in Unicode scalars from the start of its line.
    public let column: Int

    /// An error at a known location.
    public init(kind: Kind, detail: String, offset: Int, line: Int, column: Int) {
        self.kind = kind
        self.detail = detail
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// An error at `offset` in `document`, with the line and column worked out from it.
    init(_ kind: Kind, _ detail: String, at offset: Int, in document: UnsafeBufferPointer<UInt8>) {
        let end = min(max(offset, 0), document.count)
        var line = 1
        var column = 1
        for index in 0..<end {
            let byte = document[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // Continuation bytes belong to the scalar their lead byte started.
                column += 1
            }
        }
        self.init(kind: kind, detail: detail, offset: end, line: line, column: column)
    }

    /// "invalid InkML at line 3, column 14 (byte 97): expected a number, found 'x'".
    public var description: String {
        let what = switch kind {
        case .malformed: "malformed InkML"
        case .invalid: "invalid InkML"
        case .tooLarge: "InkML too large"
        }
        return "\(what) at line \(line), column \(column) (byte \(offset)): \(detail)"
    }
}
