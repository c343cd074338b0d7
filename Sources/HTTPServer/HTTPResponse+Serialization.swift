import JSONKit
import CSystem

extension HTTPResponse {
    /// Writes the status line and header section (RFC 9112 §4, §5), adding the framing and
    /// connection headers the server owns. Handlers' own `Content-Length`/`Transfer-Encoding`/
    /// `Connection` headers are ignored so framing cannot be got wrong.
    func serializeHead(into out: inout [UInt8], keepAlive: Bool, requestID: String, date: [UInt8],
                       bodyLengthForFraming: Int?) {
        JSONWriter.appendLiteral("HTTP/1.1 ", to: &out)
        JSONWriter.appendInteger(status.code, to: &out)
        out.append(0x20)
        out.append(contentsOf: status.reason.utf8)
        JSONWriter.appendLiteral("\r\n", to: &out)
        for field in headers {
            switch field.lowercasedName {
            case "content-length", "transfer-encoding", "connection", "date", "x-request-id": continue
            default:
                out.append(contentsOf: field.name.utf8)
                out.append(contentsOf: ": ".utf8)
                out.append(contentsOf: field.value.utf8)
                out.append(contentsOf: "\r\n".utf8)
            }
        }
        if let length = bodyLengthForFraming {
            // RFC 9110 §8.6: no Content-Length in 1xx and 204 responses.
            if status.code != 204 && status.code != 304 && status.code >= 200 {
                JSONWriter.appendLiteral("Content-Length: ", to: &out)
                JSONWriter.appendInteger(length, to: &out)
                JSONWriter.appendLiteral("\r\n", to: &out)
            }
        } else {
            out.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8)
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

    mutating func current() -> [UInt8] {
        let now = csys_wall_ms() / 1000
        if now != second {
            second = now
            var buf = [CChar](repeating: 0, count: 32)
            csys_http_date(now, &buf)
            value = Array(String(cChars: buf).utf8)
        }
        return value
    }
}

/// Chunk framing for streaming bodies (RFC 9112 §7.1).
enum ChunkedEncoding {
    static func appendChunk(_ bytes: [UInt8], to out: inout [UInt8]) {
        out.append(contentsOf: String(bytes.count, radix: 16).utf8)
        out.append(contentsOf: "\r\n".utf8)
        out.append(contentsOf: bytes)
        out.append(contentsOf: "\r\n".utf8)
    }

    static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)
}
