import Foundation
import Locking
import Synchronization
import Testing
@testable import HTTPServer

/// Behaviour over real sockets on port 0.
@Suite(.serialized) struct LiveServerTests {
    @Test func keepAliveServesManyRequestsOnOneConnection() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            for i in 0..<5 {
                client.send("GET /a\(i) HTTP/1.1\r\nHost: x\r\n\r\n")
                let responses = client.readResponses(1)
                #expect(responses.count == 1)
                #expect(responses.first?.hasSuffix("GET /a\(i) 0 ") == true)
                #expect(responses.first?.contains("Connection: close") == false)
            }
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrderEvenWhenTheFirstIsSlow() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /slow/150 HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\nPOST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
            let responses = client.readResponses(3)
            #expect(responses.count == 3)
            #expect(responses.map { $0.components(separatedBy: "\r\n\r\n").last ?? "" }
                    == ["GET /slow/150 0 ", "GET /fast 0 ", "POST /p 3 abc"])
        }
    }

    @Test func http10ClosesByDefault() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /x HTTP/1.0\r\n\r\n")
            let (text, closed) = client.waitForClose()
            #expect(closed)
            #expect(text.contains("Connection: close"))
        }
    }

    @Test func connectionCloseIsHonoured() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let (text, closed) = client.waitForClose()
            #expect(closed)
            #expect(text.hasPrefix("HTTP/1.1 200 OK"))
        }
    }

    @Test func headAnswersHeadersWithoutBody() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("HEAD /x HTTP/1.1\r\nHost: x\r\n\r\nGET /y HTTP/1.1\r\nHost: x\r\n\r\n")
            let (text, _) = client.read { $0.contains("GET /y 0 ") }
            let first = text.components(separatedBy: "HTTP/1.1 200 OK").dropFirst().first ?? ""
            #expect(first.contains("Content-Length: 10"))  // "HEAD /x 0 "
            #expect(!first.contains("HEAD /x"))
            #expect(text.hasSuffix("GET /y 0 "))
        }
    }

    @Test func expectContinueGetsInterimResponseBeforeBody() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("POST /up HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
            let (interim, _) = client.read { $0.contains("\r\n\r\n") }
            #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
            client.send("hello")
            let (final, _) = client.read { $0.hasSuffix("hello") }
            #expect(final.hasPrefix("HTTP/1.1 200 OK"))
        }
    }

    @Test func expectContinueWithOversizedBodyIsRefusedWithoutContinue() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("POST /small HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 1000\r\n\r\n")
            let (text, closed) = client.waitForClose()
            #expect(text.hasPrefix("HTTP/1.1 413"))
            #expect(!text.contains("100 Continue"))
            #expect(text.contains("application/problem+json"))
            #expect(closed)
        }
    }

    /// A client that sends a whole oversized body without `Expect: 100-continue` and only then
    /// reads (as most HTTP libraries do) still gets the 413: the server lingers, reading and
    /// discarding, instead of closing while the client is sending (RFC 9112 §9.6).
    @Test func oversizedBodyWithoutExpectStillGetsThe413() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            let body = [UInt8](repeating: 0x61, count: 10 << 20)
            client.send("POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n")
            let sent = client.sendCounting(body)
            #expect(sent == body.count, "the server stopped reading after \(sent) bytes")
            let (text, closed) = client.waitForClose()
            #expect(text.hasPrefix("HTTP/1.1 413"), "\(text.prefix(200))")
            #expect(text.contains("application/problem+json"))
            #expect(closed)
        }
    }

    /// Lingering is bounded: a client that goes quiet is closed after the lingering timeout, and
    /// one that keeps sending is closed after the byte bound.
    @Test func lingeringEndsAtItsBounds() throws {
        try withServer({ $0.lingeringTimeout = .milliseconds(300); $0.lingeringBytes = 1 << 20 }) { server in
            let quiet = try RawClient(port: server.port)
            quiet.send("POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
            let (text, closed) = quiet.waitForClose(timeoutMs: 5000)
            #expect(text.hasPrefix("HTTP/1.1 413"))
            #expect(closed)  // the end of the server's sending side (it lingers to read)
            // The client keeps its socket open and sends nothing: the server itself lets go
            // after the lingering timeout.
            let started = ContinuousClock.now
            while server.metrics.connections > 0 && ContinuousClock.now - started < .seconds(5) { usleep(20_000) }
            #expect(server.metrics.connections == 0, "the quiet client's connection is still open")
            #expect(ContinuousClock.now - started < .seconds(3))

            let flood = try RawClient(port: server.port)
            flood.send("POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n")
            let sent = flood.sendCounting([UInt8](repeating: 0x62, count: 8 << 20))
            #expect(sent < 8 << 20, "the server read all \(sent) bytes instead of stopping at its bound")
        }
    }

    @Test func chunkedUploadOverTheWire() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
            #expect(client.readResponses(1).first?.hasSuffix("POST /c 5 abcde") == true)
        }
    }

    @Test func smugglingAttemptIsRejectedAndClosed() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n")
            let (text, closed) = client.waitForClose()
            #expect(text.hasPrefix("HTTP/1.1 400"))
            #expect(!text.contains("smuggled"))
            #expect(closed)
        }
    }

    @Test func headerTimeoutAnswers408AndCloses() throws {
        try withServer({ $0.headerTimeout = .milliseconds(300) }) { server in
            let client = try RawClient(port: server.port)
            client.send("GET /x HTTP/1.1\r\nHo")
            let (text, closed) = client.waitForClose(timeoutMs: 3000)
            #expect(text.hasPrefix("HTTP/1.1 408"))
            #expect(closed)
        }
    }

    @Test func bodyShorterThanContentLengthTimesOut() throws {
        try withServer({ $0.bodyTimeout = .milliseconds(300) }) { server in
            let client = try RawClient(port: server.port)
            client.send("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
            let (text, closed) = client.waitForClose(timeoutMs: 3000)
            #expect(text.hasPrefix("HTTP/1.1 408"))
            #expect(closed)
        }
    }

    @Test func idleKeepAliveConnectionIsClosedSilently() throws {
        try withServer({ $0.keepAliveTimeout = .milliseconds(300) }) { server in
            let client = try RawClient(port: server.port)
            client.send("GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = client.readResponses(1)
            let (text, closed) = client.waitForClose(timeoutMs: 3000)
            #expect(closed)
            #expect(text.isEmpty)
        }
    }

    @Test func connectionsOverTheLimitGet503() throws {
        try withServer({ $0.maxConnections = 2 }) { server in
            let a = try RawClient(port: server.port)
            let b = try RawClient(port: server.port)
            a.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
            b.send("GET /b HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(a.readResponses(1).count == 1)
            #expect(b.readResponses(1).count == 1)
            let c = try RawClient(port: server.port)
            let (text, closed) = c.waitForClose()
            #expect(text.hasPrefix("HTTP/1.1 503"))
            #expect(text.contains("Retry-After: 1"))
            #expect(closed)
            #expect(server.metrics.prometheusText().contains("http_rejected_connections_total 1"))
        }
    }

    @Test func streamingResponseUsesChunkedCoding() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            let (text, _) = client.read { $0.hasSuffix("0\r\n\r\n") }
            #expect(text.contains("Transfer-Encoding: chunked"))
            #expect(text.contains("8\r\nevent 0\n\r\n"))
            #expect(text.contains("8\r\nevent 2\n\r\n"))
        }
    }

    @Test func requestIDIsEchoedOrGenerated() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /x HTTP/1.1\r\nHost: x\r\nX-Request-Id: abc-123\r\n\r\nGET /y HTTP/1.1\r\nHost: x\r\nX-Request-Id: bad id\r\n\r\n")
            let responses = client.readResponses(2)
            #expect(responses.first?.contains("X-Request-Id: abc-123") == true)
            #expect(responses.last?.contains("X-Request-Id: ") == true)
            #expect(responses.last?.contains("bad id") == false)
        }
    }

    @Test func accessLogHasOneJSONLinePerRequest() throws {
        let sink = MemoryLogSink()
        try withServer(sink: sink) { server in
            let client = try RawClient(port: server.port)
            client.send("GET /logged?q=1 HTTP/1.1\r\nHost: x\r\nX-Request-Id: r-1\r\n\r\n")
            _ = client.readResponses(1)
        }
        let line = try #require(sink.lines.first { $0.contains("r-1") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["method"] as? String == "GET")
        #expect(object["path"] as? String == "/logged")
        #expect(object["status"] as? Int == 200)
        #expect(object["requestId"] as? String == "r-1")
        #expect(object["bytes"] as? Int == 14)  // "GET /logged 0 "
        #expect(object["durationMs"] is Double || object["durationMs"] is Int)
    }

    @Test func shutdownFinishesInFlightRequests() throws {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        let server = try HTTPServer.start(configuration: configuration, handler: EchoHandler(), logSink: MemoryLogSink())
        let busy = try RawClient(port: server.port)
        let idle = try RawClient(port: server.port)
        busy.send("GET /slow/300 HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(50_000)
        let started = Date()
        server.shutdown(gracePeriod: .seconds(3))
        #expect(Date().timeIntervalSince(started) < 2.5)
        let (text, closed) = busy.waitForClose()
        #expect(text.hasPrefix("HTTP/1.1 200 OK"))
        #expect(text.contains("Connection: close"))
        #expect(closed)
        #expect(idle.waitForClose().closed)
        #expect((try? RawClient(port: server.port)) == nil)
    }
}

