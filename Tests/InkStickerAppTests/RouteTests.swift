import Foundation
import HTTPServer
@testable import InkStickerApp
import Testing

/// Route behaviour in-process: every route of the application with a real SQLite file, a
/// scripted recognizer and no sockets (the end-to-end suites keep the real recognizer and wire).
@Suite struct RouteTests {
    static let stroke: [[String: [Double]]] = [["x": [100, 100, 140], "y": [200, 260, 260]]]

    @Test func inkBecomesAFieldWithTheRecognizedTextCentredOnTheInk() throws {
        let app = try InProcessApp(readings: ["milk"])
        let board = try app.board()
        let created = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke], token: board.token)
        #expect(created.status == 201)
        #expect(created.json["text"] as? String == "milk")
        #expect(created.json["state"] as? String == "field")
        #expect(created.header("Location") == board.base + "/stickers/\(created.json["id"] as? String ?? "")")
        #expect(created.header("ETag") == "\"v1\"")
        let center = created.json["center"] as? [String: Double]
        #expect(center?["x"] == 120 && center?["y"] == 230)
        #expect(app.recognizer.requests.count == 1)
        #expect(app.recognizer.requests.first?.language == "ink")
    }

    @Test func secondInkOverAFieldIsWrittenIntoIt() throws {
        let app = try InProcessApp(readings: ["milk", "eggs"])
        let board = try app.board()
        let first = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke], token: board.token)
        let second = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke, "target": "auto"], token: board.token)
        #expect(second.status == 200)
        #expect(second.json["id"] as? String == first.json["id"] as? String)
        #expect(second.json["text"] as? String == "milk eggs")
        #expect(second.header("ETag") == "\"v2\"")
    }

    @Test func inkWrittenIntoADigitsFieldIsReadAsDigits() throws {
        let app = try InProcessApp(readings: ["12", "34", "ab", "cd"])
        let board = try app.board()
        let field = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke, "charset": "digits"], token: board.token)
        #expect(field.status == 201)
        let into = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke, "target": "auto"], token: board.token)
        #expect(into.status == 200)
        #expect(into.json["text"] as? String == "1234", "no space: a digits field does not allow one")
        // A new field is read without a hint; the request's own hint wins over the field's.
        _ = try app.request(.post, board.base + "/stickers",
                            json: ["strokes": Self.stroke, "target": "new"], token: board.token)
        _ = try app.request(.post, board.base + "/stickers",
                            json: ["strokes": Self.stroke, "target": field.json["id"] as? String ?? "", "hints": ["charset": "text"]],
                            token: board.token)
        let hints = app.recognizer.requests.map(\.charset)
        #expect(hints == [.digits, .digits, nil, .text])
    }

    @Test func idempotentRetryReplaysTheFirstAnswerWithoutRecognizingAgain() throws {
        let app = try InProcessApp(readings: ["milk", "eggs"])
        let board = try app.board()
        let key = ["Idempotency-Key": "retry-1"]
        let first = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke], headers: key, token: board.token)
        let again = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke], headers: key, token: board.token)
        #expect(first.status == 201 && again.status == 201)
        #expect(again.body == first.body)
        #expect(app.recognizer.requests.count == 1)
        let other = try app.request(.post, board.base + "/stickers", json: ["strokes": [["x": [1.0], "y": [2.0]]]], headers: key, token: board.token)
        #expect(other.status == 422)
    }

    @Test func conditionalRequests() throws {
        let app = try InProcessApp()
        let board = try app.board()
        let created = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke], token: board.token)
        let path = board.base + "/stickers/\(created.json["id"] as? String ?? "")"
        #expect(try app.request(.get, path, headers: ["If-None-Match": "\"v1\""], token: board.token).status == 304)
        let malformed = try app.request(.patch, path, json: ["text": "x"], headers: ["If-Match": "v1"], token: board.token)
        #expect(malformed.status == 412)
        #expect((malformed.json["detail"] as? String)?.contains("not an entity tag") == true)
        #expect(malformed.header("Content-Type") == "application/problem+json")
        #expect(((malformed.json["errors"] as? [[String: Any]])?.first?["pointer"]) as? String == "/header/If-Match")
        #expect(try app.request(.patch, path, json: ["text": "x"], headers: ["If-Match": "\"v1\""], token: board.token).status == 200)
        let stale = try app.request(.patch, path, json: ["text": "y"], headers: ["If-Match": "\"v1\""], token: board.token)
        #expect(stale.status == 412)
        #expect(stale.header("ETag") == "\"v2\"")
    }

    @Test func errorsAreProblemJSONWithTheRightStatus() throws {
        let app = try InProcessApp()
        let board = try app.board()
        let cases: [(TestClient.Response, Int)] = [
            (try app.request(.get, "/nowhere"), 404),
            (try app.request(.put, "/healthz", body: []), 405),
            (try app.request(.get, board.base), 401),
            (try app.request(.get, board.base, token: "ist_wrong"), 401),
            (try app.request(.post, board.base + "/stickers", body: Array("x".utf8), headers: ["Content-Type": "text/plain"], token: board.token), 415),
            (try app.request(.post, board.base + "/stickers", body: Array("{".utf8), headers: ["Content-Type": "application/json"], token: board.token), 400),
            (try app.request(.post, board.base + "/stickers", json: ["strokes": []], token: board.token), 422),
            (try app.request(.get, board.base + "/stickers?limit=zero", token: board.token), 400),
        ]
        for (response, status) in cases {
            #expect(response.status == status, "\(response.text)")
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.json["status"] as? Int == status)
            #expect(response.header("Cache-Control") == "no-store")
        }
        #expect(cases[1].0.header("Allow")?.contains("GET") == true)
        #expect(cases[2].0.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
    }

    @Test func busyRecognizerAnswers503BeforeAnyWork() throws {
        let app = try InProcessApp(hasCapacity: false)
        let board = try app.board()
        let refused = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke], token: board.token)
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") != nil)
        #expect(app.recognizer.requests.isEmpty)
    }

    @Test func inkPostsOverTheTokenRateAre429() throws {
        let app = try InProcessApp(configure: { $0.inkRatePerToken = (rate: 1, burst: 3) })
        let board = try app.board()
        var statuses: [Int] = []
        for _ in 0..<5 {
            statuses.append(try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke], token: board.token).status)
        }
        #expect(statuses.prefix(3).allSatisfy { $0 == 201 || $0 == 200 })
        #expect(statuses.last == 429)
    }

    @Test func cacheControlByKindOfResource() throws {
        let app = try InProcessApp()
        let board = try app.board()
        let created = try app.request(.post, "/v1/boards", json: ["title": "t"])
        #expect(created.header("Cache-Control") == "no-store")
        #expect(try app.request(.get, board.base, token: board.token).header("Cache-Control") == "private, no-cache")
        #expect(try app.request(.get, "/healthz").header("Cache-Control") == "no-store")
        let languages = try app.request(.get, "/v1/languages")
        #expect(languages.header("Cache-Control") == "no-cache")
        let etag = try #require(languages.header("ETag"))
        #expect(try app.request(.get, "/v1/languages", headers: ["If-None-Match": etag]).status == 304)
    }
}

