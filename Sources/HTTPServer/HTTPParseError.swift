/// Why a request could not be parsed, with the status the server answers before closing.
///
/// After any of these the connection is closed: the framing of what follows can no longer be trusted
/// (RFC 9112 §11.2 on request smuggling).
public struct HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case badRequest
        case requestLineTooLong
        case headersTooLarge
        case contentTooLarge
        case methodNotImplemented
        /// A transfer coding the server does not know, before the final `chunked`.
        case codingNotImplemented
        case versionNotSupported
    }

    public let kind: Kind
    /// A short explanation that is safe to show to the client.
    public let detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var status: HTTPStatus {
        switch kind {
        case .badRequest: .badRequest
        case .requestLineTooLong: .uriTooLong
        case .headersTooLarge: .headerFieldsTooLarge
        case .contentTooLarge: .contentTooLarge
        case .methodNotImplemented, .codingNotImplemented: .notImplemented
        case .versionNotSupported: .httpVersionNotSupported
        }
    }

    public var description: String { "\(status.code): \(detail)" }

    static func bad(_ detail: String) -> HTTPParseError { HTTPParseError(.badRequest, detail) }
}
