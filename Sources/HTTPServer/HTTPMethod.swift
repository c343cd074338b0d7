/// An HTTP request method (RFC 9110 §9).
///
/// A struct rather than an enum so that an unrecognised but well-formed method token can
/// still be represented, routed and answered with 501 or 405 instead of a parse error.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let get = HTTPMethod(rawValue: "GET")
    public static let head = HTTPMethod(rawValue: "HEAD")
    public static let post = HTTPMethod(rawValue: "POST")
    public static let put = HTTPMethod(rawValue: "PUT")
    public static let patch = HTTPMethod(rawValue: "PATCH")
    public static let delete = HTTPMethod(rawValue: "DELETE")
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    public static let trace = HTTPMethod(rawValue: "TRACE")
    public static let connect = HTTPMethod(rawValue: "CONNECT")

    /// Methods this server implements at all; anything else is answered 501 (RFC 9110 §15.6.2).
    public static let implemented: Set<HTTPMethod> = [.get, .head, .post, .put, .patch, .delete, .options]

    public var description: String { rawValue }

    /// Interns the common methods so parsing does not allocate a new string for them.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> HTTPMethod? {
        switch bytes.count {
        case 3:
            if bytes.elementsEqual("GET".utf8) { return .get }
            if bytes.elementsEqual("PUT".utf8) { return .put }
        case 4:
            if bytes.elementsEqual("POST".utf8) { return .post }
            if bytes.elementsEqual("HEAD".utf8) { return .head }
        case 5:
            if bytes.elementsEqual("PATCH".utf8) { return .patch }
        case 6:
            if bytes.elementsEqual("DELETE".utf8) { return .delete }
        case 7:
            if bytes.elementsEqual("OPTIONS".utf8) { return .options }
        default:
            break
        }
        guard !bytes.isEmpty, bytes.allSatisfy(HTTPSyntax.isTokenChar) else { return nil }
        return HTTPMethod(rawValue: String(decoding: bytes, as: UTF8.self))
    }
}
