/// An incremental, pure HTTP/1.1 request parser (RFC 9112).
///
/// Feed it the bytes received so far that it has not consumed yet; it answers how many it consumed
/// and what it found. It never touches a socket, so it is tested from byte strings. Each request
/// yields `.head` once, then `.body` once (empty when there is none), then the parser is ready for
/// the next pipelined request.
public struct HTTPRequestParser: Sendable {
    public enum Event: Sendable, Equatable {
        /// More bytes are needed.
        case needMore
        /// A complete request head. The body follows with `.body`.
        case head(HTTPRequestHead)
        /// The complete body of the current request (empty when it has none).
        case body([UInt8])
    }

    enum Framing: Sendable, Equatable {
        case none
        case length(Int)
        case chunked
    }

    enum State: Sendable, Equatable {
        /// Looking for the end of the head; `scanned` bytes were already searched.
        case head(scanned: Int)
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(seen: Int)
        case bodyComplete
    }

    public let limits: HTTPParserLimits
    /// The handler's decision on a head (its body limit, nil for `limits.maxBodyBytes`).
    let admit: (@Sendable (HTTPRequestHead) -> HTTPAdmission)?
    /// The decision on the current request's head.
    public private(set) var admission: HTTPAdmission?
    var state: State = .head(scanned: 0)
    var framing: Framing = .none
    var body: [UInt8] = []
    var bodyLimit: Int

    public init(limits: HTTPParserLimits = HTTPParserLimits(),
                admit: (@Sendable (HTTPRequestHead) -> HTTPAdmission)? = nil) {
        self.limits = limits
        self.admit = admit
        self.bodyLimit = limits.maxBodyBytes
    }

    /// The declared body length of the current request, when it has a `Content-Length`.
    public var declaredContentLength: Int? {
        if case .length(let n) = framing { return n }
        return nil
    }

    /// Whether the current request has a body still to come.
    public var expectsBody: Bool { framing != .none }

    /// Lowers (or raises) the body limit for the current request, right after `.head`.
    /// Throws 413 at once when a declared `Content-Length` already exceeds it, before any body is read.
    public mutating func setBodyLimit(_ limit: Int) throws(HTTPParseError) {
        bodyLimit = limit
        if case .length(let n) = framing, n > limit {
            throw HTTPParseError(.contentTooLarge, "body of \(n) bytes exceeds the limit of \(limit) bytes")
        }
    }

    /// The finished body; the parser is ready for the next request's head.
    mutating func takeCompleteBody() -> [UInt8] {
        let complete = body
        body = []
        framing = .none
        bodyLimit = limits.maxBodyBytes
        state = .head(scanned: 0)
        return complete
    }

    /// Parses as much of `buffer` as possible.
    public mutating func parse(_ buffer: UnsafeRawBufferPointer) throws(HTTPParseError) -> (consumed: Int, event: Event) {
        switch state {
        case .head(let scanned):
            return try parseHead(buffer, scanned: scanned)
        case .bodyComplete:
            return (0, .body(takeCompleteBody()))
        default:
            return try parseBody(buffer)
        }
    }

    // MARK: Head

    private mutating func parseHead(_ buffer: UnsafeRawBufferPointer, scanned: Int) throws(HTTPParseError) -> (consumed: Int, event: Event) {
        // RFC 9112 §2.2: ignore empty lines received before the request line.
        var start = 0
        while start < buffer.count, buffer[start] == 0x0D || buffer[start] == 0x0A {
            if buffer[start] == 0x0D {
                // Keep a CR that ends the buffer: only the next byte tells whether it is bare, and
                // the answer must not depend on how the bytes were split into reads.
                guard start + 1 < buffer.count else { break }
                if buffer[start + 1] != 0x0A { throw .bad("bare CR before the request line") }
            }
            start += 1
        }
        if start > 0 {
            let rest = try parseHead(UnsafeRawBufferPointer(rebasing: buffer[start...]), scanned: 0)
            return (start + rest.consumed, rest.event)
        }
        guard let end = Self.findHeadEnd(buffer, from: max(0, scanned - 3)) else {
            try checkIncompleteHead(buffer)
            state = .head(scanned: buffer.count)
            return (0, .needMore)
        }
        if let lineEnd = buffer.firstIndex(of: 0x0A), lineEnd > limits.maxRequestLineBytes {
            throw HTTPParseError(.requestLineTooLong, "request line exceeds \(limits.maxRequestLineBytes) bytes")
        }
        if end.headLength > limits.maxHeaderBytes {
            throw HTTPParseError(.headersTooLarge, "request head exceeds \(limits.maxHeaderBytes) bytes")
        }
        let head = try HTTPHeadParser(limits: limits).parse(UnsafeRawBufferPointer(rebasing: buffer[0..<end.headLength]))
        framing = try Self.framing(of: head)
        body = []
        admission = admit?(head)
        bodyLimit = admission?.bodyLimit ?? limits.maxBodyBytes
        switch framing {
        case .none: state = .bodyComplete
        case .length(let n): state = n == 0 ? .bodyComplete : .fixedBody(remaining: n)
        case .chunked: state = .chunkSize
        }
        if case .length(let n) = framing, n > bodyLimit {
            throw HTTPParseError(.contentTooLarge, "body of \(n) bytes exceeds the limit of \(bodyLimit) bytes")
        }
        return (end.totalLength, .head(head))
    }

