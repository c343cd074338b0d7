import Foundation
import Testing

/// The product end to end over HTTP: real recogniser, real SQLite file, real sockets.
@Suite(.serialized) struct StickerLifecycleTests {
    @Test func writeEditCommitEndEditingClearAndRestart() throws {
        let harness = try ServiceHarness()
        var client = harness.client
        let sample = try TestPaths.sample("print.jsonl", id: "d1-00005")

        let board = try client.request("POST", "/v1/boards", json: ["title": "Trip"])
        #expect(board.status == 201)
        let boardID = try #require(board.json["id"] as? String)
        let token = try #require(board.json["token"] as? String)
        let base = "/v1/boards/\(boardID)"

        // Write a word: a field with the recognised text, centred on the ink.
        let created = try client.request("POST", base + "/stickers", json: ["strokes": sample.strokes], token: token)
        #expect(created.status == 201, "\(created.text)")
        var sticker = created.json
        let id = try #require(sticker["id"] as? String)
        #expect(sticker["state"] as? String == "field")
        #expect(sticker["text"] as? String == sample.text)
        #expect(sticker["recognizedText"] as? String == sample.text)
        #expect(created.header("Location") == base + "/stickers/\(id)")
        #expect(created.header("ETag") == "\"v1\"")
        let inkCentre = Geometry.inkCentre(sample.strokes)
        let centre = Geometry.point(sticker["center"])
        #expect(abs(centre.x - inkCentre.x) < 1e-6 && abs(centre.y - inkCentre.y) < 1e-6)
        #expect(Geometry.isCentred(sticker))
        let firstWidth = Geometry.frame(sticker["frame"]).width

        // Edit with PATCH: the frame grows around the same centre.
        let patched = try client.request("PATCH", base + "/stickers/\(id)", json: ["text": "CALCUTTA trip"], token: token)
        #expect(patched.status == 200)
        sticker = patched.json
        #expect(sticker["text"] as? String == "CALCUTTA trip")
        #expect(sticker["version"] as? Int == 2)
        #expect(Geometry.frame(sticker["frame"]).width > firstWidth)
        #expect(Geometry.isCentred(sticker))
        #expect(Geometry.point(sticker["center"]) == centre)

        // Key input by grapheme: Hangul and emoji with modifiers are deleted whole.
        let typed = try client.request("POST", base + "/stickers/\(id)/input", json: ["ops": [
            ["insertText": " 한글👍🏽"], ["deleteBackward": 1], ["deleteBackward": 1], ["insertText": "!"],
        ]], token: token)
        #expect(typed.status == 200, "\(typed.text)")
        sticker = typed.json
        #expect(sticker["text"] as? String == "CALCUTTA trip 한!")
        #expect(Geometry.isCentred(sticker))

        // A font change re-fits the frame, still around the centre.
        let restyled = try client.request("PATCH", base + "/stickers/\(id)", json: ["font": ["size": 40], "style": ["kerning": 2]], token: token)
        #expect(restyled.status == 200)
        #expect(Geometry.frame(restyled.json["frame"]).height > Geometry.frame(sticker["frame"]).height)
        #expect(Geometry.isCentred(restyled.json))

        // Commit: a label with a fitted frame (no field insets), same centre.
        let committed = try client.request("POST", base + "/stickers/\(id)/commit", token: token)
        #expect(committed.status == 200)
        let label = committed.json
        #expect(label["state"] as? String == "label")
        #expect(label["committedAt"] is String)
        #expect(Geometry.frame(label["frame"]).width < Geometry.frame(restyled.json["frame"]).width)
        #expect(Geometry.isCentred(label))
        #expect(Geometry.point(label["center"]) == centre)
        // Committing a label again is a no-op.
        let again = try client.request("POST", base + "/stickers/\(id)/commit", token: token)
        #expect(again.status == 200)
        #expect(again.json["version"] as? Int == label["version"] as? Int)

        // Two more fields: one emptied; end editing commits one and deletes the other, atomically.
        let second = try client.request("POST", base + "/stickers", json: ["strokes": sample.strokes, "target": "new"], token: token)
        let third = try client.request("POST", base + "/stickers", json: ["strokes": sample.strokes, "target": "new",
                                                                           "center": ["x": 5000, "y": 5000]], token: token)
        #expect(second.status == 201 && third.status == 201)
        let thirdID = try #require(third.json["id"] as? String)
        let emptied = try client.request("PATCH", base + "/stickers/\(thirdID)", json: ["text": "  "], token: token)
        #expect(emptied.status == 200)
        let ended = try client.request("POST", base + "/end-editing", token: token)
        #expect(ended.status == 200)
        #expect(ended.json["committed"] as? Int == 1)
        #expect(ended.json["deleted"] as? Int == 1)
        let labels = try client.request("GET", base + "/stickers?state=label", token: token)
        #expect((labels.json["stickers"] as? [Any])?.count == 2)
        #expect(try client.request("GET", base + "/stickers?state=field", token: token).json["stickers"] as? [Any] == nil
                || (try client.request("GET", base + "/stickers?state=field", token: token).json["stickers"] as? [Any])?.isEmpty == true)

        // The stored ink comes back.
        let ink = try client.request("GET", base + "/stickers/\(id)/ink", token: token)
        #expect(ink.status == 200)
        let writings = try #require(ink.json["inks"] as? [[String: Any]])
        #expect(writings.count == 1)
        #expect((writings[0]["strokes"] as? [Any])?.count == (sample.strokes as? [Any])?.count)

        // Restart on the same database: everything is as it was.
        let before = try client.request("GET", base + "/stickers", token: token).json
        harness.stop()
        try harness.start()
        client = harness.client
        let after = try client.request("GET", base + "/stickers", token: token).json
        #expect(NSDictionary(dictionary: before) == NSDictionary(dictionary: after))
        let boardInfo = try client.request("GET", base, token: token).json
        #expect((boardInfo["stickers"] as? [String: Any])?["label"] as? Int == 2)

        // Clear the board.
        let cleared = try client.request("DELETE", base + "/stickers", token: token)
        #expect(cleared.status == 200)
        #expect(cleared.json["deleted"] as? Int == 2)
        #expect((try client.request("GET", base + "/stickers", token: token).json["stickers"] as? [Any])?.isEmpty == true)
    }

    @Test func inkOverAFieldIsWrittenIntoIt() throws {
        let harness = try ServiceHarness()
        let client = harness.client
        let sample = try TestPaths.sample("print.jsonl", id: "d1-00005")
        let (token, base) = try client.newBoard()
        let first = try client.request("POST", base + "/stickers", json: ["strokes": sample.strokes], token: token)
        let second = try client.request("POST", base + "/stickers", json: ["strokes": sample.strokes], token: token)
        #expect(first.status == 201)
        #expect(second.status == 200)
        #expect(second.json["id"] as? String == first.json["id"] as? String)
        #expect(second.json["text"] as? String == "\(sample.text) \(sample.text)")
        #expect(Geometry.isCentred(second.json))
        let ink = try client.request("GET", base + "/stickers/\(first.json["id"] as? String ?? "")/ink", token: token)
        #expect((ink.json["inks"] as? [Any])?.count == 2)
        // Writing into a label is refused.
        let id = first.json["id"] as? String ?? ""
        _ = try client.request("POST", base + "/stickers/\(id)/commit", token: token)
        let intoLabel = try client.request("POST", base + "/stickers", json: ["strokes": sample.strokes, "target": id], token: token)
        #expect(intoLabel.status == 409)
    }
}
