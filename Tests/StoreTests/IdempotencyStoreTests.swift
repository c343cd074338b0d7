import Testing
@testable import Store

@Suite struct IdempotencyStoreTests {
    private func record(_ key: String, board: String = "b1", body: String = "first", at time: Int64,
                        ttl: Int64 = 1_000) -> IdempotencyRecord {
        IdempotencyRecord(boardId: board, key: key, requestHash: SHA256.hash(Array("POST \(key)".utf8)),
                          status: 201, responseBody: Array(body.utf8),
                          responseHeaders: #"{"content-type":"application/json"}"#,
                          createdAt: time, expiresAt: time + ttl)
    }

    @Test func putGetExpireAndReplace() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory)
        defer { try? database.close() }
        let original = record("k1", at: 1_000)
        #expect(try database.write { try $0.putIdempotencyRecord(original) })
        #expect(try database.read { try $0.idempotencyRecord(boardId: "b1", key: "k1", now: 1_500) } == original)
        // Keys are scoped by board.
        #expect(try database.read { try $0.idempotencyRecord(boardId: "b2", key: "k1", now: 1_500) } == nil)

        // While live, a second put does not overwrite the stored response.
        #expect(try !database.write { try $0.putIdempotencyRecord(record("k1", body: "second", at: 1_500)) })
        #expect(try database.read { try $0.idempotencyRecord(boardId: "b1", key: "k1", now: 1_600) } == original)

        // Expired (expiresAt is exclusive): invisible, and replaceable.
        #expect(try database.read { try $0.idempotencyRecord(boardId: "b1", key: "k1", now: 2_000) } == nil)
        let replacement = record("k1", body: "third", at: 2_000)
        #expect(try database.write { try $0.putIdempotencyRecord(replacement) })
        #expect(try database.read { try $0.idempotencyRecord(boardId: "b1", key: "k1", now: 2_001) } == replacement)
    }

    @Test func purgeDeletesOnlyExpiredRowsInBatches() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory)
        defer { try? database.close() }
        try database.write { transaction in
            for index in 0..<5 { try transaction.putIdempotencyRecord(record("old\(index)", at: 0, ttl: 10)) }
            try transaction.putIdempotencyRecord(record("fresh", at: 0, ttl: 1_000))
        }
        #expect(try database.write { try $0.purgeExpiredIdempotencyRecords(now: 500, limit: 3) } == 3)
        #expect(try database.write { try $0.purgeExpiredIdempotencyRecords(now: 500, limit: 3) } == 2)
        #expect(try database.write { try $0.purgeExpiredIdempotencyRecords(now: 500) } == 0)
        #expect(try database.read { try $0.idempotencyRecord(boardId: "b1", key: "fresh", now: 500) } != nil)
    }
}
