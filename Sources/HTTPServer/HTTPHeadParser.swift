/// Parses one complete request head (request line and field lines, without the final empty line).
struct HTTPHeadParser {
    let limits: HTTPParserLimits

    func parse(_ head: UnsafeRawBufferPointer) throws(HTTPParseError) -> HTTPRequestHead {
        var lines: [Range<Int>] = []
        var lineStart = 0
        for i in 0..<head.count where head[i] == 0x0A {
            var lineEnd = i
            if lineEnd > lineStart, head[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            lines.append(lineStart..<lineEnd)
            lineStart = i + 1
        }
        guard let requestLine = lines.first else { throw .bad("missing request line") }
        if requestLine.count > limits.maxRequestLineBytes {
            throw HTTPParseError(.requestLineTooLong, "request line exceeds \(limits.maxRequestLineBytes) bytes")
        }
        if lines.count - 1 > limits.maxHeaderCount {
            throw HTTPParseError(.headersTooLarge, "more than \(limits.maxHeaderCount) header fields")
        }
        var result = try parseRequestLine(UnsafeRawBufferPointer(rebasing: head[requestLine]))
        for line in lines.dropFirst() {
            let (name, value) = try Self.parseFieldLine(UnsafeRawBufferPointer(rebasing: head[line]))
            result.headers.add(name: name, value: value)
        }
        if result.version == .http1_1 {
            // RFC 9112 §3.2: a server MUST answer 400 to an HTTP/1.1 request without exactly one Host.
            let hosts = result.headers.values("host")
            if hosts.count != 1 { throw .bad(hosts.isEmpty ? "missing Host header" : "more than one Host header") }
        }
        return result
    }

    /// request-line = method SP request-target SP HTTP-version (RFC 9112 §3)
    private func parseRequestLine(_ line: UnsafeRawBufferPointer) throws(HTTPParseError) -> HTTPRequestHead {
        guard let firstSpace = line.firstIndex(of: 0x20) else { throw .bad("malformed request line") }
        guard let lastSpace = line.lastIndex(of: 0x20), lastSpace > firstSpace + 1 else {
            throw .bad("malformed request line")
        }
        let methodBytes = UnsafeRawBufferPointer(rebasing: line[0..<firstSpace])
        let targetBytes = UnsafeRawBufferPointer(rebasing: line[(firstSpace + 1)..<lastSpace])
        let versionBytes = UnsafeRawBufferPointer(rebasing: line[(lastSpace + 1)...])
        guard let method = HTTPMethod.parse(methodBytes) else { throw .bad("invalid method") }
        let version = try Self.parseVersion(versionBytes)
        guard targetBytes.allSatisfy(HTTPSyntax.isTargetChar) else {
            throw .bad("invalid character in request target")
        }
        var target = String(decoding: targetBytes, as: UTF8.self)
        if target.hasPrefix("http://") || target.hasPrefix("https://") {
            // absolute-form (RFC 9112 §3.2.2): keep only the origin-form part.
            let afterScheme = target.index(target.firstIndex(of: ":") ?? target.startIndex, offsetBy: 3)
            let rest = target[afterScheme...]
            target = rest.firstIndex(where: { $0 == "/" || $0 == "?" }).map { String(rest[$0...]) } ?? "/"
            if target.hasPrefix("?") { target = "/" + target }
        } else if target == "*" {
            guard method == .options else { throw .bad("asterisk-form is only valid for OPTIONS") }
        } else if !target.hasPrefix("/") {
            throw .bad("request target must start with '/'")
        }
        guard HTTPMethod.implemented.contains(method) else {
            throw HTTPParseError(.methodNotImplemented, "method \(method.rawValue) is not implemented")
        }
        return HTTPRequestHead(method: method, target: target, version: version)
    }

    static func parseVersion(_ bytes: UnsafeRawBufferPointer) throws(HTTPParseError) -> HTTPVersion {
        if bytes.elementsEqual("HTTP/1.1".utf8) { return .http1_1 }
        if bytes.elementsEqual("HTTP/1.0".utf8) { return .http1_0 }
        // HTTP-version = "HTTP/" DIGIT "." DIGIT: well-formed but unsupported is 505.
        if bytes.count == 8, bytes.starts(with: "HTTP/".utf8), bytes[6] == UInt8(ascii: "."),
           (0x30...0x39).contains(bytes[5]), (0x30...0x39).contains(bytes[7]) {
            throw HTTPParseError(.versionNotSupported, "HTTP version not supported")
        }
        throw .bad("malformed HTTP version")
    }

    /// field-line = field-name ":" OWS field-value OWS (RFC 9112 §5)
    static func parseFieldLine(_ line: UnsafeRawBufferPointer) throws(HTTPParseError) -> (String, String) {
        guard let first = line.first else { throw .bad("empty header line") }
        if first == 0x20 || first == 0x09 {
            // obs-fold (RFC 9112 §5.2): we reject rather than unfold.
            throw .bad("obsolete line folding in header")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else {
            throw .bad("header line without a name and colon")
        }
        let nameBytes = UnsafeRawBufferPointer(rebasing: line[0..<colon])
        guard nameBytes.allSatisfy(HTTPSyntax.isTokenChar) else {
            // Includes whitespace between name and colon (RFC 9112 §5.1: MUST reject).
            throw .bad("invalid header name")
        }
        var valueStart = colon + 1
        var valueEnd = line.count
        while valueStart < valueEnd, line[valueStart] == 0x20 || line[valueStart] == 0x09 { valueStart += 1 }
        while valueEnd > valueStart, line[valueEnd - 1] == 0x20 || line[valueEnd - 1] == 0x09 { valueEnd -= 1 }
        let valueBytes = UnsafeRawBufferPointer(rebasing: line[valueStart..<valueEnd])
        guard valueBytes.allSatisfy(HTTPSyntax.isFieldValueChar) else {
            throw .bad("invalid character in header value")
        }
        return (String(decoding: nameBytes, as: UTF8.self), String(decoding: valueBytes, as: UTF8.self))
    }
}
