import Testing
@testable import HTTPServer

/// Every malformed or ambiguous request the parser must refuse, with the status it maps to.
@Suite struct HTTPRequestParserRejectionTests {
    static let cases: [(name: String, request: String, status: Int)] = [
        ("content-length with transfer-encoding", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("differing duplicate content-length", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n", 400),
        ("content-length list that differs", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3, 4\r\n\r\n", 400),
        ("non-numeric content-length", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400),
        ("negative content-length", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400),
        ("content-length with plus sign", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\n", 400),
        ("huge content-length", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n", 400),
        ("unknown transfer coding", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
        ("chunked not last", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", 400),
        ("chunked twice", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("unknown coding before chunked", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
        ("transfer-encoding in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("bad chunk size", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("chunk size overflow", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\n", 400),
        ("chunk without CRLF after data", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXY", 400),
        ("obs-fold", "GET / HTTP/1.1\r\nHost: x\r\nX-A: b\r\n c\r\n\r\n", 400),
        ("space before colon", "GET / HTTP/1.1\r\nHost: x\r\nX-A : b\r\n\r\n", 400),
        ("space in header name", "GET / HTTP/1.1\r\nHost: x\r\nX A: b\r\n\r\n", 400),
        ("header without colon", "GET / HTTP/1.1\r\nHost: x\r\nJunk\r\n\r\n", 400),
        ("CR inside header value", "GET / HTTP/1.1\r\nHost: x\r\nX-A: b\rc\r\n\r\n", 400),
        ("NUL inside header value", "GET / HTTP/1.1\r\nHost: x\r\nX-A: b\u{0}c\r\n\r\n", 400),
        ("missing host in 1.1", "GET / HTTP/1.1\r\n\r\n", 400),
        ("two hosts", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        ("malformed request line", "GET /\r\nHost: x\r\n\r\n", 400),
        ("double space in request line", "GET  / HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("relative target", "GET foo HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("space in target", "GET /a b HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("non-ASCII in target", "GET /ä HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("garbage version", "GET / HTTP/x\r\nHost: x\r\n\r\n", 400),
        ("HTTP/2.0 version", "GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505),
        ("unknown method", "BREW / HTTP/1.1\r\nHost: x\r\n\r\n", 501),
        ("invalid method token", "G{T / HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("asterisk with GET", "GET * HTTP/1.1\r\nHost: x\r\n\r\n", 400),
    ]

    @Test(arguments: cases.indices)
    func rejects(_ index: Int) {
        let (name, request, status) = Self.cases[index]
        let error = ParserHarness.error(request)
        #expect(error?.status.code == status, "\(name): got \(String(describing: error))")
    }

    @Test func requestLineOverLimitIs414() {
        let line = "GET /" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\nHost: x\r\n\r\n"
        #expect(ParserHarness.error(line)?.status.code == 414)
    }

    @Test func longRequestLineIsRejectedBeforeItEnds() {
        // The parser must not wait for the end of a line that already broke the limit.
        let partial = "GET /" + String(repeating: "a", count: 9_000)
        #expect(ParserHarness.error(partial)?.status.code == 414)
    }

    @Test func headersOverLimitAre431() {
        var request = "GET / HTTP/1.1\r\nHost: x\r\n"
        for i in 0..<2_000 { request += "X-Header-\(i): \(String(repeating: "v", count: 20))\r\n" }
        #expect(ParserHarness.error(request)?.status.code == 431)
        #expect(ParserHarness.error(request + "\r\n")?.status.code == 431)
    }

    @Test func tooManyHeaderFieldsAre431() {
        var limits = HTTPParserLimits()
        limits.maxHeaderCount = 5
        var request = "GET / HTTP/1.1\r\nHost: x\r\n"
        for i in 0..<6 { request += "X-\(i): v\r\n" }
        #expect(ParserHarness.error(request + "\r\n", limits: limits)?.status.code == 431)
    }

    @Test func declaredBodyOverLimitIs413BeforeTheBody() {
        var limits = HTTPParserLimits()
        limits.maxBodyBytes = 10
        #expect(ParserHarness.error("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n", limits: limits)?.status.code == 413)
    }

    @Test func chunkedBodyOverLimitIs413() {
        var limits = HTTPParserLimits()
        limits.maxBodyBytes = 10
        let request = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n"
        #expect(ParserHarness.error(request, limits: limits)?.status.code == 413)
    }

    @Test func oversizedTrailersAreRejected() {
        var limits = HTTPParserLimits()
        limits.maxTrailerBytes = 20
        let request = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-Trailer: " + String(repeating: "a", count: 100) + "\r\n\r\n"
        #expect(ParserHarness.error(request, limits: limits)?.status.code == 400)
    }
}
