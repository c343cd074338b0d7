import Testing
@testable import HTTPServer

@Suite struct HTTPRequestParserTests {
    @Test func parsesSimpleGet() throws {
        var h = ParserHarness()
        try h.feed("GET /healthz?x=1 HTTP/1.1\r\nHost: a\r\nX-Thing:  v  \r\n\r\n")
        #expect(h.heads.count == 1)
        #expect(h.bodies == [[]])
        let head = try #require(h.heads.first)
        #expect(head.method == .get)
        #expect(head.path == "/healthz")
        #expect(head.query == "x=1")
        #expect(head.version == .http1_1)
        #expect(head.headers["x-thing"] == "v")
        #expect(head.headers["HOST"] == "a")
        #expect(head.keepAlive)
    }

    @Test func parsesByteByByte() throws {
        let text = "POST /v1/x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello"
        var h = ParserHarness()
        for byte in text.utf8 { try h.feed([byte]) }
        #expect(h.heads.count == 1)
        #expect(h.bodies == [Array("hello".utf8)])
    }

    @Test func parsesPipelinedRequestsInOrder() throws {
        var h = ParserHarness()
        try h.feed("GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhiGET /c HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(h.heads.map(\.target) == ["/a", "/b", "/c"])
        #expect(h.bodies == [[], Array("hi".utf8), []])
    }

    @Test func ignoresLeadingEmptyLinesAndAcceptsBareLF() throws {
        var h = ParserHarness()
        try h.feed("\r\n\r\nGET / HTTP/1.1\nHost: x\n\n")
        #expect(h.heads.count == 1)
    }

    @Test func decodesChunkedBodiesWithExtensionsAndTrailers() throws {
        var h = ParserHarness()
        try h.feed("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nTrailer-A: b\r\n\r\n")
        #expect(h.bodies == [Array("hello world".utf8)])
    }

    /// Inside chunked framing nothing is lenient: a proxy that reads a bare CR or LF otherwise
    /// would see another request in the same bytes. Quoted and spaced extensions still parse.
    @Test func chunkedFramingIsReadStrictly() throws {
        let head = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        for framing in ["2;x\rSMUGGLED\r\n{}\r\n0\r\n\r\n",    // a bare CR inside an extension
                        "2\n{}\r\n0\r\n\r\n",                   // a chunk size line ending in a bare LF
                        "2\r\n{}\n0\r\n\r\n",                   // chunk data followed by a bare LF
                        "2\r\n{}\r\n0\r\n\n",                   // the last line a bare LF
                        "2;=1\r\n{}\r\n0\r\n\r\n",             // an extension without a name
                        "2;a=\"b\r\n{}\r\n0\r\n\r\n"] {        // an unterminated quoted value
            var h = ParserHarness()
            #expect(throws: HTTPParseError.self, "\(framing.debugDescription)") { try h.feed(head + framing) }
        }
        var h = ParserHarness()
        try h.feed(head + "2 ; a = \"q\\\"d\" ;b;c=tok\r\n{}\r\n0\r\n\r\n")
        #expect(h.bodies == [Array("{}".utf8)])
    }

    @Test func chunkedBodyArrivingInPieces() throws {
        var h = ParserHarness()
        let text = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n"
        for piece in stride(from: 0, to: text.utf8.count, by: 3) {
            let bytes = Array(text.utf8)[piece..<min(piece + 3, text.utf8.count)]
            try h.feed(Array(bytes))
        }
        #expect(h.bodies == [Array("0123456789".utf8)])
    }

    @Test func keepAliveRules() throws {
        var h = ParserHarness()
        try h.feed("GET / HTTP/1.0\r\n\r\nGET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(h.heads.map(\.keepAlive) == [false, true, false])
    }

    @Test func expectContinueIsReported() throws {
        var h = ParserHarness()
        try h.feed("POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n")
        #expect(h.heads.first?.expectsContinue == true)
        #expect(h.bodies.isEmpty)
        try h.feed("abc")
        #expect(h.bodies == [Array("abc".utf8)])
    }

    @Test func absoluteFormIsReducedToOriginForm() throws {
        var h = ParserHarness()
        try h.feed("GET http://example.com/a/b?c=d HTTP/1.1\r\nHost: example.com\r\n\r\n")
        #expect(h.heads.first?.target == "/a/b?c=d")
    }

    @Test func repeatedIdenticalContentLengthIsAccepted() throws {
        var h = ParserHarness()
        try h.feed("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok")
        #expect(h.bodies == [Array("ok".utf8)])
    }

    @Test func bodyLimitCanBeLoweredAfterTheHead() throws {
        var parser = HTTPRequestParser()
        let bytes = Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n".utf8)
        let (_, event) = try bytes.withUnsafeBytes { raw in try parser.parse(raw) }
        guard case .head = event else { Issue.record("expected a head"); return }
        #expect(throws: HTTPParseError.self) { try parser.setBodyLimit(10) }
    }
}
