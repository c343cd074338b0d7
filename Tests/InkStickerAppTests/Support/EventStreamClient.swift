import Foundation
import Glibc

/// Reads a Server-Sent Events response over a real socket, decoding the chunked body.
final class EventStreamClient {
    struct Event: Equatable {
        var id: Int
        var type: String
        var data: String
    }

    private let fd: Int32
    private var raw = Data()
    private var body = Data()
    private var headerParsed = false
    private(set) var status = 0
    private(set) var closed = false

    init(port: Int, path: String, token: String, lastEventID: Int? = nil) throws {
        fd = try TestSocket.connect(port: port)
        var request = "GET \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nAccept: text/event-stream\r\n"
        if let lastEventID { request += "Last-Event-ID: \(lastEventID)\r\n" }
        request += "\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    deinit { Glibc.close(fd) }

    func disconnect() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Reads until `count` events arrived or the timeout passed; returns every event so far.
    func events(atLeast count: Int, timeoutMs: Int = 5000) -> [Event] {
        let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
        while parsedEvents().count < count && Date() < deadline && !closed {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 100) <= 0 { continue }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { closed = true; break }
            raw.append(contentsOf: buffer[0..<n])
            decode()
        }
        return parsedEvents()
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    private func decode() {
        if !headerParsed {
            guard let end = raw.range(of: Data("\r\n\r\n".utf8)) else { return }
            let head = String(decoding: raw[..<end.lowerBound], as: UTF8.self)
            status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
            raw.removeSubrange(..<end.upperBound)
            headerParsed = true
        }
        while let lineEnd = raw.range(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: raw[..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText, radix: 16) else { return }
            let needed = lineEnd.upperBound + size + 2
            guard raw.count >= needed - raw.startIndex else { return }
            body.append(raw[lineEnd.upperBound..<(lineEnd.upperBound + size)])
            raw.removeSubrange(..<(lineEnd.upperBound + size + 2))
            if size == 0 { closed = true; return }
        }
    }

    private func parsedEvents() -> [Event] {
        var events: [Event] = []
        for block in text.components(separatedBy: "\n\n") {
            var event = Event(id: -1, type: "message", data: "")
            for line in block.split(separator: "\n") {
                if line.hasPrefix("id: ") { event.id = Int(line.dropFirst(4)) ?? -1 }
                if line.hasPrefix("event: ") { event.type = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { event.data = String(line.dropFirst(6)) }
            }
            if event.id >= 0 { events.append(event) }
        }
        return events
    }
}
