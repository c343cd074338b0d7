/// The protocol version of a request (RFC 9112 §2.3). Only 1.0 and 1.1 are served.
public enum HTTPVersion: Sendable, Equatable, CustomStringConvertible {
    case http1_0
    case http1_1

    public var description: String {
        switch self {
        case .http1_0: "HTTP/1.0"
        case .http1_1: "HTTP/1.1"
        }
    }
}
