import Foundation
import Locking
@testable import InkStickerApp
import Store
import TestDatabases
import Testing

/// Board reads served from memory (`ListingCache`): what may be kept, and that nothing stale or
/// unauthorised is ever served, in-process on both stores and across two nodes on PostgreSQL.
@Suite struct BoardCacheTests {
    static let stroke: [[String: [Double]]] = [["x": [100, 100, 140], "y": [200, 260, 260]]]
    static let hash = BoardToken.hash("token")

    @Test func aReadBegunBeforeAnInvalidationIsNotKept() {
        let cache = ListingCache()
        let early = cache.ticket()
        cache.invalidate(board: "b_1")
        cache.store([1], etag: "\"1\"", board: "b_1", tokenHash: Self.hash, key: "k", ticket: early)
        #expect(cache.lookup(board: "b_1", tokenHash: Self.hash, key: "k") == nil)
        // Another board's invalidation does not refuse it.
        let ticket = cache.ticket()
        cache.invalidate(board: "b_2")
        cache.store([2], etag: "\"2\"", board: "b_1", tokenHash: Self.hash, key: "k", ticket: ticket)
        #expect(cache.lookup(board: "b_1", tokenHash: Self.hash, key: "k")?.body == [2])
        // An invalidation after the store drops it; invalidating every board refuses every earlier read.
        cache.invalidate(board: "b_1")
        #expect(cache.lookup(board: "b_1", tokenHash: Self.hash, key: "k") == nil)
        let beforeAll = cache.ticket()
        cache.invalidateAll()
        cache.store([3], etag: "\"3\"", board: "b_3", tokenHash: Self.hash, key: "k", ticket: beforeAll)
        #expect(cache.lookup(board: "b_3", tokenHash: Self.hash, key: "k") == nil)
    }

    @Test func whileAWriteRunsItsBoardIsReadFromTheDatabase() {
        let cache = ListingCache()
        cache.store([1], etag: "\"1\"", board: "b_1", tokenHash: Self.hash, key: "k", ticket: cache.ticket())
        cache.writeBegan(board: "b_1")
        #expect(cache.lookup(board: "b_1", tokenHash: Self.hash, key: "k") == nil)
        // A read that begins and ends during the write is not kept, nor one begun before it ends.
        cache.store([2], etag: "\"2\"", board: "b_1", tokenHash: Self.hash, key: "k", ticket: cache.ticket())
        let during = cache.ticket()
        #expect(cache.lookup(board: "b_1", tokenHash: Self.hash, key: "k") == nil)
        cache.writeBegan(board: "b_1")   // a second writer of the same board
        cache.writeEnded(boards: ["b_1"])
        cache.store([3], etag: "\"3\"", board: "b_1", tokenHash: Self.hash, key: "k", ticket: cache.ticket())
        #expect(cache.lookup(board: "b_1", tokenHash: Self.hash, key: "k") == nil)
        cache.writeEnded(boards: ["b_1"])
        cache.store([4], etag: "\"4\"", board: "b_1", tokenHash: Self.hash, key: "k", ticket: during)
        #expect(cache.lookup(board: "b_1", tokenHash: Self.hash, key: "k") == nil)
        cache.store([5], etag: "\"5\"", board: "b_1", tokenHash: Self.hash, key: "k", ticket: cache.ticket())
        #expect(cache.lookup(board: "b_1", tokenHash: Self.hash, key: "k")?.body == [5])
    }

    @Test func nothingIsServedWhileOtherNodesChangesCannotArrive() {
        let cache = ListingCache()
        cache.store([1], etag: "\"1\"", board: "b_1", tokenHash: Self.hash, key: "k", ticket: cache.ticket())
        let before = cache.ticket()
        cache.follow(false)
        #expect(cache.lookup(board: "b_1", tokenHash: Self.hash, key: "k") == nil)
        cache.store([2], etag: "\"2\"", board: "b_1", tokenHash: Self.hash, key: "k", ticket: cache.ticket())
        #expect(cache.counts.entries == 0)
        cache.follow(true)
        cache.store([3], etag: "\"3\"", board: "b_1", tokenHash: Self.hash, key: "k", ticket: before)
        #expect(cache.lookup(board: "b_1", tokenHash: Self.hash, key: "k") == nil)
        cache.store([4], etag: "\"4\"", board: "b_1", tokenHash: Self.hash, key: "k", ticket: cache.ticket())
        #expect(cache.lookup(board: "b_1", tokenHash: Self.hash, key: "k")?.body == [4])
    }

    @Test func onlyTheTokenThatReadABodyGetsIt() {
        let cache = ListingCache()
        cache.store([1], etag: "\"1\"", board: "b_1", tokenHash: Self.hash, key: "k", ticket: cache.ticket())
        #expect(cache.lookup(board: "b_1", tokenHash: BoardToken.hash("other"), key: "k") == nil)
        #expect(cache.lookup(board: "b_1", tokenHash: Self.hash, key: "k")?.etag == "\"1\"")
    }

