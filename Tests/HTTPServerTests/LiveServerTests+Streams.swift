import Foundation
import Glibc
import Locking
import Synchronization
import Testing
@testable import HTTPServer

/// Streams and the ends of connections over real sockets: HEAD and HTTP/1.0 framing of a stream,
/// clients that half-close, go away or keep sending, and what that costs the loop.
extension LiveServerTests {
    @Test func aHeadRequestForAStreamPromisesNoLength() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("HEAD /stream HTTP/1.1\r\nHost: x\r\n\r\nGET /y HTTP/1.1\r\nHost: x\r\n\r\n")
            let (text, _) = client.read { $0.contains("GET /y 0 ") }
            let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
            // RFC 9110 §8.6: a HEAD response's Content-Length must be the GET response's; a
            // stream has none. The GET response's framing header, and no body.
            #expect(head.contains("Transfer-Encoding: chunked"))
            #expect(!head.contains("Content-Length"))
            #expect(!text.contains("event"))
        }
    }

    @Test func aStreamToAnHTTP10ClientIsNotChunked() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /stream HTTP/1.0\r\n\r\n")
            let (text, closed) = client.waitForClose()
            // RFC 9112 §6.1: no transfer coding for HTTP/1.0; the close ends the body.
            #expect(closed)
            #expect(!text.contains("Transfer-Encoding"))
            #expect(text.contains("Connection: close"))
            #expect(text.hasSuffix("\r\n\r\nevent 0\nevent 1\nevent 2\n"))
        }
    }

    @Test func aStreamAnsweredAfterItsClientWentIsClosed() throws {
        try withServer { server in
            let before = EchoHandler.closedLateStreams.load(ordering: .relaxed)
            let client = try RawClient(port: server.port)
            client.send("GET /stream/late HTTP/1.1\r\nHost: x\r\n\r\n")
            usleep(30_000)
            client.reset()  // before the handler answers
            usleep(500_000)
            #expect(EchoHandler.closedLateStreams.load(ordering: .relaxed) == before + 1)
        }
    }

    @Test func aClientThatHalfClosesStillGetsItsAnswers() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            // The requests, then the end of the input while the first is still being handled.
            client.send("GET /slow/100 HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
            client.halfClose()
            let (text, closed) = client.waitForClose()
            let responses = RawClient.split(text)
            #expect(responses.map { $0.components(separatedBy: "\r\n\r\n").last ?? "" } == ["GET /slow/100 0 ", "GET /fast 0 "])
            #expect(responses.last?.contains("Connection: close") == true)
            #expect(closed)
        }
    }

    @Test func whatAStreamsClientSendsIsNotBufferedWithoutBound() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /stream/open HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = client.read { $0.contains("event 0") }
            let fd = client.fd
            let stop = Atomic<Bool>(false)
            Thread.detach {
                let junk = [UInt8](repeating: 0x78, count: 4 << 20)
                var sent = 0
                while sent < junk.count, !stop.load(ordering: .relaxed) {
                    let n = junk[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                    if n > 0 { sent += n } else { usleep(1000) }
                }
            }
            defer { stop.store(true, ordering: .relaxed) }
            usleep(500_000)
            // At most the pipelining bound (64 KiB) plus one read, then the connection is dropped:
            // requests behind an endless stream cannot be served. Before, all 4 MiB were kept.
            let held = Self.largestConnectionBuffers(server)
            #expect(held <= 5 << 16, "a stream's client holds \(held >> 10) KiB of input")
            #expect(client.waitForClose(timeoutMs: 2_000).closed)
        }
    }

    @Test func aLastAnswerStillBeingWrittenReachesAClientThatHalfCloses() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            // The connection's last answer (Connection: close), 16 MiB, not read yet; then the
            // end of the client's input. Before, the server closed at once and cut the answer.
            client.send("GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            usleep(100_000)
            client.halfClose()
            usleep(100_000)
            var received = 0
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = recv(client.fd, &buffer, buffer.count, 0)
                if n <= 0 { break }
                received += n
            }
            #expect(received > 16 << 20, "\(received) bytes")
        }
    }

    @Test func largeBodiesArriveWholeAndInOrderToAClientThatReadsLate() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            // Pipelined: a small answer, three large ones (written straight from their bytes when
            // the socket takes them, the rest buffered), a HEAD, a small one; read only later.
            client.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n" + (1...3).map { "GET /pattern/\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
                        + "HEAD /pattern/4 HTTP/1.1\r\nHost: x\r\n\r\nGET /z HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            usleep(300_000)
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = recv(client.fd, &buffer, buffer.count, 0)
                if n <= 0 { break }
                received += buffer[0..<n]
                usleep(200)
            }
            var rest = received[...]
            var bodies: [[UInt8]] = []
            while let headEnd = rest.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: rest[rest.startIndex..<headEnd.lowerBound], as: UTF8.self)
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                let bodyLength = bodies.count == 4 ? 0 : length   // the HEAD answer: its GET's length, no body
                bodies.append(Array(rest[headEnd.upperBound..<headEnd.upperBound + min(bodyLength, rest.count - (headEnd.upperBound - rest.startIndex))]))
                rest = rest[(headEnd.upperBound + bodyLength)...]
            }
            #expect(bodies.count == 6)
            #expect(bodies.first == Array("GET /a 0 ".utf8))
            for seed in 1...3 where bodies.count > seed { #expect(bodies[seed] == EchoHandler.pattern(seed), "body \(seed)") }
            #expect(bodies.count == 6 && bodies[4].isEmpty && bodies[5] == Array("GET /z 0 ".utf8))
        }
    }

    @Test func aStreamsClientWhoseInputEndedIsLetGo() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /stream/open HTTP/1.1\r\nHost: x\r\n\r\n")
            client.halfClose()
            // Whether the end of input is read before or after the answer starts, the stream ends.
            let (text, closed) = client.waitForClose(timeoutMs: 2_000)
            #expect(closed)
            #expect(text.hasPrefix("HTTP/1.1 200 OK"))
        }
    }

    @Test func aPausedClientThatHalfClosesDoesNotSpinTheLoop() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            // An answer the client does not read pauses reading from it; then its input ends.
            client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
            usleep(100_000)
            client.halfClose()
            usleep(50_000)
            let before = Self.loopCPUSeconds(server)
            usleep(500_000)
            let used = Self.loopCPUSeconds(server) - before
            // Before, the hang-up event stayed set and was never consumed: a whole core.
            #expect(used < 0.15 * SanitizerSlowdown.factor, "the loops used \(used) s of CPU in 0.5 s")
        }
    }

    /// The CPU time the server's loop threads have used, read on each loop's own thread.
    static func loopCPUSeconds(_ server: HTTPServer) -> Double {
        let total = Lock(0.0)
        let done = DispatchSemaphore(value: 0)
        for loop in server.loops {
            loop.execute {
                var time = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
                total.withLock { $0 += Double(time.tv_sec) + Double(time.tv_nsec) / 1e9 }
                done.signal()
            }
        }
        for _ in server.loops { done.wait() }
        return total.withLock { $0 }
    }
}
