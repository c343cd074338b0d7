import Foundation
import HTTPServer
@testable import InkStickerApp
import Testing

/// Rules every request keeps, whichever route or form it takes: a sticker's rules hold for the
/// text it keeps, limits answer with a pointer, a token is checked before anything else is
/// judged, and headers that keep the page and its pictures safe.
@Suite struct RequestRuleTests {
    static let stroke: [[String: [Double]]] = [["x": [100, 100, 140], "y": [200, 260, 260]]]

    private func field(_ app: InProcessApp, _ board: (id: String, token: String, base: String), text: String) throws -> String {
        let field = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke, "target": "new"], token: board.token)
        let path = board.base + "/stickers/\(field.json["id"] as? String ?? "")"
        let patched = try app.request(.patch, path, json: ["text": text], token: board.token)
        try #require(patched.status == 200, "\(patched.text)")
        return path
    }

    private func pointers(_ response: TestClient.Response) -> [String] {
        ((response.json["errors"] as? [[String: Any]]) ?? []).compactMap { $0["pointer"] as? String }
    }

    @Test func newRulesHoldForTheTextAStickerKeeps() throws {
        let app = try InProcessApp()
        let board = try app.board()
        let path = try field(app, board, text: "Buy eggs")
        let digits = try app.request(.patch, path, json: ["charset": "digits"], token: board.token)
        #expect(digits.status == 422 && pointers(digits) == ["/charset"], "\(digits.text)")
        let short = try app.request(.patch, path, json: ["maxLength": 2], token: board.token)
        #expect(short.status == 422 && pointers(short) == ["/maxLength"], "\(short.text)")
        // Nothing changed, and the rules can change with a text that keeps them.
        let kept = try app.request(.get, path, token: board.token)
        #expect(kept.json["charset"] == nil || kept.json["charset"] is NSNull)
        #expect(kept.json["text"] as? String == "Buy eggs")
        let both = try app.request(.patch, path, json: ["charset": "digits", "maxLength": 2, "text": "12"], token: board.token)
        #expect(both.status == 200 && both.json["text"] as? String == "12", "\(both.text)")
        // Rules the text already keeps are a plain change.
        #expect(try app.request(.patch, path, json: ["maxLength": 5], token: board.token).status == 200)
        // A label's text is final; its rules change as sent (a text to keep them would be 409).
        #expect(try app.request(.post, path + "/commit", token: board.token).status == 200)
        #expect(try app.request(.patch, path, json: ["maxLength": 1], token: board.token).status == 200)
    }

    /// The layout's 16 KiB of UTF-8 is reached by 5,462 Hangul syllables, under the 10,000
    /// characters: the answer points at the text, as every other validation does.
    @Test func aTextOverTheByteLimitIsRefusedWithAPointer() throws {
        let app = try InProcessApp()
        let board = try app.board()
        let path = try field(app, board, text: "")
        let long = try app.request(.patch, path, json: ["text": String(repeating: "한", count: 6_000)], token: board.token)
        #expect(long.status == 422 && pointers(long) == ["/text"], "\(long.text)")
    }

    @Test func aMisspeltInkMLQueryParameterIsRefused() throws {
        let app = try InProcessApp()
        let board = try app.board()
        let inkML = Array(InkMLQueryRouteTests.inkML.utf8)
        let typo = try app.request(.post, board.base + "/stickers?target=new&maxlength=1", body: inkML,
                                   headers: InkMLQueryRouteTests.headers, token: board.token)
        #expect(typo.status == 400 && pointers(typo) == ["/query/maxlength"], "\(typo.text)")
        let nested = try app.request(.post, "/v1/recognize?hints.charsets=digits", body: inkML, headers: InkMLQueryRouteTests.headers)
        #expect(nested.status == 400 && pointers(nested) == ["/query/hints.charsets"], "\(nested.text)")
        // Names that are members elsewhere are no exception: not strokes, not a sticker's member
        // on /v1/recognize, not a path into a member.
        for query in ["strokes=1", "target=new", "font.size.x=3"] {
            let other = try app.request(.post, "/v1/recognize?" + query, body: inkML, headers: InkMLQueryRouteTests.headers)
            let name = String(query.prefix { $0 != "=" })
            #expect(other.status == 400 && pointers(other) == ["/query/" + name], "\(other.text)")
        }
        #expect(try app.request(.post, "/v1/recognize?lang=eng&debug=none", body: inkML, headers: InkMLQueryRouteTests.headers).status == 200)
        // A JSON post's query names no member: it is not read for them.
        let json = try app.request(.post, "/v1/recognize?maxlength=1", json: ["strokes": Self.stroke])
        #expect(json.status == 200, "\(json.text)")
    }

    /// Every writing is stored with its field; a field takes in at most `maxWritingsPerSticker`
    /// (200 by default), then the next writing into it is refused and nothing of it is kept.
    @Test func aFieldTakesInABoundedNumberOfWritings() throws {
        let app = try InProcessApp(readings: ["a"]) { $0.maxWritingsPerSticker = 3 }
        let board = try app.board()
        let first = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke, "target": "new"], token: board.token)
        let id = try #require(first.json["id"] as? String)
        for _ in 0..<2 {
            #expect(try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke, "target": id], token: board.token).status == 200)
        }
        let full = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke, "target": id], token: board.token)
        #expect(full.status == 422 && pointers(full) == ["/target"], "\(full.text)")
        let ink = try app.request(.get, board.base + "/stickers/\(id)/ink", token: board.token)
        #expect((ink.json["inks"] as? [Any])?.count == 3, "\(ink.text.prefix(200))")
        #expect(AppConfiguration().maxWritingsPerSticker == 200)
    }

    @Test func aTokenIsCheckedBeforeTheQuery() throws {
        let app = try InProcessApp()
        let board = try app.board()
        for query in ["/stickers?limit=0", "/stickers?state=gone", "/render.svg?ink=2", "/stickers?a=%zz", "?a=%zz"] {
            #expect(try app.request(.get, board.base + query).status == 401, "\(query)")
            #expect(try app.request(.get, board.base + query, token: board.token).status == 400, "\(query)")
        }
    }

    @Test func aWeakIfMatchOfTheCurrentVersionSaysWhy() throws {
        let app = try InProcessApp()
        let board = try app.board()
        let path = try field(app, board, text: "a")
        let current = try #require(try app.request(.get, path, token: board.token).header("ETag"))
        let weak = try app.request(.patch, path, json: ["text": "b"], headers: ["If-Match": "W/" + current], token: board.token)
        #expect(weak.status == 412)
        #expect((weak.json["detail"] as? String)?.contains("weak") == true, "\(weak.text)")
        #expect(pointers(weak) == ["/header/If-Match"])
    }

    @Test func thePageCannotBeFramedAndPicturesAreNotSniffed() throws {
        let app = try InProcessApp()
        let page = try app.request(.get, "/")
        #expect(page.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
        #expect(page.header("X-Frame-Options") == "DENY")
        let board = try app.board()
        let svg = try app.request(.get, board.base + "/render.svg", token: board.token)
        #expect(svg.header("X-Content-Type-Options") == "nosniff")
    }

    /// Routing drops empty segments and decodes `%xx`; the cache policy reads the path the same
    /// way, so a board resource reached by `//v1/…` is as private as by `/v1/…`.
    @Test func boardResourcesArePrivateHoweverThePathIsWritten() throws {
        let app = try InProcessApp()
        let board = try app.board()
        let path = try field(app, board, text: "a")
        for target in [path, "/" + path, path.replacingOccurrences(of: "/v1/boards/", with: "/v1/%62oards/")] {
            let answer = try app.request(.get, target, token: board.token)
            #expect(answer.status == 200 && answer.header("Cache-Control") == "private, no-cache", "\(target)")
        }
    }
}
