import Glibc
import Synchronization
import HTTPServer

/// A blocking TCP client for live-socket tests: sends raw bytes, reads with a timeout.
final class RawClient {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else { Glibc.close(fd); throw SocketError("connect") }
    }

    private var isClosed = false

    deinit { if !isClosed { Glibc.close(fd) } }

    /// Drops the connection with a reset (SO_LINGER 0), as a client that crashed or gave up.
    func reset() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        Glibc.close(fd)
        isClosed = true
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Sends until done or the peer stops taking bytes (reset, or nothing accepted for 5 s);
    /// returns how many bytes went out.
    func sendCounting(_ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&pfd, 1, 5000) > 0, pfd.revents & Int16(POLLOUT) != 0 else { return offset }
            let n = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { continue }
            if n <= 0 { return offset }
            offset += n
        }
        return offset
    }

    /// Reads until `predicate` holds for everything read so far, the peer closes, or the timeout passes.
    func read(timeoutMs: Int32 = 3000, until predicate: (String) -> Bool) -> (text: String, closed: Bool) {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, timeoutMs)
            if ready <= 0 { return (String(decoding: data, as: UTF8.self), false) }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return (String(decoding: data, as: UTF8.self), true) }
            data += buffer[0..<n]
            let text = String(decoding: data, as: UTF8.self)
            if predicate(text) { return (text, false) }
        }
    }

    /// Reads `count` complete responses that carry Content-Length bodies.
    func readResponses(_ count: Int, timeoutMs: Int32 = 3000) -> [String] {
        let (text, _) = read(timeoutMs: timeoutMs) { Self.split($0).count >= count }
        return Self.split(text)
    }

    /// Shuts down the sending side: the server sees the end of the input, and may still answer.
    func halfClose() { _ = shutdown(fd, Int32(SHUT_WR)) }

    /// Reads until the peer closes (or the timeout passes); true when it closed.
    func waitForClose(timeoutMs: Int32 = 3000) -> (text: String, closed: Bool) {
        read(timeoutMs: timeoutMs) { _ in false }
    }

    /// Splits a byte stream of responses with Content-Length bodies into whole responses.
    static func split(_ text: String) -> [String] {
        var responses: [String] = []
        var rest = Substring(text)
        while let headEnd = rest.range(of: "\r\n\r\n") {
            let head = rest[..<headEnd.lowerBound]
            var length = 0
            for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
                length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
            }
            let isInterim = head.hasPrefix("HTTP/1.1 1")
            let bodyStart = headEnd.upperBound
            guard rest.distance(from: bodyStart, to: rest.endIndex) >= length else { break }
            let end = rest.index(bodyStart, offsetBy: isInterim ? 0 : length)
            responses.append(String(rest[rest.startIndex..<end]))
            rest = rest[end...]
        }
        return responses
    }
}

/// A handler for tests: echoes what it got, and answers some paths slowly from another thread.
struct EchoHandler: HTTPHandler {
    func handle(_ request: HTTPRequest, writer: HTTPResponseWriter) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain")
        let text = "\(request.method) \(request.path) \(request.body.count) \(String(decoding: request.body, as: UTF8.self))"
        let response = HTTPResponse(status: .ok, headers: headers, body: Array(text.utf8), route: "echo")
        if request.path.hasPrefix("/slow") {
            let delayMs = Int(request.path.dropFirst("/slow/".count)) ?? 200
            Thread.detach {
                usleep(UInt32(delayMs * 1000))
                writer.send(response)
            }
        } else if request.path.hasPrefix("/pattern/") {
            let seed = Int(request.path.dropFirst("/pattern/".count)) ?? 0
            writer.send(HTTPResponse(status: .ok, headers: headers, body: Self.pattern(seed), route: "pattern"))
        } else if request.path == "/big" {
            writer.send(HTTPResponse(status: .ok, headers: headers, body: [UInt8](repeating: 0x61, count: 16 << 20), route: "big"))
        } else if request.path == "/stream/late" {
            // A stream answered after the client may have gone; counted when it is closed.
            Thread.detach {
                usleep(150_000)
                let stream = HTTPBodyStream()
                stream.onClose { EchoHandler.closedLateStreams.add(1, ordering: .relaxed) }
                writer.send(HTTPResponse(status: .ok, stream: stream, route: "stream"))
            }
        } else if request.path == "/stream/open" {
            // One event, then open until the client goes.
            let stream = HTTPBodyStream()
            writer.send(HTTPResponse(status: .ok, stream: stream, route: "stream"))
            stream.write(Array("event 0\n".utf8))
        } else if request.path == "/stream" {
            let stream = HTTPBodyStream()
            writer.send(HTTPResponse(status: .ok, stream: stream, route: "stream"))
            Thread.detach {
                for i in 0..<3 { stream.write(Array("event \(i)\n".utf8)); usleep(10_000) }
                stream.finish()
            }
        } else {
            writer.send(response)
        }
    }

    func admit(_ head: HTTPRequestHead) -> HTTPAdmission { HTTPAdmission(bodyLimit: head.path == "/small" ? 16 : nil) }

    /// `/pattern/N`'s body: 300 KB that differ with N and along their length.
    static func pattern(_ seed: Int) -> [UInt8] { (0..<300_000).map { UInt8(truncatingIfNeeded: ($0 &* 7 &+ seed &* 13) % 251) } }

    /// Streams of `/stream/late` closed so far.
    static let closedLateStreams = Atomic<Int>(0)
}

enum Thread {
    static func detach(_ body: @escaping @Sendable () -> Void) {
        final class Box: @unchecked Sendable { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
        var thread = pthread_t()
        _ = pthread_create(&thread, nil, { raw in
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, Unmanaged.passRetained(Box(body)).toOpaque())
        pthread_detach(thread)
    }
}

func withServer(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in },
                sink: MemoryLogSink = MemoryLogSink(),
                _ body: (HTTPServer) throws -> Void) throws {
    var configuration = HTTPServerConfiguration()
    configuration.port = 0
    configure(&configuration)
    let server = try HTTPServer.start(configuration: configuration, handler: EchoHandler(), logSink: sink)
    defer { server.shutdown(gracePeriod: .seconds(2)) }
    try body(server)
}