/// A client that pipelines requests without reading the answers must not grow the server's memory
/// or slow the others: the server stops reading from it once its unread answers pass a bound.
/// Part of the serialized live-server suite, so its latency bound does not compete with the
/// suite's large uploads.
extension LiveServerTests {
    /// The most bytes any connection holds in its buffers, read on the loop's own thread.
    static func largestConnectionBuffers(_ server: HTTPServer) -> Int {
        let largest = Lock(0)
        let done = DispatchSemaphore(value: 0)
        for loop in server.loops {
            loop.execute {
                let most = loop.connections.values.map { $0.pendingOutput + $0.bufferedInput }.max() ?? 0
                largest.withLock { $0 = max($0, most) }
                done.signal()
            }
        }
        for _ in server.loops { done.wait() }
        return largest.withLock { $0 }
    }

    @Test func aClientThatNeverReadsIsHeldBackAndOthersAreServed() throws {
        try withServer { server in
            let flooder = try RawClient(port: server.port)
            let fd = flooder.fd
            let stop = Atomic<Bool>(false)
            Thread.detach {
                let request = Array(String(repeating: "GET /x HTTP/1.1\r\nHost: x\r\n\r\n", count: 2000).utf8)
                while !stop.load(ordering: .relaxed) {
                    let n = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                    if n < 0 { usleep(1000) }
                }
            }
            defer { stop.store(true, ordering: .relaxed) }
            let normal = try RawClient(port: server.port)
            var waits: [Double] = []
            let bound = SanitizerSlowdown.factor
            let started = Date()
            while Date().timeIntervalSince(started) < 2 {
                let t0 = Date()
                normal.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(normal.readResponses(1, timeoutMs: Int32(3000 * bound)).count == 1)
                waits.append(Date().timeIntervalSince(t0))
            }
            let held = Self.largestConnectionBuffers(server)
            // The bound is 256 KiB of answers plus at most one event's reads (4 × 64 KiB) of requests.
            #expect(held <= 1 << 20, "a connection that never reads holds \(held >> 10) KiB")
            // Served in turn with the flood, not after it: before turns were bounded
            // (`EventLoop.maxRequestsPerTurn`), the median wait here was 0.26-0.48 s.
            let median = waits.sorted()[waits.count / 2], worst = waits.max() ?? 0
            #expect(median < 0.05 * bound, "a normal client's median wait was \(median) s")
            #expect(worst < bound, "a normal client waited \(worst) s")
        }
    }
}
