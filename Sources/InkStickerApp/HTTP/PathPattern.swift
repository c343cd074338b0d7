import HTTPServer

/// A route's path template such as `/v1/boards/{boardId}/stickers/{stickerId}`.
struct PathPattern: Sendable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    let segments: [Segment]
    let description: String

    init(_ template: String) {
        description = template
        segments = template.split(separator: "/").map { part in
            if part.hasPrefix("{") && part.hasSuffix("}") {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(String(part))
        }
    }

    /// The path parameters when `path` (already split and decoded) matches, else nil.
    func match(_ path: [Substring]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        for (segment, value) in zip(segments, path) {
            // Byte for byte (RFC 3986 §6.2.1), which is also cheaper than String's Unicode equality.
            if case .literal(let literal) = segment, !literal.utf8.elementsEqual(value.utf8) { return nil }
        }
        var parameters: [String: String] = [:]
        for (segment, value) in zip(segments, path) {
            if case .parameter(let name) = segment {
                if value.isEmpty { return nil }
                parameters[name] = String(value)
            }
        }
        return parameters
    }
}

/// Splits a request path into percent-decoded segments, refusing what could escape a route or
/// confuse storage: NUL bytes, invalid UTF-8, encoded slashes and dot segments.
enum RequestPath {
    static func segments(_ path: Substring) throws(APIError) -> [Substring] {
        var result: [Substring] = []
        for raw in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard raw.utf8.contains(UInt8(ascii: "%")) else {
                if raw == "." || raw == ".." { throw APIError(.badRequest, "the path must not contain '.' or '..' segments") }
                result.append(raw)
                continue
            }
            let decoded = try percentDecode(raw, what: "path")
            if decoded == "." || decoded == ".." {
                throw APIError(.badRequest, "the path must not contain '.' or '..' segments")
            }
            if decoded.utf8.contains(UInt8(ascii: "/")) {
                throw APIError(.badRequest, "the path must not contain encoded slashes")
            }
            result.append(Substring(decoded))
        }
        return result
    }

    /// Percent-decodes (RFC 3986 §2.1); with `plusIsSpace` also `+` → space (form encoding in queries).
    static func percentDecode(_ text: Substring, what: String, plusIsSpace: Bool = false) throws(APIError) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) || (plusIsSpace && text.utf8.contains(UInt8(ascii: "+"))) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let hi = iterator.next().flatMap(hexValue), let lo = iterator.next().flatMap(hexValue) else {
                    throw APIError(.badRequest, "invalid percent-encoding in the \(what)")
                }
                bytes.append(hi << 4 | lo)
            } else if plusIsSpace && byte == UInt8(ascii: "+") {
                bytes.append(0x20)
            } else {
                bytes.append(byte)
            }
        }
        if bytes.contains(0) { throw APIError(.badRequest, "the \(what) must not contain NUL bytes") }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw APIError(.badRequest, "the \(what) is not valid UTF-8")
        }
        return string
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
