import Testing
@testable import HTTPServer

/// How the bytes of a request are split into reads must not change what the parser makes of them.
/// The cases here were found by the request-parser fuzz target (fuzz/targets/), which checks this
/// property on random inputs and random splits.
@Suite struct HTTPRequestParserSplitTests {
    /// Feeds `pieces` one after another and returns the error the parser raised, or nil.
    private func error(feeding pieces: [String]) -> HTTPParseError? {
        var harness = ParserHarness()
        do throws(HTTPParseError) {
            for piece in pieces { try harness.feed(piece) }
            return nil
        } catch {
            return error
        }
    }

    @Test func bareCarriageReturnBeforeTheRequestLineIsRefusedWhenItEndsARead() throws {
        let whole = try #require(error(feeding: ["\r\n\rGET / HTTP/1.1\r\nHost: a\r\n\r\n"]))
        #expect(whole.detail == "bare CR before the request line")
        // The CR arrives last in one read and its successor first in the next.
        let split = try #require(error(feeding: ["\r\n\r", "GET / HTTP/1.1\r\nHost: a\r\n\r\n"]))
        #expect(split == whole)
        let bytewise = try #require(error(feeding: "\r\n\rGET / HTTP/1.1\r\nHost: a\r\n\r\n".map { String($0) }))
        #expect(bytewise == whole)
    }

    @Test func emptyLinesSplitAcrossReadsAreStillSkipped() throws {
        var harness = ParserHarness()
        for piece in ["\r", "\n\r", "\n", "GET /a HTTP/1.1\r\nHost: a\r\n\r\n"] { try harness.feed(piece) }
        #expect(harness.heads.map(\.target) == ["/a"])
        #expect(harness.bodies == [[]])
    }
}
