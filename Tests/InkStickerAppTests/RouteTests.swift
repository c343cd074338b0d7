import Foundation
import HTTPServer
import Locking
@testable import InkStickerApp
import Store
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
        // InkML carries its options in the query: the same body with other options is another request.
        let inkML = Array(InkMLTests.inkML(Self.stroke, withTime: false).utf8)
        let xmlKey = ["Idempotency-Key": "retry-2", "Content-Type": "application/inkml+xml"]
        let text = try app.request(.post, board.base + "/stickers?target=new&charset=text", body: inkML, headers: xmlKey, token: board.token)
        let digits = try app.request(.post, board.base + "/stickers?target=new&charset=digits", body: inkML, headers: xmlKey, token: board.token)
        #expect(text.status == 201, "\(text.text)")
        #expect(digits.status == 422 && digits.header("Idempotent-Replayed") == nil, "\(digits.text)")
    }

    @Test func malformedIdempotencyKeyPointsAtTheHeader() throws {
        let app = try InProcessApp(readings: ["milk"])
        let board = try app.board()
        for key in ["", "two words", String(repeating: "k", count: 256), "caf\u{E9}"] {
            let answer = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke],
                                         headers: ["Idempotency-Key": key], token: board.token)
            #expect(answer.status == 400, "\(key.prefix(20))")
            #expect(answer.header("Content-Type") == "application/problem+json")
            #expect(answer.json["type"] as? String == "/problems/bad-request")
            #expect(((answer.json["errors"] as? [[String: Any]])?.first?["pointer"]) as? String == "/header/Idempotency-Key")
        }
        #expect(app.recognizer.requests.isEmpty, "a malformed key is refused before recognition")
    }

    /// `after` takes exactly what `nextCursor` gives, a string of 1 to 18 digits (openapi.yaml),
    /// and nothing else a number parser would also read.
    @Test func listingCursorIsTheDigitStringNextCursorGives() throws {
        let app = try InProcessApp(readings: ["a", "b", "c"])
        let board = try app.board()
        for _ in 0..<3 {
            _ = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke, "target": "new"], token: board.token)
        }
        let first = try app.request(.get, board.base + "/stickers?limit=2", token: board.token)
        let cursor = try #require(first.json["nextCursor"] as? String)
        let next = try app.request(.get, board.base + "/stickers?limit=2&after=\(cursor)", token: board.token)
        #expect((next.json["stickers"] as? [[String: Any]])?.compactMap { $0["text"] as? String } == ["c"])
        #expect(next.json["nextCursor"] is NSNull)
        for bad in ["%2B\(cursor)", "-0", String(repeating: "0", count: 18) + cursor, "\(cursor).0", "", "%20\(cursor)"] {
            let answer = try app.request(.get, board.base + "/stickers?after=\(bad)", token: board.token)
            #expect(answer.status == 400, "after=\(bad)")
            #expect(((answer.json["errors"] as? [[String: Any]])?.first?["pointer"]) as? String == "/query/after", "after=\(bad)")
        }
    }

    @Test func housekeepingDeletesIdempotencyRecordsPastTheirLifetime() throws {
        let app = try InProcessApp(readings: ["milk", "eggs"])
        let board = try app.board()
        let key = ["Idempotency-Key": "kept-a-day"]
        let first = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke], headers: key, token: board.token)
        #expect(first.status == 201)
        let database = app.services.database, log = app.services.log
        // Within its day the record stays and a retry replays; a day later it is deleted.
        #expect(Housekeeping.purgeExpiredIdempotencyRecords(database, log: log) == 0)
        let again = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke], headers: key, token: board.token)
        #expect(again.header("Idempotent-Replayed") == "true")
        let later = Timestamp.now() + Idempotency.lifetimeMs + 1
        #expect(Housekeeping.purgeExpiredIdempotencyRecords(database, log: log, now: later) == 1)
        #expect(try database.read { try $0.idempotencyRecord(boardId: board.id, key: "kept-a-day", now: 0) } == nil)
    }

    /// End-editing plans from one read of the board's fields and writes later: a field made in
    /// between must not be left a field while editing ended after it (its `created` event before the
    /// `committed` ones). It is committed too, or end-editing comes first and the field is newer.
    @Test func endEditingLeavesNoFieldMadeWhileItWasPlanned() throws {
        let app = try InProcessApp { configuration in
            configuration.inkRatePerToken = (rate: 0, burst: 0)
            configuration.inkRatePerAddress = (rate: 0, burst: 0)
        }
        let board = try app.board()
        nonisolated(unsafe) let shared = app
        for round in 0..<6 {
            // Fields enough that planning (a label laid out for each) takes a few milliseconds.
            try app.services.database.write { tx in
                for index in 0..<200 {
                    let x = Double(index * 200 + round * 100_000)
                    try tx.insertSticker(StickerRecord(
                        id: "s_fill_\(round)_\(index)", boardId: board.id, state: .field, text: "filler", recognizedText: "filler",
                        confidence: 0.9, candidates: [], anchor: .init(x: x, y: 0), center: .init(x: x + 50, y: 20),
                        frame: .init(x: x, y: 0, width: 100, height: 40), fontFamily: "sans-bold", fontSize: 24,
                        style: .init(strokeWidth: 0, strokeColor: "#000000", fillColor: nil, kerning: 0, lineHeight: 1.2,
                                     alignment: .center, lineLimit: nil),
                        maxLength: nil, charset: nil, inkBounds: .init(x: x, y: 0, width: 100, height: 40),
                        createdAt: 1, updatedAt: 1, committedAt: nil))
                }
            }
            let start = try app.services.database.read { try $0.latestEventId(boardId: board.id) }
            let created = Lock("")
            let group = DispatchGroup()
            group.enter()
            Thread.detachNewThread {
                _ = try? shared.request(.post, board.base + "/end-editing", token: board.token)
                group.leave()
            }
            group.enter()
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: Double(round) / 1000)
                let answer = try? shared.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke, "target": "new"],
                                                 token: board.token)
                created.withLock { $0 = answer?.json["id"] as? String ?? "" }
                group.leave()
            }
            group.wait()
            let id = created.withLock { $0 }
            let (state, events) = try app.services.database.read { tx in
                (try tx.sticker(id: id, boardId: board.id)?.state, try tx.events(boardId: board.id, afterId: start, limit: 1000))
            }
            let made = try #require(events.first { $0.stickerId == id && $0.type == .created }?.id)
            let lastCommitted = events.filter { $0.type == .committed }.map(\.id).max() ?? 0
            #expect(state != .field || made > lastCommitted, "round \(round): made at event \(made), still a field after \(lastCommitted)")
            _ = try app.request(.post, board.base + "/end-editing", token: board.token)
        }
    }

    @Test func aLineBreakIsNotADigit() throws {
        let app = try InProcessApp()
        let board = try app.board()
        for charset in ["digits", "number"] {
            let field = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke, "charset": charset, "target": "new"],
                                        token: board.token)
            let path = board.base + "/stickers/\(field.json["id"] as? String ?? "")"
            // As typing refuses it, so does a replacement text.
            #expect(try app.request(.post, path + "/input", json: ["ops": [["insertText": "\n"]]], token: board.token).status == 422)
            #expect(try app.request(.patch, path, json: ["text": "12\n34"], token: board.token).status == 422, "\(charset)")
        }
    }

    @Test func inkIntoAFieldWithRoomForOneCharacterAddsNoLoneSpace() throws {
        let app = try InProcessApp(readings: ["ab", "L L"])
        let board = try app.board()
        let field = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke, "maxLength": 3], token: board.token)
        let id = field.json["id"] as? String ?? ""
        let into = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke, "target": id], token: board.token)
        // Room for the separating space only: nothing of the writing fits after it, so nothing is
        // added (before, the field became "ab ", a trailing space committed into the label).
        #expect(into.json["text"] as? String == "ab", "\(into.text)")
    }

    @Test func anEditToACanonicallyEquivalentTextIsStored() throws {
        let app = try InProcessApp()
        let board = try app.board()
        let field = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke], token: board.token)
        let path = board.base + "/stickers/\(field.json["id"] as? String ?? "")"
        let precomposed = try app.request(.patch, path, json: ["text": "caf\u{E9}"], token: board.token)
        let decomposed = try app.request(.patch, path, json: ["text": "cafe\u{301}"], token: board.token)
        #expect(decomposed.status == 200)
        #expect(decomposed.json["version"] as? Int == (precomposed.json["version"] as? Int ?? 0) + 1)
        let stored = try #require(decomposed.json["text"] as? String)
        #expect(Array(stored.unicodeScalars) == Array("cafe\u{301}".unicodeScalars))
    }

    /// render.svg draws each line where the frame was fitted to it (the same clamped line height,
    /// the glyph box centred in each line box), and its picture holds the outlines.
    @Test func renderedLinesLieInTheirFrameAndOutlinesInThePicture() throws {
        let app = try InProcessApp()
        let board = try app.board()
        let field = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke, "center": ["x": 0, "y": 0]],
                                    token: board.token)
        let path = board.base + "/stickers/\(field.json["id"] as? String ?? "")"
        _ = try app.request(.patch, path, json: ["text": "a\nb\nc", "font": ["size": 512],
                                                "style": ["lineHeight": 10, "strokeWidth": 64, "strokeColor": "#FF0000"]],
                            token: board.token)
        let label = try app.request(.post, path + "/commit", token: board.token)
        let frame = try #require(label.json["frame"] as? [String: Double])
        let (top, height) = (try #require(frame["y"]), try #require(frame["height"]))
        let svg = try app.request(.get, board.base + "/render.svg", token: board.token)
        let baselines = svg.text.components(separatedBy: "<tspan ").dropFirst().compactMap { span in
            span.components(separatedBy: "y=\"").dropFirst().first?.components(separatedBy: "\"").first.flatMap(Double.init)
        }
        try #require(baselines.count == 3, "\(svg.text)")
        for (i, baseline) in baselines.enumerated() {
            // Line i's box is a third of the frame; its baseline lies inside it, below its middle.
            let lineTop = top + Double(i) * height / 3
            #expect(baseline > lineTop + height / 6 && baseline < lineTop + height / 3, "line \(i): \(baseline) in \(frame)")
        }
        let viewBox = (svg.text.components(separatedBy: "viewBox=\"").dropFirst().first?.components(separatedBy: "\"").first ?? "")
            .split(separator: " ").compactMap { Double($0) }
        try #require(viewBox.count == 4)
        #expect(viewBox[0] <= (frame["x"] ?? 0) - 64 && viewBox[1] <= top - 64)
        #expect(viewBox[0] + viewBox[2] >= (frame["x"] ?? 0) + (frame["width"] ?? 0) + 64 && viewBox[1] + viewBox[3] >= top + height + 64)
    }

    @Test func aLabelWithTheTightestKerningStillHasItsTextsWidth() throws {
        let app = try InProcessApp()
        let board = try app.board()
        let field = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke], token: board.token)
        let path = board.base + "/stickers/\(field.json["id"] as? String ?? "")"
        _ = try app.request(.patch, path, json: ["text": "WWW", "style": ["kerning": -64]], token: board.token)
        let label = try app.request(.post, path + "/commit", token: board.token)
        // Each W (about 28 points at the default size) starts 64 points left of where the one before ended.
        let width = try #require((label.json["frame"] as? [String: Double])?["width"])
        #expect(width > 28 && width < 3 * 64, "\(width)")
    }

    /// SVG's letter-spacing follows every character, the last too; the frame counts only the gaps
    /// between them, and it counts every space, which SVG collapses unless told not to. A centred line's anchor is moved by half the spacing, a right-aligned one's
    /// by all of it, so the characters are drawn centred in (or flush with) the frame.
    @Test func renderedLettersWithSpacingSitWhereTheFrameIs() throws {
        let app = try InProcessApp()
        let board = try app.board()
        func anchorX(alignment: String) throws -> (x: Double, frame: [String: Double]) {
            let field = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke, "target": "new"],
                                        token: board.token)
            let id = field.json["id"] as? String ?? ""
            _ = try app.request(.patch, board.base + "/stickers/\(id)",
                                json: ["text": "AB", "style": ["kerning": 40, "alignment": alignment]], token: board.token)
            let label = try app.request(.post, board.base + "/stickers/\(id)/commit", token: board.token)
            let frame = try #require(label.json["frame"] as? [String: Double])
            let svg = try app.request(.get, board.base + "/render.svg", token: board.token).text
            let group = try #require(svg.components(separatedBy: "<g id=\"\(id)\"").dropFirst().first)
            // Spaces are drawn as typed, as they were measured.
            #expect(group.contains("xml:space=\"preserve\"") && !group.contains("style="))
            let x = group.components(separatedBy: "<tspan x=\"").dropFirst().first?.components(separatedBy: "\"").first
            return (try #require(x.flatMap(Double.init)), frame)
        }
        let centred = try anchorX(alignment: "center")
        let middle = (centred.frame["x"] ?? 0) + (centred.frame["width"] ?? 0) / 2
        #expect(abs(centred.x - (middle + 20)) < 0.02, "\(centred)")
        let right = try anchorX(alignment: "right")
        let end = (right.frame["x"] ?? 0) + (right.frame["width"] ?? 0)
        #expect(abs(right.x - (end + 40)) < 0.02, "\(right)")
        let left = try anchorX(alignment: "left")
        #expect(abs(left.x - (left.frame["x"] ?? 0)) < 0.02, "\(left)")
    }

    @Test func optionsAsteriskDescribesTheServer() throws {
        let app = try InProcessApp()
        let answer = try app.request(.options, "*")
        #expect(answer.status == 204)
        let allowed = Set((answer.header("Allow") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(allowed.isSuperset(of: ["GET", "HEAD", "POST", "PATCH", "DELETE", "OPTIONS"]), "\(allowed)")
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
            (try app.request(.post, "/v1/boards", json: ["title": "Groceries\u{0}Secret"]), 422),
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
