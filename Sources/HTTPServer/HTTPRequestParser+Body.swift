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
                // Exactly CRLF (or a lenient bare LF) must follow the chunk data.
                guard offset < buffer.count else { return (offset, .needMore) }
                if buffer[offset] == 0x0A {
                    offset += 1
                } else if buffer[offset] == 0x0D {
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

    /// Finds a line (ending in LF, optional CR) starting at `from`, or nil when it is not complete yet.
    private func readLine(_ buffer: UnsafeRawBufferPointer, from: Int, limit: Int, what: String) throws(HTTPParseError) -> (content: Range<Int>, next: Int)? {
        var i = from
        while i < buffer.count {
            if buffer[i] == 0x0A {
                var end = i
                if end > from, buffer[end - 1] == 0x0D { end -= 1 }
                if end - from > limit { throw .bad("\(what) too long") }
                return (from..<end, i + 1)
            }
            i += 1
        }
        if buffer.count - from > limit + 1 { throw .bad("\(what) too long") }
        return nil
    }

    /// chunk-size = 1*HEXDIG, then optional chunk extensions (ignored) (RFC 9112 §7.1.1).
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
        }
        return size
    }
}
