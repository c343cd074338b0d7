import Foundation
import GestureSamples
import HTTPServer
import Ink
import JSONKit
@testable import InkStickerApp
import Locking
import Store
import Testing
import TextLayout

/// Editing with the pen, in-process: every route, the real database (SQLite, or PostgreSQL with
/// INKSTICKER_TEST_POSTGRES), real fonts, a scripted recognizer (which a gesture never reaches).
@Suite struct GestureRouteTests {
    static let stroke: [[String: [Double]]] = [["x": [100, 100, 140], "y": [200, 260, 260]]]

    /// A board with one field reading `text` (written, then typed over), and its layout.
    struct Setup {
        let app: InProcessApp
        let board: (id: String, token: String, base: String)
        let id: String

        init(text: String = "dolls and teddy bears", readings: [String] = ["milk"]) throws {
            app = try InProcessApp(readings: readings)
            board = try app.board()
            let created = try app.request(.post, board.base + "/stickers", json: ["strokes": GestureRouteTests.stroke], token: board.token)
            id = created.json["id"] as? String ?? ""
            let typed = try app.request(.patch, board.base + "/stickers/\(id)", json: ["text": text], token: board.token)
            guard typed.status == 200 else { throw HarnessError("PATCH: \(typed.status) \(typed.text)") }
        }

        var sticker: StickerRecord {
            get throws {
                guard let sticker = try app.services.database.read({ tx in try tx.sticker(id: id, boardId: board.id) }) else {
                    throw HarnessError("no sticker")
                }
                return sticker
            }
        }

        /// The sticker's words where the service draws them.
        var words: [TextWord] { get throws { try app.services.layout.words(of: try sticker) } }

        func post(_ stroke: Stroke, extra: [String: Any] = [:], headers: [String: String] = [:]) throws -> TestClient.Response {
            var body: [String: Any] = ["strokes": [["x": stroke.x, "y": stroke.y, "t": stroke.t ?? []]]]
            for (key, value) in extra { body[key] = value }
            return try app.request(.post, board.base + "/stickers", json: body, headers: headers, token: board.token)
        }

        func events() throws -> [EventRecord] {
            try app.services.database.read { tx in try tx.events(boardId: board.id, limit: 100) }
        }
    }

    static func scratch(_ words: [TextWord], _ range: Range<Int>, seed: UInt64 = 1, reversals: Int = 6) -> Stroke {
        var synthesizer = GestureSynthesizer(random: SeededRandom(seed: seed))
        return synthesizer.scratchOut(over: words, range: range, reversals: reversals, loose: false, slantDegrees: 0)
    }

    static func strike(_ words: [TextWord], _ first: Int, count: Int = 1) -> Stroke {
        var synthesizer = GestureSynthesizer(random: SeededRandom(seed: 2))
        return synthesizer.strikeThrough(over: words, firstWord: first, maxWords: count, wavy: false, slantDegrees: 0).stroke
    }