/// InkML posts: the strokes are read straight from the XML, the other members come from the
/// query under their JSON names, and a bad query value is the query's fault (400, /query/...).
@Suite struct InkMLQueryRouteTests {
    static let inkML = #"<ink xmlns="http://www.w3.org/2003/InkML"><trace>10 10, 10 40, 30 40</trace></ink>"#
    static let headers = ["Content-Type": "application/inkml+xml"]

    @Test func queryMembersAreTheJSONMembers() throws {
        let app = try InProcessApp(readings: ["12345"])
        let board = try app.board()
        let created = try app.request(.post, board.base + "/stickers?target=new&charset=digits&maxLength=4&font.size=30&hints.words=a,b",
                                      body: Array(Self.inkML.utf8), headers: Self.headers, token: board.token)
        #expect(created.status == 201, "\(created.text)")
        #expect(created.json["charset"] as? String == "digits")
        #expect(created.json["maxLength"] as? Int == 4)
        #expect(created.json["text"] as? String == "1234")
        #expect((created.json["font"] as? [String: Any])?["size"] as? Double == 30)
        let request = try #require(app.recognizer.requests.first)
        #expect(request.charset == .digits)
        #expect(request.words == ["a", "b"])
        #expect(request.strokes.count == 1 && request.strokes[0].pointCount == 3)
    }

    @Test func badQueryValuesAre400WithQueryPointers() throws {
        let app = try InProcessApp()
        let board = try app.board()
        let hint = try app.request(.post, "/v1/recognize?hints.charset=klingon", body: Array(Self.inkML.utf8), headers: Self.headers)
        #expect(hint.status == 400)
        #expect(((hint.json["errors"] as? [[String: Any]])?.first?["pointer"]) as? String == "/query/hints.charset")
        let length = try app.request(.post, board.base + "/stickers?maxLength=-3", body: Array(Self.inkML.utf8),
                                     headers: Self.headers, token: board.token)
        #expect(length.status == 400)
        #expect(((length.json["errors"] as? [[String: Any]])?.first?["pointer"]) as? String == "/query/maxLength")
        // The same value in a JSON body is the body's fault.
        let json = try app.request(.post, "/v1/recognize", json: ["strokes": RouteTests.stroke, "hints": ["charset": "klingon"]])
        #expect(json.status == 422)
        #expect(((json.json["errors"] as? [[String: Any]])?.first?["pointer"]) as? String == "/hints/charset")
    }

    @Test func badLastEventIDPointsAtTheHeader() throws {
        let app = try InProcessApp()
        let board = try app.board()
        let header = try app.request(.get, board.base + "/events", headers: ["Last-Event-ID": "soon"], token: board.token)
        #expect(header.status == 400)
        #expect(((header.json["errors"] as? [[String: Any]])?.first?["pointer"]) as? String == "/header/Last-Event-ID")
        let query = try app.request(.get, board.base + "/events?after=-1", token: board.token)
        #expect(((query.json["errors"] as? [[String: Any]])?.first?["pointer"]) as? String == "/query/after")
    }
}
