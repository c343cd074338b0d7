import Foundation
import Testing
@testable import InkStickerApp
import Store

/// Live board events: two clients, one writes, the other sees each event once, in order, and resumes.
@Suite(.serialized) struct EventStreamTests {
    @Test func aWatcherSeesEveryEventOnceInOrderAndResumesAfterDisconnecting() throws {
        let harness = try ServiceHarness()
        let writer = harness.client
        let sample = try TestPaths.sample("print.jsonl", id: "d1-00005")
        let (token, base) = try writer.newBoard()

        let watcher = try EventStreamClient(port: harness.port, path: base + "/events", token: token)
        _ = watcher.events(atLeast: 1, timeoutMs: 300)  // reads the head; no events yet
        #expect(watcher.status == 200)

        let created = try writer.request("POST", base + "/stickers", json: ["strokes": sample.strokes], token: token)
        let id = try #require(created.json["id"] as? String)
        _ = try writer.request("PATCH", base + "/stickers/\(id)", json: ["text": "one"], token: token)
        _ = try writer.request("POST", base + "/stickers/\(id)/commit", token: token)

        let seen = watcher.events(atLeast: 3)
        #expect(seen.map(\.type) == ["created", "updated", "committed"])
        #expect(seen.map(\.id) == seen.map(\.id).sorted())
        #expect(Set(seen.map(\.id)).count == seen.count)
        let committed = try #require(seen.last)
        let payload = try JSONSerialization.jsonObject(with: Data(committed.data.utf8)) as? [String: Any]
        #expect(payload?["id"] as? String == id)
        #expect(payload?["state"] as? String == "label")

        // Disconnect, miss two events, resume from the last id seen: exactly the missed ones arrive.
        watcher.disconnect()
        let second = try writer.request("POST", base + "/stickers", json: ["strokes": sample.strokes, "target": "new"], token: token)
        _ = try writer.request("DELETE", base + "/stickers/\(second.json["id"] as? String ?? "")", token: token)
        let resumed = try EventStreamClient(port: harness.port, path: base + "/events", token: token, lastEventID: committed.id)
        let missed = resumed.events(atLeast: 2)
        #expect(missed.map(\.type) == ["created", "deleted"])
        #expect(missed.allSatisfy { $0.id > committed.id })
        _ = try writer.request("DELETE", base + "/stickers", token: token)
        #expect(resumed.events(atLeast: 3).last?.type == "cleared")

        // ?after= works for clients that cannot set headers.
        let fromStart = try EventStreamClient(port: harness.port, path: base + "/events?after=0", token: token)
        #expect(fromStart.events(atLeast: 6).map(\.type) == ["created", "updated", "committed", "created", "deleted", "cleared"])
    }

