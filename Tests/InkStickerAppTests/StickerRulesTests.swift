import Foundation
import Testing

/// Authorisation, idempotency, conditional requests and validation, over HTTP.
@Suite(.serialized) struct StickerRulesTests {
    struct Board {
        let id: String
        let token: String
        var base: String { "/v1/boards/\(id)" }
    }

    static func makeBoard(_ client: TestClient) throws -> Board {
        let response = try client.request("POST", "/v1/boards", json: ["title": "t"])
        return Board(id: response.json["id"] as? String ?? "", token: response.json["token"] as? String ?? "")
    }

    @Test func aTokenOfBoardAGets401OnEveryRouteOfBoardB() throws {
        let harness = try ServiceHarness()
        let client = harness.client
        let sample = try TestPaths.sample("print.jsonl", id: "d1-00005")
        let a = try Self.makeBoard(client)
        let b = try Self.makeBoard(client)
        let sticker = try client.request("POST", b.base + "/stickers", json: ["strokes": sample.strokes], token: b.token)
        let sid = try #require(sticker.json["id"] as? String)
        let routes: [(String, String, Any?)] = [
            ("GET", b.base, nil),
            ("DELETE", b.base, nil),
            ("POST", b.base + "/stickers", ["strokes": sample.strokes]),
            ("GET", b.base + "/stickers", nil),
            ("DELETE", b.base + "/stickers", nil),
            ("GET", b.base + "/stickers/\(sid)", nil),
            ("PATCH", b.base + "/stickers/\(sid)", ["text": "x"]),
            ("DELETE", b.base + "/stickers/\(sid)", nil),
            ("POST", b.base + "/stickers/\(sid)/input", ["ops": [["insertText": "x"]]]),
            ("POST", b.base + "/stickers/\(sid)/commit", nil),
            ("GET", b.base + "/stickers/\(sid)/ink", nil),
            ("POST", b.base + "/end-editing", nil),
        ]
        for (method, path, json) in routes {
            for token in [a.token, nil, "garbage"] as [String?] {
                let response = try client.request(method, path, json: json, token: token)
                #expect(response.status == 401, "\(method) \(path) with \(token == nil ? "no token" : "a wrong token")")
                #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            }
        }
        // A board that does not exist answers exactly like a wrong token.
        let missing = try client.request("GET", "/v1/boards/b_doesNotExist123", token: a.token)
        let wrong = try client.request("GET", b.base, token: a.token)
        #expect(missing.status == 401)
        #expect(missing.text == wrong.text)
        // Board B is untouched.
        #expect(try client.request("GET", b.base + "/stickers/\(sid)", token: b.token).json["text"] as? String == sample.text)
    }

    @Test func tokensAreNeverLogged() throws {
        let harness = try ServiceHarness()
        let client = harness.client
        let board = try Self.makeBoard(client)
        _ = try client.request("GET", board.base, token: board.token)
        _ = try client.request("GET", board.base + "/stickers?limit=5", token: board.token)
        harness.stop()
        let log = harness.log.lines.joined(separator: "\n")
        #expect(log.contains(board.id))
        #expect(!log.contains(board.token))
    }

    @Test func idempotencyKeyReplaysTheFirstResponse() throws {
        let harness = try ServiceHarness()
        let client = harness.client
        let sample = try TestPaths.sample("print.jsonl", id: "d1-00005")
        let board = try Self.makeBoard(client)
        let body = try JSONSerialization.data(withJSONObject: ["strokes": sample.strokes, "target": "new"])
        let headers = ["Idempotency-Key": "key-1", "Content-Type": "application/json"]
        let first = try client.request("POST", board.base + "/stickers", body: body, headers: headers, token: board.token)
        let retry = try client.request("POST", board.base + "/stickers", body: body, headers: headers, token: board.token)
        #expect(first.status == 201)
        #expect(retry.status == 201)
        #expect(retry.body == first.body)
        #expect(retry.header("Location") == first.header("Location"))
        #expect(retry.header("Idempotent-Replayed") == "true")
        let list = try client.request("GET", board.base + "/stickers", token: board.token)
        #expect((list.json["stickers"] as? [Any])?.count == 1)
        let otherBody = try JSONSerialization.data(withJSONObject: ["strokes": sample.strokes, "target": "new", "font": ["size": 30]])
        let reused = try client.request("POST", board.base + "/stickers", body: otherBody, headers: headers, token: board.token)
        #expect(reused.status == 422)
        #expect(reused.header("Content-Type") == "application/problem+json")
    }

    @Test func conditionalRequestsAndStateConflicts() throws {
        let harness = try ServiceHarness()
        let client = harness.client
        let sample = try TestPaths.sample("print.jsonl", id: "d1-00005")
        let board = try Self.makeBoard(client)
        let created = try client.request("POST", board.base + "/stickers", json: ["strokes": sample.strokes], token: board.token)
        let path = board.base + "/stickers/\(created.json["id"] as? String ?? "")"
        let etag = try #require(created.header("ETag"))

        let notModified = try client.request("GET", path, headers: ["If-None-Match": etag], token: board.token)
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.header("ETag") == etag)

        let ok = try client.request("PATCH", path, json: ["text": "one"], headers: ["If-Match": etag], token: board.token)
        #expect(ok.status == 200)
        let stale = try client.request("PATCH", path, json: ["text": "two"], headers: ["If-Match": etag], token: board.token)
        #expect(stale.status == 412)
        // An unquoted tag is a malformed header, not a stale copy: 412 that says so and names the header.
        let unquoted = try client.request("PATCH", path, json: ["text": "two"],
                                          headers: ["If-Match": etag.replacingOccurrences(of: "\"", with: "")], token: board.token)
        #expect(unquoted.status == 412)
        #expect((unquoted.json["detail"] as? String)?.contains("not an entity tag") == true)
        #expect(unquoted.header("Content-Type") == "application/problem+json")
        #expect(try client.request("GET", path, token: board.token).json["text"] as? String == "one")
        #expect(try client.request("GET", path, headers: ["If-None-Match": etag], token: board.token).status == 200)

        let commit = try client.request("POST", path + "/commit", token: board.token)
        #expect(commit.status == 200)
        let textOnLabel = try client.request("PATCH", path, json: ["text": "three"], token: board.token)
        #expect(textOnLabel.status == 409)
        let inputOnLabel = try client.request("POST", path + "/input", json: ["ops": [["insertText": "x"]]], token: board.token)
        #expect(inputOnLabel.status == 409)
        let styleOnLabel = try client.request("PATCH", path, json: ["style": ["strokeWidth": 3, "strokeColor": "#ff0000"]], token: board.token)
        #expect(styleOnLabel.status == 200)
        #expect((styleOnLabel.json["style"] as? [String: Any])?["strokeColor"] as? String == "#FF0000")
        #expect(Geometry.isCentred(styleOnLabel.json))
    }