    /// Rejects an unfinished head as soon as it is certain to break a limit, so a slow or hostile
    /// client cannot make us buffer more than the limits allow.
    private func checkIncompleteHead(_ buffer: UnsafeRawBufferPointer) throws(HTTPParseError) {
        let lineEnd = buffer.firstIndex(of: 0x0A)
        if lineEnd == nil, buffer.count > limits.maxRequestLineBytes {
            throw HTTPParseError(.requestLineTooLong, "request line exceeds \(limits.maxRequestLineBytes) bytes")
        }
        if buffer.count > limits.maxHeaderBytes {
            throw HTTPParseError(.headersTooLarge, "request head exceeds \(limits.maxHeaderBytes) bytes")
        }
    }

    /// Finds the empty line ending the head: `\r\n\r\n` or, leniently (RFC 9112 §2.2), `\n\n` / `\n\r\n`.
    static func findHeadEnd(_ buffer: UnsafeRawBufferPointer, from: Int) -> (headLength: Int, totalLength: Int)? {
        var i = from
        let n = buffer.count
        while i < n {
            if buffer[i] == 0x0A {
                if i + 1 < n, buffer[i + 1] == 0x0A { return (i + 1, i + 2) }
                if i + 2 < n, buffer[i + 1] == 0x0D, buffer[i + 2] == 0x0A { return (i + 1, i + 3) }
            }
            i += 1
        }
        return nil
    }

    /// Decides how the body is delimited (RFC 9112 §6.3), rejecting every ambiguity that enables
    /// request smuggling (§6.1, §11.2).
    static func framing(of head: HTTPRequestHead) throws(HTTPParseError) -> Framing {
        let transferEncodings = head.headers.values("transfer-encoding")
        let contentLengths = head.headers.values("content-length")
        if !transferEncodings.isEmpty {
            if !contentLengths.isEmpty {
                throw .bad("both Transfer-Encoding and Content-Length are present")
            }
            if head.version == .http1_0 {
                throw .bad("Transfer-Encoding is not allowed in HTTP/1.0")
            }
            let codings = head.headers.tokens("transfer-encoding")
            let listed = transferEncodings.joined(separator: ", ")
            // Without chunked last, or with it twice, the body's end cannot be known: 400 (§6.3).
            guard codings.last == "chunked", codings.dropLast().allSatisfy({ $0 != "chunked" }) else {
                throw .bad("transfer coding '\(listed)' does not end with chunked once; only chunked is accepted")
            }
            // Framed, but encoded in a way this server does not decode: 501 (§6.1).
            guard codings.count == 1 else {
                throw HTTPParseError(.codingNotImplemented, "unsupported transfer coding '\(listed)'; only chunked is accepted")
            }
            return .chunked
        }
        guard !contentLengths.isEmpty else { return .none }
        var length: Int?
        for field in contentLengths {
            for element in field.split(separator: ",", omittingEmptySubsequences: false) {
                let text = element.trimmingSpaces()
                guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                      let value = Int(text) else {
                    throw .bad("invalid Content-Length '\(field)'")
                }
                if let previous = length, previous != value {
                    throw .bad("conflicting Content-Length values")
                }
                length = value
            }
        }
        return .length(length ?? 0)
    }
}