    @Test func invalidationsForgottenInBulkStillRefuseEarlierReads() {
        let cache = ListingCache(maxEntries: 4)
        let early = cache.ticket()
        for board in 0..<2_000 { cache.invalidate(board: "b_\(board)") }
        cache.store([1], etag: "\"1\"", board: "b_5", tokenHash: Self.hash, key: "k", ticket: early)
        #expect(cache.lookup(board: "b_5", tokenHash: Self.hash, key: "k") == nil)
    }

    @Test func boundedInEntriesAndBytesLeastRecentlyUsedFirst() {
        // Over a bound, the least recently used go until at most 7/8 of each bound is used.
        let cache = ListingCache(maxEntries: 8, maxBytes: 8_000)
        let keys = (0..<8).map { "k\($0)" }
        for key in keys {
            cache.store([UInt8](repeating: 0, count: 100), etag: "\"1\"", board: "b_1", tokenHash: Self.hash, key: key, ticket: cache.ticket())
        }
        _ = cache.lookup(board: "b_1", tokenHash: Self.hash, key: "k0")
        cache.store([UInt8](repeating: 0, count: 100), etag: "\"1\"", board: "b_2", tokenHash: Self.hash, key: "k8", ticket: cache.ticket())
        #expect(cache.counts.entries == 7 && cache.counts.bytes == 700)
        #expect(cache.lookup(board: "b_1", tokenHash: Self.hash, key: "k1") == nil)
        #expect(cache.lookup(board: "b_1", tokenHash: Self.hash, key: "k2") == nil)
        for key in ["k0", "k3", "k7"] { #expect(cache.lookup(board: "b_1", tokenHash: Self.hash, key: key) != nil, "\(key)") }
        #expect(cache.lookup(board: "b_2", tokenHash: Self.hash, key: "k8") != nil)
        // Bytes: the ninth body of 1,000 passes 8,000; the oldest go down to 7,000.
        let byBytes = ListingCache(maxEntries: 100, maxBytes: 8_000)
        for i in 0..<9 {
            byBytes.store([UInt8](repeating: 0, count: 1_000), etag: "\"1\"", board: "b_3", tokenHash: Self.hash, key: "\(i)", ticket: byBytes.ticket())
        }
        #expect(byBytes.counts.bytes == 7_000 && byBytes.counts.entries == 7)
        #expect(byBytes.lookup(board: "b_3", tokenHash: Self.hash, key: "1") == nil)
        #expect(byBytes.lookup(board: "b_3", tokenHash: Self.hash, key: "2") != nil)
        // More than an eighth of the byte budget is never kept.
        cache.store([UInt8](repeating: 0, count: 1_001), etag: "\"1\"", board: "b_4", tokenHash: Self.hash, key: "e", ticket: cache.ticket())
        #expect(cache.lookup(board: "b_4", tokenHash: Self.hash, key: "e") == nil)
    }

    /// On PostgreSQL nothing is served from memory until the node's listener is connected.
    static func waitUntilFollowing(_ app: InProcessApp) throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while !app.services.listingCache.isFollowing, ContinuousClock.now < deadline { usleep(10_000) }
        try #require(app.services.listingCache.isFollowing, "the listener never connected")
    }

