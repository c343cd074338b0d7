import Foundation
import HTTPServer
import Locking
@testable import InkStickerApp
import Store
import Testing

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