    /// More streams on a board than the blocking pool's queue holds: each stream's wake-up the
    /// pool refused is tried again, so every watcher gets every event (before, the refused ones
    /// waited for a later event that was refused the same way).
    @Test func everyWatcherGetsTheEventWhenThePoolQueueIsFull() throws {
        let harness = try ServiceHarness {
            $0.blockingThreads = 1
            $0.blockingQueue = 2
        }
        let writer = harness.client
        let sample = try TestPaths.sample("print.jsonl", id: "d1-00005")
        let (token, base) = try writer.newBoard()
        let created = try writer.request("POST", base + "/stickers", json: ["strokes": sample.strokes], token: token)
        let id = try #require(created.json["id"] as? String)
        let after = try #require(try EventStreamClient(port: harness.port, path: base + "/events?after=0", token: token)
            .events(atLeast: 1).last?.id)
        let watchers = try (0..<12).map { _ in
            let watcher = try EventStreamClient(port: harness.port, path: base + "/events", token: token, lastEventID: after)
            _ = watcher.events(atLeast: 1, timeoutMs: 200)
            return watcher
        }
        try #require(watchers.allSatisfy { $0.status == 200 }, "\(watchers.map(\.status))")
        _ = try writer.request("PATCH", base + "/stickers/\(id)", json: ["text": "one"], token: token)
        let seen = watchers.map { $0.events(atLeast: 1, timeoutMs: 3_000).map(\.type) }
        #expect(seen.allSatisfy { $0 == ["updated"] }, "\(seen)")
    }

    /// Retention (`--keep-events-days`) run by the service's own housekeeping: a stream resuming
    /// from before the deleted events gets `reset` (list the board again) and then what is kept; the
    /// board's latest event id, and so its listing's ETag and where a new stream starts, stay put.
    @Test func aStreamResumingBeforeDeletedEventsIsToldToListTheBoardAgain() throws {
        let harness = try ServiceHarness()
        var writer = harness.client
        let sample = try TestPaths.sample("print.jsonl", id: "d1-00005")
        let (token, base) = try writer.newBoard()
        let boardId = String(base.split(separator: "/").last ?? "")
        let created = try writer.request("POST", base + "/stickers", json: ["strokes": sample.strokes], token: token)
        let id = try #require(created.json["id"] as? String)
        _ = try writer.request("PATCH", base + "/stickers/\(id)", json: ["text": "one"], token: token)
        let early = try EventStreamClient(port: harness.port, path: base + "/events?after=0", token: token).events(atLeast: 2)
        try #require(early.map(\.type) == ["created", "updated"])
        let listed = try writer.request("GET", base + "/stickers", token: token)

        // Restarted with events kept forever (0), housekeeping often: nothing goes.
        harness.stop()
        try harness.start {
            $0.eventRetentionDays = 0
            $0.housekeepingIntervalSeconds = 0.1
        }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try harness.service?.services.database.read { try $0.events(boardId: boardId, limit: 10) }.count == 2)

        // Restarted with events kept for 86 ms: its housekeeping deletes both.
        harness.stop()
        try harness.start {
            $0.eventRetentionDays = 0.000_001
            $0.housekeepingIntervalSeconds = 0.1
        }
        let database = try #require(harness.service?.services.database)
        let deadline = Date().addingTimeInterval(10)
        while try database.read({ try $0.events(boardId: boardId, limit: 10) }).count > 0, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let purgedThrough = try database.read { try $0.board(id: boardId)?.eventsPurgedThrough }
        #expect(purgedThrough == Int64(early[1].id))
        #expect(harness.log.lines.contains { $0.contains("deleted old events") })
        let metrics = try harness.client.request("GET", "/metrics").text
        #expect(metrics.contains("housekeeping_deleted_total{kind=\"events\"} 2\n"), "\(metrics.suffix(600))")
        #expect(metrics.contains("housekeeping_failures_total 0\n"))

        // Back to keeping them (so that nothing more goes while the streams below read).
        harness.stop()
        try harness.start()
        writer = harness.client
        let relisted = try writer.request("GET", base + "/stickers", token: token)
        #expect(relisted.header("ETag") == listed.header("ETag"))
        #expect(try writer.request("GET", base + "/stickers", headers: ["If-None-Match": listed.header("ETag") ?? ""],
                                   token: token).status == 304)

        // From before the deleted events: reset with the last deleted id, then what came after.
        let resumed = try EventStreamClient(port: harness.port, path: base + "/events", token: token, lastEventID: early[0].id)
        #expect(resumed.events(atLeast: 1).map(\.type) == ["reset"])
        // A new stream starts at the latest event, deleted or not: it is told of no reset.
        let fresh = try EventStreamClient(port: harness.port, path: base + "/events", token: token)
        #expect(fresh.events(atLeast: 1, timeoutMs: 300) == [])
        _ = try writer.request("POST", base + "/stickers/\(id)/commit", token: token)
        let seen = resumed.events(atLeast: 2)
        #expect(seen.map(\.type) == ["reset", "committed"])
        #expect(seen.first?.id == early[1].id)
        #expect(seen.first?.data == "{\"purgedThrough\":\(early[1].id)}")
        // From the reset's id (a client that reconnects after it) or later: no reset.
        let after = try EventStreamClient(port: harness.port, path: base + "/events", token: token, lastEventID: early[1].id)
        #expect(after.events(atLeast: 1).map(\.type) == ["committed"])
        #expect(fresh.events(atLeast: 1).map(\.type) == ["committed"])
    }

    @Test func anotherBoardsTokenCannotWatch() throws {
        let harness = try ServiceHarness()
        let client = harness.client
        let a = try client.request("POST", "/v1/boards", json: [:])
        let b = try client.request("POST", "/v1/boards", json: [:])
        let stream = try EventStreamClient(port: harness.port, path: "/v1/boards/\(b.json["id"] as? String ?? "")/events",
                                           token: a.json["token"] as? String ?? "")
        _ = stream.events(atLeast: 1, timeoutMs: 500)
        #expect(stream.status == 401)
    }
}
