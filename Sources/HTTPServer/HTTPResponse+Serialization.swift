import JSONKit
import CSystem

/// How a response's body is delimited on the wire (RFC 9112 §6).
enum BodyFraming: Equatable {
    /// `Content-Length` (none for 1xx, 204 and 304).
    case length(Int)
    /// `Transfer-Encoding: chunked`, for streams to HTTP/1.1 clients.
    case chunked
    /// Neither: the body ends when the connection closes, for streams to HTTP/1.0 clients,
    /// which must not be sent a transfer coding (RFC 9112 §6.1). Requires closing.
    case untilClose

    /// The framing of a stream for a request of `version`.
    static func stream(for version: HTTPVersion) -> BodyFraming {
        version == .http1_1 ? .chunked : .untilClose
    }
}

extension HTTPResponse {
    /// Writes the status line and header section (RFC 9112 §4, §5), adding the framing and
    /// connection headers the server owns. Handlers' own `Content-Length`/`Transfer-Encoding`/
    /// `Connection` headers are ignored so framing cannot be got wrong.
    func serializeHead(into out: inout [UInt8], keepAlive: Bool, requestID: String, date: [UInt8],
                       framing: BodyFraming) {
        JSONWriter.appendLiteral("HTTP/1.1 ", to: &out)
        JSONWriter.appendInteger(status.code, to: &out)
        out.append(0x20)
        out.append(contentsOf: status.reason.utf8)
        JSONWriter.appendLiteral("\r\n", to: &out)
        for field in headers {
            switch field.name.utf8.count {
            case 4 where field.isNamed("date"),
                 10 where field.isNamed("connection"),
                 12 where field.isNamed("x-request-id"),
                 14 where field.isNamed("content-length"),
                 17 where field.isNamed("transfer-encoding"):
                continue
            default:
                out.append(contentsOf: field.name.utf8)
                out.append(contentsOf: ": ".utf8)
                out.append(contentsOf: field.value.utf8)
                out.append(contentsOf: "\r\n".utf8)
            }
        }
        switch framing {
        case .length(let length):
            // RFC 9110 §8.6: no Content-Length in 1xx and 204 responses.
            if status.code != 204 && status.code != 304 && status.code >= 200 {
                JSONWriter.appendLiteral("Content-Length: ", to: &out)
                JSONWriter.appendInteger(length, to: &out)
                JSONWriter.appendLiteral("\r\n", to: &out)
            }
        case .chunked:
            out.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8)
        case .untilClose:
            break
        }
        if !keepAlive { out.append(contentsOf: "Connection: close\r\n".utf8) }
        out.append(contentsOf: "Date: ".utf8)
        out.append(contentsOf: date)
        out.append(contentsOf: "\r\nX-Request-Id: ".utf8)
        out.append(contentsOf: requestID.utf8)
        out.append(contentsOf: "\r\n\r\n".utf8)
    }
}

/// Caches the `Date` header value, reformatted at most once a second.
struct HTTPDateCache {
    private var second: Int64 = -1
    private var value: [UInt8] = []

    /// The value for the wall-clock time `wallMs` (milliseconds since 1970; 0: read the clock now).
    mutating func current(wallMs: Int64 = 0) -> [UInt8] {
        let now = (wallMs > 0 ? wallMs : csys_wall_ms()) / 1000
        if now != second {
            second = now
            var buf = [CChar](repeating: 0, count: 32)
            csys_http_date(now, &buf)
            value = Array(String(cChars: buf).utf8)
        }
        return value
    }
}

extension BodyFraming {
    /// Appends one piece of a streamed body: a chunk (RFC 9112 §7.1), or the bytes as they are
    /// when the body ends with the connection.
    func appendPiece(_ bytes: [UInt8], to out: inout [UInt8]) {
        guard self == .chunked else {
            out.append(contentsOf: bytes)
            return
        }
        out.append(contentsOf: String(bytes.count, radix: 16).utf8)
        out.append(contentsOf: "\r\n".utf8)
        out.append(contentsOf: bytes)
        out.append(contentsOf: "\r\n".utf8)
    }

    /// Appends what ends a streamed body: the last chunk, or nothing (the close ends it).
    func appendEnd(to out: inout [UInt8]) {
        if self == .chunked { out.append(contentsOf: "0\r\n\r\n".utf8) }
    }
}
