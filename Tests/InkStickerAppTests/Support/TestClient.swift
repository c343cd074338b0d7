import Foundation
import Glibc

/// A small blocking HTTP/1.1 client over a real socket, one connection per request.
struct TestClient {
    let port: Int

    struct Response {
        let status: Int
        let headers: [String: String]
        let body: Data

        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        }
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    func request(_ method: String, _ path: String, json: Any? = nil, body: Data? = nil,
                 headers: [String: String] = [:], token: String? = nil) throws -> Response {
        var payload = body ?? Data()
        var allHeaders = headers
        if let json {
            payload = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
            allHeaders["Content-Type"] = allHeaders["Content-Type"] ?? "application/json"
        }
        if let token { allHeaders["Authorization"] = "Bearer \(token)" }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in allHeaders { head += "\(name): \(value)\r\n" }
        if !payload.isEmpty || ["POST", "PUT", "PATCH"].contains(method) { head += "Content-Length: \(payload.count)\r\n" }
        head += "\r\n"
        return try exchange(Data(head.utf8) + payload)
    }

    /// Sends raw bytes and reads until the server closes.
    func exchange(_ bytes: Data) throws -> Response {
        let fd = try TestSocket.connect(port: port)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received.append(contentsOf: buffer[0..<n])
        }
        return try Self.parse(received)
    }

    static func parse(_ data: Data) throws -> Response {
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { throw HarnessError("no complete response: \(String(decoding: data, as: UTF8.self))") }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw HarnessError("bad status line") }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: Data(data[split.upperBound...]))
    }
}

extension TestClient {
    /// A new board: its token and the base path of its resources.
    func newBoard() throws -> (token: String, base: String) {
        let board = try request("POST", "/v1/boards", json: [:])
        guard let token = board.json["token"] as? String, let id = board.json["id"] as? String else {
            throw HarnessError("no board: \(board.status) \(board.text)")
        }
        return (token, "/v1/boards/\(id)")
    }
}