    @Test func everyAcceptedFontSizeAndLineHeightLaysOut() throws {
        let harness = try ServiceHarness()
        let client = harness.client
        let sample = try TestPaths.sample("print.jsonl", id: "d1-00005")
        let board = try Self.makeBoard(client)
        let created = try client.request("POST", board.base + "/stickers", json: ["strokes": sample.strokes], token: board.token)
        let path = board.base + "/stickers/\(created.json["id"] as? String ?? "")"
        for (size, multiple) in [(1.0, 0.25), (512.0, 10.0), (2.0, 0.25), (400.0, 10.0)] {
            let r = try client.request("PATCH", path, json: ["font": ["size": size], "style": ["lineHeight": multiple]], token: board.token)
            #expect(r.status == 200, "size \(size) × lineHeight \(multiple): \(r.text)")
            #expect(Geometry.isCentred(r.json))
        }
    }

    @Test func invalidInputIs422WithPointers() throws {
        let harness = try ServiceHarness()
        let client = harness.client
        let sample = try TestPaths.sample("print.jsonl", id: "d1-00005")
        let board = try Self.makeBoard(client)
        let created = try client.request("POST", board.base + "/stickers",
                                         json: ["strokes": sample.strokes, "charset": "digits", "maxLength": 4], token: board.token)
        #expect(created.status == 201)
        let path = board.base + "/stickers/\(created.json["id"] as? String ?? "")"
        #expect((created.json["text"] as? String)?.allSatisfy(\.isNumber) == true)

        func pointers(_ r: TestClient.Response) -> [String] {
            (r.json["errors"] as? [[String: Any]] ?? []).compactMap { $0["pointer"] as? String }
        }
        let letters = try client.request("POST", path + "/input", json: ["ops": [["insertText": "12"], ["insertText": "a"]]], token: board.token)
        #expect(letters.status == 422)
        #expect(pointers(letters) == ["/ops/1/insertText"])
        #expect(try client.request("GET", path, token: board.token).json["version"] as? Int == 1, "nothing applied")

        let digits = try client.request("POST", path + "/input", json: ["ops": [["deleteBackward": 100], ["insertText": "123456"]]], token: board.token)
        #expect(digits.status == 200)
        #expect(digits.json["text"] as? String == "1234", "maxLength truncates like the passcode field")

        let badDelete = try client.request("POST", path + "/input", json: ["ops": [["deleteBackward": 0]]], token: board.token)
        #expect(pointers(badDelete) == ["/ops/0/deleteBackward"])

        let badStyle = try client.request("PATCH", path, json: ["style": ["strokeColor": "red", "alignment": "middle"], "font": ["family": "comic"]], token: board.token)
        #expect(badStyle.status == 422)
        #expect(Set(pointers(badStyle)) == ["/style/strokeColor", "/style/alignment", "/font/family"])

        let badInk = try client.request("POST", board.base + "/stickers", json: ["strokes": [["x": [1, 2], "y": [1]]]], token: board.token)
        #expect(badInk.status == 422)
        #expect(pointers(badInk).contains { $0.hasPrefix("/strokes/0") })

        let noInk = try client.request("POST", board.base + "/stickers", json: ["strokes": []], token: board.token)
        #expect(noInk.status == 422)

        let malformed = try client.request("POST", board.base + "/stickers", body: Data("{\"strokes\": [".utf8),
                                           headers: ["Content-Type": "application/json"], token: board.token)
        #expect(malformed.status == 400)

        let wrongType = try client.request("POST", board.base + "/stickers", body: Data("x=1".utf8),
                                           headers: ["Content-Type": "application/x-www-form-urlencoded"], token: board.token)
        #expect(wrongType.status == 415)

        let badQuery = try client.request("GET", board.base + "/stickers?limit=0", token: board.token)
        #expect(badQuery.status == 400)
        let badRect = try client.request("GET", board.base + "/stickers?rect=1,2,3", token: board.token)
        #expect(badRect.status == 400)
    }