    @Test func aRepeatedListingIsServedWithoutTheDatabase() throws {
        let app = try InProcessApp(readings: ["milk"])
        try Self.waitUntilFollowing(app)
        let board = try app.board()
        // On PostgreSQL the node also hears its own write's NOTIFY, a moment later, and that
        // invalidates the board once more: wait for it, or the first read may not be kept.
        let wakes = Lock(0)
        _ = app.services.events.subscribe(boardId: board.id) { wakes.withLock { $0 += 1 } }
        _ = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke], token: board.token)
        if DatabaseLocation.engine(of: app.services.configuration.databasePath) == .postgresql {
            let deadline = ContinuousClock.now + .seconds(20)
            while wakes.withLock({ $0 }) < 2, ContinuousClock.now < deadline { usleep(10_000) }
            try #require(wakes.withLock { $0 } >= 2, "the write's notification never reached the node")
        }
        let first = try app.request(.get, board.base + "/stickers", token: board.token)
        let svg = try app.request(.get, board.base + "/render.svg", token: board.token)
        #expect(first.status == 200 && svg.status == 200)
        try app.services.database.close()
        // The same reads answer from memory, byte for byte; anything else needs the (closed) database.
        let again = try app.request(.get, board.base + "/stickers", token: board.token)
        #expect(again.status == 200 && again.body == first.body && again.header("ETag") == first.header("ETag"))
        let head = try app.request(.head, board.base + "/stickers", token: board.token)
        #expect(head.status == 200 && head.header("ETag") == first.header("ETag"))
        #expect(try app.request(.get, board.base + "/stickers", headers: ["If-None-Match": first.header("ETag") ?? ""],
                                token: board.token).status == 304)
        #expect(try app.request(.get, board.base + "/render.svg", token: board.token).body == svg.body)
        #expect(try app.request(.get, board.base + "/stickers?limit=5", token: board.token).status == 503)
        // A wrong or missing token, or a bad query, is never answered from memory.
        #expect(try app.request(.get, board.base + "/stickers", token: "wrong").status == 503)
        #expect(try app.request(.get, board.base + "/stickers").status == 503)
        #expect(try app.request(.get, board.base + "/stickers?state=gone", token: board.token).status == 503)
        #expect(app.services.listingCache.counts.hits >= 4)
    }

    @Test func everyWriteIsVisibleToTheNextRead() throws {
        let app = try InProcessApp(readings: ["milk", "eggs", "tea"])
        let board = try app.board()
        var seen = Set<String>()
        func read(_ because: String) throws -> [[String: Any]] {
            let listing = try app.request(.get, board.base + "/stickers", token: board.token)
            let svg = try app.request(.get, board.base + "/render.svg", token: board.token)
            #expect(listing.status == 200 && svg.status == 200, "\(because)")
            #expect(seen.insert(listing.header("ETag") ?? "").inserted, "the ETag moved after \(because)")
            #expect(try app.request(.get, board.base + "/stickers", token: board.token).body == listing.body)
            return listing.json["stickers"] as? [[String: Any]] ?? []
        }
        #expect(try read("nothing").isEmpty)
        let created = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke], token: board.token)
        let path = board.base + "/stickers/\(created.json["id"] as? String ?? "")"
        #expect(try read("a new sticker").map { $0["text"] as? String } == ["milk"])
        #expect(try app.request(.patch, path, json: ["text": "bread"], token: board.token).status == 200)
        #expect(try read("an edit").map { $0["text"] as? String } == ["bread"])
        #expect(try app.request(.post, board.base + "/end-editing", token: board.token).status == 200)
        #expect(try read("end-editing").map { $0["state"] as? String } == ["label"])
        _ = try app.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke, "target": "new"], token: board.token)
        #expect(try read("a second sticker").count == 2)
        #expect(try app.request(.delete, path, token: board.token).status == 204)
        #expect(try read("a deletion").map { $0["text"] as? String } == ["eggs"])
        #expect(try app.request(.delete, board.base + "/stickers", token: board.token).status == 200)
        #expect(try read("a clear").isEmpty)
        #expect(try app.request(.delete, board.base, token: board.token).status == 204)
        #expect(try app.request(.get, board.base + "/stickers", token: board.token).status == 401)
        #expect(try app.request(.get, board.base + "/render.svg", token: board.token).status == 401)
    }

    /// Two nodes on one PostgreSQL database: once another node's event has reached a node (its
    /// streams are woken), that node's next read shows it.
    @Test(.enabled(if: !TestDatabases.isSQLite)) func anotherNodesEventReachesTheReadsOfThisNode() throws {
        let a = try InProcessApp(readings: ["milk", "eggs"])
        let b = try InProcessApp { $0.databasePath = a.services.configuration.databasePath }
        let board = try a.board()
        #expect(try b.request(.get, board.base + "/stickers", token: board.token).json["stickers"] as? [Any] != nil)
        for round in 0..<3 {
            let woken = DispatchSemaphore(value: 0)
            let subscription = b.services.events.subscribe(boardId: board.id) { woken.signal() }
            let before = try b.request(.get, board.base + "/stickers", token: board.token)
            _ = try a.request(.post, board.base + "/stickers", json: ["strokes": Self.stroke, "target": "new"], token: board.token)
            #expect(woken.wait(timeout: .now() + 10) == .success)
            b.services.events.unsubscribe(boardId: board.id, token: subscription)
            let after = try b.request(.get, board.base + "/stickers", token: board.token)
            #expect(after.header("ETag") != before.header("ETag"))
            #expect((after.json["stickers"] as? [Any])?.count == round + 1)
        }
        let woken = DispatchSemaphore(value: 0)
        let subscription = b.services.events.subscribe(boardId: board.id) { woken.signal() }
        #expect(try a.request(.delete, board.base, token: board.token).status == 204)
        #expect(woken.wait(timeout: .now() + 10) == .success)
        b.services.events.unsubscribe(boardId: board.id, token: subscription)
        #expect(try b.request(.get, board.base + "/stickers", token: board.token).status == 401)
        #expect(try b.request(.get, board.base + "/render.svg", token: board.token).status == 401)
    }
}