    @Test func scratchOutOverAWordDeletesItAroundTheSameCentreWithoutReadingTheInk() throws {
        let setup = try Setup()
        let before = try setup.sticker
        let answer = try setup.post(Self.scratch(try setup.words, 1..<2))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.json["gesture"] as? String == "scratchOut")
        let sticker = try #require(answer.json["sticker"] as? [String: Any])
        #expect(sticker["text"] as? String == "dolls teddy bears")
        #expect(sticker["version"] as? Int == 3)
        #expect(answer.header("ETag") == "\"v3\"")
        #expect(Geometry.isCentred(sticker))
        #expect(Geometry.point(sticker["center"]) == (before.center.x, before.center.y))
        #expect(Geometry.frame(sticker["frame"]).width < before.frame.width)
        let deleted = try #require(answer.json["deleted"] as? [String: Any])
        #expect(deleted["words"] as? [String] == ["and"])
        #expect(deleted["sticker"] as? Bool == false)
        #expect(deleted["textBefore"] as? String == "dolls and teddy bears")
        let undo = try #require(answer.json["undo"] as? [String: Any])
        #expect((undo["href"] as? String)?.hasPrefix(setup.board.base + "/undos/u_") == true)
        #expect(undo["method"] as? String == "POST")
        // Nothing was recognised and no ink was stored: the gesture is no writing.
        #expect(setup.app.recognizer.requests.count == 1)
        let inks = try setup.app.request(.get, setup.board.base + "/stickers/\(setup.id)/ink", token: setup.board.token)
        #expect((inks.json["inks"] as? [Any])?.count == 1)
        // The change is an event like any other, which tells other clients how to undo it.
        let event = try #require(try setup.events().last)
        #expect(event.type == .updated && event.version == 3)
        let payload = try JSONSerialization.jsonObject(with: Data(event.payload.utf8)) as? [String: Any]
        #expect(payload?["text"] as? String == "dolls teddy bears")
        #expect(((payload?["gesture"] as? [String: Any])?["undo"] as? [String: Any])?["id"] as? String == undo["id"] as? String)
    }

    @Test func strikeThroughDeletesTheWordsItCrosses() throws {
        let setup = try Setup()
        let answer = try setup.post(Self.strike(try setup.words, 2, count: 2))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.json["gesture"] as? String == "strikeThrough")
        #expect((answer.json["sticker"] as? [String: Any])?["text"] as? String == "dolls and")
        #expect((answer.json["deleted"] as? [String: Any])?["words"] as? [String] == ["teddy", "bears"])
        #expect(Geometry.isCentred(answer.json["sticker"] as? [String: Any] ?? [:]))
    }

    /// The case: a field reading "dolls", a zig-zag across it. It was read as writing
    /// ("dolls E"); now the sticker goes, and its undo brings it back whole.
    @Test func scratchingOutAllOfAFieldDeletesItAndUndoBringsItBackExactly() throws {
        let setup = try Setup(text: "dolls", readings: ["milk", "E"])
        let before = try setup.sticker
        let inksBefore = try setup.app.services.database.read { try $0.inks(stickerId: setup.id) }
        let answer = try setup.post(Self.scratch(try setup.words, 0..<1, reversals: 4))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.json["sticker"] is NSNull)
        #expect((answer.json["deleted"] as? [String: Any])?["sticker"] as? Bool == true)
        #expect(try setup.app.request(.get, setup.board.base + "/stickers/\(setup.id)", token: setup.board.token).status == 404)
        #expect(try setup.events().last?.type == .deleted)
        let href = try #require((answer.json["undo"] as? [String: Any])?["href"] as? String)

        let undone = try setup.app.request(.post, href, token: setup.board.token)
        #expect(undone.status == 201, "\(undone.text)")
        #expect(undone.header("Location") == setup.board.base + "/stickers/\(setup.id)")
        #expect(undone.header("ETag") == "\"v3\"")
        var after = try setup.sticker
        #expect(after.version == before.version + 1)
        #expect(after.seq == before.seq)
        after.version = before.version
        after.updatedAt = before.updatedAt
        #expect(after == before, "text, frame, centre, style, recognised text and creation order as they were")
        #expect(try setup.app.services.database.read { try $0.inks(stickerId: setup.id) } == inksBefore)
        let events = try setup.events()
        #expect(events.suffix(2).map(\.type) == [.deleted, .created])
        #expect(events.map(\.id) == events.map(\.id).sorted())
        // Used once.
        let again = try setup.app.request(.post, href, token: setup.board.token)
        #expect(again.status == 404)
        #expect(again.header("Content-Type") == "application/problem+json")
    }

    /// Clearing the board ends every undo: a sticker a gesture deleted does not come back onto
    /// the cleared board, nor do deleted words into a field that is gone.
    @Test func clearingTheBoardEndsItsUndos() throws {
        let setup = try Setup(text: "dolls", readings: ["milk", "E"])
        let answer = try setup.post(Self.scratch(try setup.words, 0..<1, reversals: 4))
        #expect(answer.status == 200, "\(answer.text)")
        let href = try #require((answer.json["undo"] as? [String: Any])?["href"] as? String)
        #expect(try setup.app.request(.delete, setup.board.base + "/stickers", token: setup.board.token).status == 200)
        let undone = try setup.app.request(.post, href, token: setup.board.token)
        #expect(undone.status == 404, "\(undone.text)")
        #expect(try setup.app.request(.get, setup.board.base + "/stickers/\(setup.id)", token: setup.board.token).status == 404)
    }

    @Test func undoOfDeletedWordsRestoresTextAndFrameAsANewVersion() throws {
        let setup = try Setup()
        let before = try setup.sticker
        let answer = try setup.post(Self.strike(try setup.words, 0))
        #expect((answer.json["sticker"] as? [String: Any])?["text"] as? String == "and teddy bears")
        let href = try #require((answer.json["undo"] as? [String: Any])?["href"] as? String)
        let undone = try setup.app.request(.post, href, token: setup.board.token)
        #expect(undone.status == 200, "\(undone.text)")
        #expect(undone.json["text"] as? String == "dolls and teddy bears")
        #expect(undone.json["version"] as? Int == 4)
        #expect(undone.header("ETag") == "\"v4\"")
        let after = try setup.sticker
        #expect(after.frame == before.frame && after.center == before.center && after.text == before.text)
        #expect(try setup.events().suffix(2).map(\.type) == [.updated, .updated])
        #expect(try setup.events().suffix(2).map(\.version) == [3, 4])
    }

    @Test func aRetriedUndoReplaysItsAnswer() throws {
        let setup = try Setup(text: "dolls")
        let answer = try setup.post(Self.scratch(try setup.words, 0..<1, reversals: 4))
        let href = try #require((answer.json["undo"] as? [String: Any])?["href"] as? String)
        let key = ["Idempotency-Key": "undo-1"]
        let first = try setup.app.request(.post, href, headers: key, token: setup.board.token)
        let again = try setup.app.request(.post, href, headers: key, token: setup.board.token)
        #expect(first.status == 201 && again.status == 201)
        #expect(again.body == first.body)
        #expect(again.header("Idempotent-Replayed") == "true")
        #expect(try setup.events().filter { $0.type == .created }.count == 2, "the writing, and one undo")
        // Without the key, a second undo finds nothing to undo.
        #expect(try setup.app.request(.post, href, token: setup.board.token).status == 404)
    }

    @Test func undoAfterALaterEditIsAConflict() throws {
        let setup = try Setup()
        let answer = try setup.post(Self.strike(try setup.words, 0))
        let href = try #require((answer.json["undo"] as? [String: Any])?["href"] as? String)
        _ = try setup.app.request(.post, setup.board.base + "/stickers/\(setup.id)/input", json: ["ops": [["insertText": "!"]]], token: setup.board.token)
        let undone = try setup.app.request(.post, href, token: setup.board.token)
        #expect(undone.status == 409)
        #expect(try setup.sticker.text == "and teddy bears!")
        // Another board's token cannot use it, and cannot tell it exists.
        let other = try setup.app.board()
        #expect(try setup.app.request(.post, href, token: other.token).status == 401)
    }

    @Test func housekeepingDeletesUndosPastTheirHour() throws {
        let setup = try Setup()
        let answer = try setup.post(Self.strike(try setup.words, 0))
        let href = try #require((answer.json["undo"] as? [String: Any])?["href"] as? String)
        let database = setup.app.services.database, log = setup.app.services.log
        #expect(Housekeeping.purgeExpiredUndos(database, log: log) == 0)
        let later = Timestamp.now() + GestureUndo.lifetimeMs + 1
        #expect(Housekeeping.purgeExpiredUndos(database, log: log, now: later) == 1)
        #expect(try setup.app.request(.post, href, token: setup.board.token).status == 404)
        #expect(try setup.sticker.text == "and teddy bears")
    }

    @Test func gesturesOffReadsTheInkAsWriting() throws {
        let setup = try Setup(text: "dolls", readings: ["milk", "E"])
        let scratch = Self.scratch(try setup.words, 0..<1, reversals: 4)
        let answer = try setup.post(scratch, extra: ["hints": ["gestures": false]])
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.json["text"] as? String == "dolls E")
        #expect(answer.json["gesture"] == nil)
        #expect(setup.app.recognizer.requests.count == 2)
        // A malformed value is refused like any other member.
        let bad = try setup.post(scratch, extra: ["hints": ["gestures": "no"]])
        #expect(bad.status == 422)
        #expect(((bad.json["errors"] as? [[String: Any]])?.first?["pointer"]) as? String == "/hints/gestures")
    }

    @Test func inkMLTakesGesturesFromTheQuery() throws {
        let setup = try Setup(text: "dolls", readings: ["milk", "E"])
        let scratch = Self.scratch(try setup.words, 0..<1, reversals: 4)
        let strokes: [[String: [Double]]] = [["x": scratch.x, "y": scratch.y]]
        let inkML = Array(InkMLTests.inkML(strokes, withTime: false).utf8)
        let headers = ["Content-Type": "application/inkml+xml"]
        let written = try setup.app.request(.post, setup.board.base + "/stickers?hints.gestures=false", body: inkML,
                                            headers: headers, token: setup.board.token)
        #expect(written.status == 200, "\(written.text)")
        #expect(written.json["text"] as? String == "dolls E")
        let bad = try setup.app.request(.post, setup.board.base + "/stickers?hints.gestures=maybe", body: inkML,
                                        headers: headers, token: setup.board.token)
        #expect(bad.status == 400)
        #expect(((bad.json["errors"] as? [[String: Any]])?.first?["pointer"]) as? String == "/query/hints.gestures")
    }

    @Test func aZigZagOnEmptyBoardOrWithTargetNewIsWriting() throws {
        let setup = try Setup(text: "dolls", readings: ["milk", "ww", "zz"])
        let scratch = Self.scratch(try setup.words, 0..<1, reversals: 4)
        let away = scratch.applying(AffineTransform(translationX: 0, y: 500))
        let empty = try setup.post(away)
        #expect(empty.status == 201)
        #expect(empty.json["text"] as? String == "ww")
        let new = try setup.post(scratch, extra: ["target": "new"])
        #expect(new.status == 201)
        #expect(new.json["text"] as? String == "zz")
        #expect(try setup.sticker.text == "dolls")
    }

    @Test func aLabelIsDeletedWholeOrNotAtAll() throws {
        let setup = try Setup()
        _ = try setup.app.request(.post, setup.board.base + "/stickers/\(setup.id)/commit", token: setup.board.token)
        let words = try setup.words
        let part = try setup.post(Self.strike(words, 1))
        #expect(part.status == 409, "\(part.text)")
        #expect(part.header("Content-Type") == "application/problem+json")
        #expect(try setup.sticker.text == "dolls and teddy bears")
        let whole = try setup.post(Self.scratch(words, 0..<words.count, reversals: 12))
        #expect(whole.status == 200, "\(whole.text)")
        #expect((whole.json["deleted"] as? [String: Any])?["sticker"] as? Bool == true)
        let href = try #require((whole.json["undo"] as? [String: Any])?["href"] as? String)
        let undone = try setup.app.request(.post, href, token: setup.board.token)
        #expect(undone.status == 201)
        #expect(undone.json["state"] as? String == "label")
        #expect(Geometry.isCentred(undone.json))
    }

    @Test func aRetriedGestureReplaysItsAnswerAndDeletesNothingMore() throws {
        let setup = try Setup()
        let scratch = Self.scratch(try setup.words, 1..<2)
        let key = ["Idempotency-Key": "scratch-1"]
        let first = try setup.post(scratch, headers: key)
        let again = try setup.post(scratch, headers: key)
        #expect(first.status == 200 && again.status == 200)
        #expect(again.body == first.body)
        #expect(again.header("Idempotent-Replayed") == "true")
        #expect(try setup.sticker.text == "dolls teddy bears")
        #expect(try setup.events().filter { $0.type == .updated }.count == 2, "the PATCH and one gesture")
    }

    /// Scratching out the first line of two leaves one line, not a blank line above the second.
    @Test func aLineScratchedOutWholeLeavesNoBlankLine() throws {
        let setup = try Setup(text: "dolls and\nteddy bears")
        let before = try setup.sticker
        let words = try setup.words
        let answer = try setup.post(Self.scratch(words, 0..<2, reversals: 6))
        #expect(answer.status == 200, "\(answer.text)")
        #expect((answer.json["deleted"] as? [String: Any])?["words"] as? [String] == ["dolls", "and"])
        let sticker = try #require(answer.json["sticker"] as? [String: Any])
        #expect(sticker["text"] as? String == "teddy bears")
        #expect(Geometry.frame(sticker["frame"]).height < before.frame.height, "one line tall")
        let href = try #require((answer.json["undo"] as? [String: Any])?["href"] as? String)
        #expect(try setup.app.request(.post, href, token: setup.board.token).json["text"] as? String == "dolls and\nteddy bears")
    }

    /// More stickers under the ink than are looked at: the one on top (the newest) is the one the
    /// writer sees and crosses out, not one hidden under it.
    @Test func theStickerOnTopIsEditedWhenManyLieUnderTheInk() throws {
        let setup = try Setup()
        let bottom = try setup.sticker
        var ids: [String] = []
        try setup.app.services.database.write { tx in
            for index in 0...GesturePlan.maxStickersUnderInk {
                var copy = bottom
                copy.id = "s_stacked\(index)"
                ids.append(try tx.insertSticker(copy).id)
            }
        }
        let answer = try setup.post(Self.strike(try setup.words, 1))
        #expect(answer.status == 200, "\(answer.text)")
        #expect((answer.json["deleted"] as? [String: Any])?["stickerId"] as? String == ids.last)
        let texts = try setup.app.services.database.read { tx in
            try ids.map { try tx.sticker(id: $0, boardId: setup.board.id)?.text }
        }
        #expect(texts.last == "dolls teddy bears")
        #expect(texts.dropLast().allSatisfy { $0 == "dolls and teddy bears" }, "the stickers under it are untouched")
    }

    /// Gestures raced with key input on two fields: every write lands at its own version, in
    /// order, each with its event, and what every gesture deleted is gone.
    @Test func concurrentGesturesAndKeyInputKeepEveryEdit() throws {
        let setup = try Setup(text: "dolls and teddy bears")
        let other = try setup.app.request(.post, setup.board.base + "/stickers",
                                          json: ["strokes": Self.stroke, "target": "new", "center": ["x": 2000, "y": 2000]],
                                          token: setup.board.token)
        let otherID = try #require(other.json["id"] as? String)
        _ = try setup.app.request(.patch, setup.board.base + "/stickers/\(otherID)", json: ["text": "paper and pens"], token: setup.board.token)
        let otherWords = try setup.app.services.layout.words(of: try #require(
            try setup.app.services.database.read { try $0.sticker(id: otherID, boardId: setup.board.id) }))
        let strokes = [Self.strike(try setup.words, 0), Self.strike(otherWords, 0)]
        nonisolated(unsafe) let shared = setup
        let results = Lock<[Int]>([])
        let threads = (0..<4).map { index in
            Thread {
                let answer: TestClient.Response?
                if index < 2 {
                    answer = try? shared.post(strokes[index])
                } else {
                    answer = try? shared.app.request(.post, shared.board.base + "/stickers/\(index == 2 ? shared.id : otherID)/input",
                                                     json: ["ops": [["insertText": "!"]]], token: shared.board.token)
                }
                results.withLock { $0.append(answer?.status ?? 0) }
            }
        }
        threads.forEach { $0.start() }
        let deadline = Date().addingTimeInterval(30)
        while results.withLock({ $0.count }) < 4, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(results.withLock { $0 } == [200, 200, 200, 200], "\(results.withLock { $0 })")
        let (first, second) = try setup.app.services.database.read { tx in
            (try tx.sticker(id: setup.id, boardId: setup.board.id), try tx.sticker(id: otherID, boardId: setup.board.id))
        }
        #expect(first?.text == "and teddy bears!" && first?.version == 4)
        #expect(second?.text == "and pens!" && second?.version == 4)
        for sticker in [first, second].compactMap({ $0 }) { #expect(Geometry.isCentred(StickerJSONProbe.json(sticker))) }
        let events = try setup.events()
        #expect(events.map(\.id) == events.map(\.id).sorted())
        #expect(events.filter { $0.stickerId == setup.id }.map(\.version) == [1, 2, 3, 4])
        #expect(events.filter { $0.stickerId == otherID }.map(\.version) == [1, 2, 3, 4])
        #expect(setup.app.recognizer.requests.count == 2, "the two writings; no gesture was read")
    }
}

/// A stored sticker as the API answers it.
enum StickerJSONProbe {
    static func json(_ sticker: StickerRecord) -> [String: Any] {
        let text = JSONWriter().string(StickerJSON.sticker(sticker))
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }
}
