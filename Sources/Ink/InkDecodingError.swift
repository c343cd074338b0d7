import JSONKit

/// Why ink from a request was refused, with a pointer to every offending value.
public struct InkDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The two ways ink can be refused; they answer with different HTTP statuses.
    public enum Kind: Sendable, Equatable {
        /// More strokes or points than `InkLimits` allows (HTTP 413 Content Too Large).
        case tooLarge
        /// Wrong types, non-finite or out-of-range values, mismatched lengths, empty strokes
        /// (HTTP 422 Unprocessable Content).
        case invalid
    }

    /// Which kind of refusal.
    public let kind: Kind
    /// What is wrong and where, in document order; at most `InkLimits.maxReportedViolations`.
    public let violations: [FieldViolation]

    /// An error of `kind` with its violations.
    public init(kind: Kind, violations: [FieldViolation]) {
        self.kind = kind
        self.violations = violations
    }

    /// "invalid ink: /strokes/3/y: …; …".
    public var description: String {
        "\(kind == .tooLarge ? "ink too large" : "invalid ink"): "
            + violations.map(\.description).joined(separator: "; ")
    }
}