    @Test func listingFiltersByRectAndPagesWithCursors() throws {
        let harness = try ServiceHarness()
        let client = harness.client
        let sample = try TestPaths.sample("print.jsonl", id: "d1-00005")
        let board = try Self.makeBoard(client)
        var ids: [String] = []
        for i in 0..<5 {
            let r = try client.request("POST", board.base + "/stickers",
                                       json: ["strokes": sample.strokes, "target": "new", "center": ["x": i * 1000, "y": 0]], token: board.token)
            ids.append(r.json["id"] as? String ?? "")
        }
        var seen: [String] = []
        var cursor: String?
        repeat {
            let query = "/stickers?limit=2" + (cursor.map { "&after=\($0)" } ?? "")
            let page = try client.request("GET", board.base + query, token: board.token).json
            seen += (page["stickers"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            cursor = page["nextCursor"] as? String
        } while cursor != nil
        #expect(seen == ids)
        let near = try client.request("GET", board.base + "/stickers?rect=1900,-10,200,20", token: board.token).json
        #expect((near["stickers"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [ids[2]])

        // A listing is served again unchanged (304 with its ETag) until the board changes, then it shows the change.
        let listing = try client.request("GET", board.base + "/stickers", token: board.token)
        let tag = try #require(listing.header("ETag"))
        #expect(try client.request("GET", board.base + "/stickers", headers: ["If-None-Match": tag], token: board.token).status == 304)
        _ = try client.request("PATCH", board.base + "/stickers/\(ids[0])", json: ["text": "changed"], token: board.token)
        let fresh = try client.request("GET", board.base + "/stickers", headers: ["If-None-Match": tag], token: board.token)
        #expect(fresh.status == 200)
        #expect(fresh.header("ETag") != tag)
        #expect((fresh.json["stickers"] as? [[String: Any]])?.first?["text"] as? String == "changed")
    }
}
