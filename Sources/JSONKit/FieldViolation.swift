/// One problem with one value in a request document: where (a JSON pointer) and what.
///
/// Application code maps these to a 4xx response body that lists every violation, e.g.
/// `{"pointer": "/strokes/3/y", "detail": "expected array of numbers, found string"}`.
public struct FieldViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the offending value is (or would be, for a missing member).
    public var pointer: JSONPointer
    /// What is wrong, as a short human sentence fragment.
    public var detail: String

    /// A violation at `pointer`.
    public init(pointer: JSONPointer, detail: String) {
        self.pointer = pointer
        self.detail = detail
    }

    /// `/strokes/3/y: expected array, found string`.
    public var description: String { "\(pointerText): \(detail)" }

    /// The pointer's string form, with the whole document shown as `(root)` rather than `""`.
    public var pointerText: String { pointer.isRoot ? "(root)" : pointer.description }
}

/// Several violations found in one pass over a document, in document order.
public struct FieldViolations: Error, Sendable, Equatable, CustomStringConvertible {
    /// The violations; never empty when thrown.
    public var violations: [FieldViolation]

    /// A list of violations.
    public init(_ violations: [FieldViolation]) {
        self.violations = violations
    }

    /// The violations joined with "; ".
    public var description: String { violations.map(\.description).joined(separator: "; ") }
}
