extension HTTPRequestParser {
    /// Reads a fixed-length or chunked body (RFC 9112 §6, §7.1).
    mutating func parseBody(_ buffer: UnsafeRawBufferPointer) throws(HTTPParseError) -> (consumed: Int, event: Event) {
        var offset = 0
        while true {
            switch state {
            case .fixedBody(let remaining):
                let take = min(remaining, buffer.count - offset)
                if take > 0 {
                    body.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + take)]))
                    offset += take
                }
                if take == remaining {
                    state = .bodyComplete
                } else {
                    state = .fixedBody(remaining: remaining - take)
                    return (offset, .needMore)
                }
            case .chunkSize:
                guard let line = try readLine(buffer, from: offset, limit: limits.maxChunkLineBytes, what: "chunk size line") else {
                    return (offset, .needMore)
                }
                let size = try Self.parseChunkSize(UnsafeRawBufferPointer(rebasing: buffer[line.content]))
                offset = line.next
                if size == 0 {
                    state = .trailers(seen: 0)
                } else {
                    if body.count + size > bodyLimit {
                        throw HTTPParseError(.contentTooLarge, "chunked body exceeds the limit of \(bodyLimit) bytes")
                    }
                    state = .chunkData(remaining: size)
                }
            case .chunkData(let remaining):
                let take = min(remaining, buffer.count - offset)
                if take > 0 {
                    body.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + take)]))
                    offset += take
                }
                if take == remaining {
                    state = .chunkDataEnd
                } else {
                    state = .chunkData(remaining: remaining - take)
                    return (offset, .needMore)
                }
            case .chunkDataEnd:
                // Exactly CRLF must follow the chunk data. Inside chunked framing nothing is
                // lenient (no bare LF, no bare CR): a front proxy that reads it otherwise would
                // see other requests in the same bytes (request smuggling).
                guard offset < buffer.count else { return (offset, .needMore) }
                if buffer[offset] == 0x0D {
                    guard offset + 1 < buffer.count else { return (offset, .needMore) }
                    guard buffer[offset + 1] == 0x0A else { throw .bad("chunk data not followed by CRLF") }
                    offset += 2
                } else {
                    throw .bad("chunk data not followed by CRLF")
                }
                state = .chunkSize
            case .trailers(let seen):
                let budget = limits.maxTrailerBytes - seen
                guard let line = try readLine(buffer, from: offset, limit: max(budget, 0), what: "trailer section") else {
                    return (offset, .needMore)
                }
                offset = line.next
                if line.content.isEmpty {
                    state = .bodyComplete
                } else {
                    // Trailer fields are validated and discarded: nothing here reads them.
                    _ = try HTTPHeadParser.parseFieldLine(UnsafeRawBufferPointer(rebasing: buffer[line.content]))
                    state = .trailers(seen: seen + line.next - line.content.lowerBound)
                }
            case .bodyComplete:
                return (offset, .body(takeCompleteBody()))
            case .head:
                return (offset, .needMore)
            }
        }
    }

    /// Finds a line of chunked framing (ending in CRLF: a bare LF is refused) starting at `from`,
    /// or nil when it is not complete yet.
    private func readLine(_ buffer: UnsafeRawBufferPointer, from: Int, limit: Int, what: String) throws(HTTPParseError) -> (content: Range<Int>, next: Int)? {
        var i = from
        while i < buffer.count {
            if buffer[i] == 0x0A {
                guard i > from, buffer[i - 1] == 0x0D else { throw .bad("\(what) must end with CRLF") }
                let end = i - 1
                if end - from > limit { throw .bad("\(what) too long") }
                return (from..<end, i + 1)
            }
            i += 1
        }
        if buffer.count - from > limit + 1 { throw .bad("\(what) too long") }
        return nil
    }

    /// chunk-size = 1*HEXDIG, then optional chunk extensions, checked against their grammar and
    /// otherwise ignored (RFC 9112 §7.1.1): a CR or other control inside one is refused.
    static func parseChunkSize(_ line: UnsafeRawBufferPointer) throws(HTTPParseError) -> Int {
        var size = 0
        var digits = 0
        var index = 0
        while index < line.count {
            let byte = line[index]
            let value: Int
            switch byte {
            case 0x30...0x39: value = Int(byte - 0x30)
            case 0x41...0x46: value = Int(byte - 0x41 + 10)
            case 0x61...0x66: value = Int(byte - 0x61 + 10)
            default: value = -1
            }
            if value < 0 { break }
            digits += 1
            if digits > 15 { throw .bad("chunk size too large") }
            size = size * 16 + value
            index += 1
        }
        guard digits > 0 else { throw .bad("invalid chunk size") }
        if index < line.count {
            // Only BWS and ';' may follow the size.
            var rest = index
            while rest < line.count, line[rest] == 0x20 || line[rest] == 0x09 { rest += 1 }
            guard rest < line.count, line[rest] == UInt8(ascii: ";") else { throw .bad("invalid chunk size") }
            guard validExtensions(line, from: rest) else { throw .bad("invalid chunk extension") }
        }
        return size
    }

    /// chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ), a name a token,
    /// a value a token or a quoted-string (RFC 9112 §7.1.1, RFC 9110 §5.6).
    static func validExtensions(_ line: UnsafeRawBufferPointer, from start: Int) -> Bool {
        var i = start
        func skipWhitespace() { while i < line.count, line[i] == 0x20 || line[i] == 0x09 { i += 1 } }
        func token() -> Bool {
            let first = i
            while i < line.count, HTTPSyntax.isTokenChar(line[i]) { i += 1 }
            return i > first
        }
        func quotedString() -> Bool {
            guard i < line.count, line[i] == 0x22 else { return false }
            i += 1
            while i < line.count {
                let byte = line[i]
                if byte == 0x22 { i += 1; return true }
                if byte == 0x5C {
                    guard i + 1 < line.count, line[i + 1] == 0x09 || line[i + 1] >= 0x20 && line[i + 1] != 0x7F else { return false }
                    i += 2
                } else if byte == 0x09 || byte >= 0x20 && byte != 0x7F {
                    i += 1
                } else {
                    return false
                }
            }
            return false
        }
        while true {
            skipWhitespace()
            if i == line.count { return true }
            guard line[i] == UInt8(ascii: ";") else { return false }
            i += 1
            skipWhitespace()
            guard token() else { return false }
            skipWhitespace()
            if i < line.count, line[i] == UInt8(ascii: "=") {
                i += 1
                skipWhitespace()
                guard token() || quotedString() else { return false }
            }
        }
    }
}
