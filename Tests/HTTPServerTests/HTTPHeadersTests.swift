import Testing
@testable import HTTPServer

/// Field names compare without regard to ASCII case (RFC 9110 §5.1), and only ASCII letters fold.
@Suite struct HTTPHeadersTests {
    @Test func namesMatchWhateverTheirCase() {
        var headers = HTTPHeaders([("Content-Type", "text/plain"), ("X-Thing", "1"), ("x-thing", "2")])
        #expect(headers["content-type"] == "text/plain" && headers["CONTENT-TYPE"] == "text/plain")
        #expect(headers.values("X-THING") == ["1", "2"])
        headers.replaceOrAdd(name: "x-THING", value: "3")
        #expect(headers.values("x-thing") == ["3"] && headers.count == 2)
        headers.remove(name: "CONTENT-type")
        #expect(!headers.contains("Content-Type"))
    }

    @Test func onlyLettersFold() {
        // '@' (0x40) and '`' (0x60), '[' (0x5B) and '{' (0x7B) differ by the case bit but are not letters.
        #expect(!"a@".utf8.equalsIgnoringASCIICase("a`".utf8))
        #expect(!"[x".utf8.equalsIgnoringASCIICase("{x".utf8))
        #expect("ETag".utf8.equalsIgnoringASCIICase("etag".utf8))
        #expect(!"etag".utf8.equalsIgnoringASCIICase("etags".utf8))
        #expect("Straße".utf8.equalsIgnoringASCIICase("STRAße".utf8) && !"straße".utf8.equalsIgnoringASCIICase("STRASSE".utf8))
    }
}
