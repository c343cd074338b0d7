import Foundation
import GestureSamples
import Ink
import Testing
import TextLayout

/// Editing with the pen end to end over HTTP: real recogniser, real database, real sockets, a
/// second client following the board's events, and restarts between a gesture and its undo.
@Suite(.serialized) struct GestureLifecycleTests {
    static let measurer = TextMeasurer(library: try! FontLibrary())

    /// The field's words where the service draws them (a new sticker's default look), checked
    /// against the frame the service answered.
    static func words(of sticker: [String: Any]) throws -> [TextWord] {
        let centre = Geometry.point(sticker["center"])
        let field = try GestureField(text: sticker["text"] as? String ?? "", center: .init(x: centre.x, y: centre.y), measurer: measurer)
        let frame = Geometry.frame(sticker["frame"])
        #expect(abs(field.frame.width - frame.width) < 1e-9 && abs(field.frame.x - frame.x) < 1e-9, "the same layout as the service's")
        return field.words
    }

    static func json(_ stroke: Stroke) -> [[String: [Double]]] {
        [["x": stroke.x, "y": stroke.y, "t": stroke.t ?? []]]
    }

    @Test func scratchOutAndStrikeThroughWithUndoAcrossRestarts() throws {
        let harness = try ServiceHarness()
        var client = harness.client
        let sample = try TestPaths.sample("print.jsonl", id: "d1-00005")
        let (token, base) = try client.newBoard()
        let created = try client.request("POST", base + "/stickers", json: ["strokes": sample.strokes], token: token)
        #expect(created.status == 201)
        let id = try #require(created.json["id"] as? String)
        let typed = try client.request("PATCH", base + "/stickers/\(id)", json: ["text": "dolls and teddy bears"], token: token)
        #expect(typed.status == 200)
        let watcher = try EventStreamClient(port: harness.port, path: base + "/events", token: token, lastEventID: 0)

        // Strike through "teddy": the field reads "dolls and bears", centred where it was.
        var synthesizer = GestureSynthesizer(random: SeededRandom(seed: 11))
        let strike = synthesizer.strikeThrough(over: try Self.words(of: typed.json), firstWord: 2, maxWords: 1,
                                               wavy: true, slantDegrees: 6).stroke
        let struck = try client.request("POST", base + "/stickers", json: ["strokes": Self.json(strike)], token: token)
        #expect(struck.status == 200, "\(struck.text)")
        #expect(struck.json["gesture"] as? String == "strikeThrough")
        let field = try #require(struck.json["sticker"] as? [String: Any])
        #expect(field["text"] as? String == "dolls and bears")
        #expect(Geometry.isCentred(field))
        #expect(Geometry.point(field["center"]) == Geometry.point(typed.json["center"]))
        let undoHref = try #require((struck.json["undo"] as? [String: Any])?["href"] as? String)

        // Another client sees it as an event, with the undo.
        let seen = watcher.events(atLeast: 3)
        #expect(seen.map(\.type) == ["created", "updated", "updated"])
        let payload = try JSONSerialization.jsonObject(with: Data((seen.last?.data ?? "").utf8)) as? [String: Any]
        #expect(((payload?["gesture"] as? [String: Any])?["undo"] as? [String: Any])?["href"] as? String == undoHref)

        // A restart keeps the undo; it restores the text and frame exactly, as version 4.
        harness.stop()
        try harness.start()
        client = harness.client
        let undone = try client.request("POST", undoHref, token: token)
        #expect(undone.status == 200, "\(undone.text)")
        #expect(undone.json["text"] as? String == "dolls and teddy bears")
        #expect(NSDictionary(dictionary: undone.json["frame"] as? [String: Any] ?? [:])
                == NSDictionary(dictionary: typed.json["frame"] as? [String: Any] ?? [:]))
        #expect(undone.json["version"] as? Int == 4)
        #expect(undone.header("ETag") == "\"v4\"")

        // A scratch-out over all of it deletes the sticker; after a restart its undo puts it back
        // with its writing, under its id.
        let scratch = synthesizer.scratchOut(over: try Self.words(of: undone.json), range: 0..<4, reversals: 14,
                                             loose: true, slantDegrees: -3)
        let scratched = try client.request("POST", base + "/stickers", json: ["strokes": Self.json(scratch)], token: token)
        #expect(scratched.status == 200, "\(scratched.text)")
        #expect((scratched.json["deleted"] as? [String: Any])?["sticker"] as? Bool == true)
        #expect(try client.request("GET", base + "/stickers/\(id)", token: token).status == 404)
        harness.stop()
        try harness.start()
        client = harness.client
        let href = try #require((scratched.json["undo"] as? [String: Any])?["href"] as? String)
        let back = try client.request("POST", href, token: token)
        #expect(back.status == 201, "\(back.text)")
        #expect(back.json["id"] as? String == id)
        #expect(back.json["text"] as? String == "dolls and teddy bears")
        #expect(back.json["version"] as? Int == 5, "one past the version it was deleted at")
        let ink = try client.request("GET", base + "/stickers/\(id)/ink", token: token)
        #expect((ink.json["inks"] as? [Any])?.count == 1, "the writing, and no gesture")
        let events = try EventStreamClient(port: harness.port, path: base + "/events", token: token, lastEventID: 0).events(atLeast: 6)
        #expect(events.map(\.type) == ["created", "updated", "updated", "updated", "deleted", "created"])
    }
}
