import Foundation
import Testing
@testable import Store
import TestDatabases

private struct Abort: Error {}

@Suite struct DatabaseTests {
    private func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    private func pragma(_ name: String, _ transaction: ReadTransaction) throws -> String {
        try transaction.withStatement("PRAGMA \(name)") { try $0.first { $0.string(at: 0) } } ?? ""
    }

    @Test(.enabled(if: TestDatabases.isSQLite, "SQLite files")) func createsAPrivateParentDirectory() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory, name: "nested/data/app.sqlite")
        defer { try? database.close() }
        #expect(database.isReady)
        #expect(try mode(directory.file("nested/data")) == 0o700)
        #expect(FileManager.default.fileExists(atPath: directory.file("nested/data/app.sqlite")))
    }

    @Test(.enabled(if: TestDatabases.isSQLite, "SQLite files")) func refusesAWorldWritableDirectory() throws {
        let directory = try TemporaryDirectory()
        let data = directory.file("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: data)
        let error = try #require(throws: StoreError.self) { try openDatabase(directory) }
        guard case let .unsafePermissions(path, mode) = error else {
            Issue.record("expected unsafePermissions, got \(error)")
            return
        }
        #expect(path == data)
        #expect(mode & 0o777 == 0o777)
        #expect(error.description.contains("writable by every user"))
        #expect(!FileManager.default.fileExists(atPath: data + "/test.sqlite"))
    }

    @Test(.enabled(if: TestDatabases.isSQLite, "SQLite files")) func refusesAWorldWritableDatabaseFile() throws {
        let directory = try TemporaryDirectory()
        try openDatabase(directory).close()
        let file = directory.file("data/test.sqlite")
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: file)
        let error = try #require(throws: StoreError.self) { try openDatabase(directory) }
        #expect(error == .unsafePermissions(path: file, mode: UInt32(S_IFREG) | 0o666))
    }

    @Test(.enabled(if: TestDatabases.isSQLite, "SQLite pragmas"), arguments: [DatabaseConfiguration.Synchronous.normal, .full])
    func appliesConnectionSettings(synchronous: DatabaseConfiguration.Synchronous) throws {
        let directory = try TemporaryDirectory()
        var configuration = DatabaseConfiguration()
        configuration.synchronous = synchronous
        configuration.busyTimeoutMilliseconds = 1_234
        let database = try openDatabase(directory, configuration: configuration)
        defer { try? database.close() }
        let settings = try database.write { transaction in
            try ["journal_mode", "synchronous", "foreign_keys", "busy_timeout"].map { try pragma($0, transaction) }
        }
        // synchronous: NORMAL = 1, FULL = 2.
        #expect(settings == ["wal", synchronous == .normal ? "1" : "2", "1", "1234"])
    }

    @Test func readersAreReadOnly() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory)
        defer { try? database.close() }
        let error = try #require(throws: (any Error).self) {
            try database.read { transaction in _ = try transaction.query("DELETE FROM boards") }
        }
        switch error {
        case let error as SQLiteError: #expect(error.code == .readOnly)
        case let error as PostgresError: #expect(error.sqlState == "25006")  // read_only_sql_transaction
        default: Issue.record("unexpected \(error)")
        }
    }

    @Test func throwingBodyRollsEverythingBack() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory)
        defer { try? database.close() }
        #expect(throws: Abort.self) {
            try database.write { transaction in
                try transaction.insertBoard(makeBoard("b1"))
                try transaction.insertSticker(makeSticker("s1", board: "b1"))
                try transaction.appendEvent(boardId: "b1", stickerId: "s1", type: .created, version: 1,
                                            payload: "{}", createdAt: 1)
                throw Abort()
            }
        }
        // A failing statement part-way through rolls back the earlier ones too.
        #expect(throws: StoreError.alreadyExists(.board, id: "b2")) {
            try database.write { transaction in
                try transaction.insertBoard(makeBoard("b2"))
                try transaction.insertBoard(makeBoard("b2"))
            }
        }
        let counts = try database.read { transaction in
            try transaction.query("""
                SELECT (SELECT count(*) FROM boards), (SELECT count(*) FROM stickers), (SELECT count(*) FROM events)
                """)
        }
        #expect(counts == [[.text("0"), .text("0"), .text("0")]])
        // The writer is usable afterwards: no transaction was left open.
        try database.write { try $0.insertBoard(makeBoard("b3")) }
        #expect(try database.read { try $0.board(id: "b3") } == makeBoard("b3"))
    }

    @Test func writeReturnsTheBodyResultAndCommits() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory)
        defer { try? database.close() }
        let stored = try database.write { transaction -> StickerRecord in
            try transaction.insertBoard(makeBoard())
            return try transaction.insertSticker(makeSticker("s1"))
        }
        #expect(stored.version == 1)
        #expect(stored.seq > 0)
        #expect(try database.read { try $0.sticker(id: "s1", boardId: "board-1") } == stored)
    }

    @Test(.enabled(if: TestDatabases.isSQLite, "SQLite files")) func closeThenReopenKeepsDataInTheMainFile() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory)
        try database.write { transaction in
            try transaction.insertBoard(makeBoard())
            try transaction.insertSticker(makeSticker("s1"))
        }
        try database.close()
        #expect(!database.isReady)
        #expect(throws: StoreError.closed) { try database.read { _ in } }
        #expect(throws: StoreError.closed) { try database.write { _ in } }
        try database.close()  // Idempotent.

        // The checkpoint on close moved everything into the main file: a copy of that file
        // alone, without any -wal, holds the data.
        let copy = directory.file("copy/test.sqlite")
        try FileManager.default.createDirectory(atPath: directory.file("copy"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: directory.file("data/test.sqlite"), toPath: copy)
        let reopened = try Database(path: copy, migrationsDirectory: repositoryMigrations)
        defer { try? reopened.close() }
        #expect(reopened.migrationsAppliedAtOpen.isEmpty)
        #expect(try reopened.read { try $0.sticker(id: "s1", boardId: "board-1")?.text } == "hello")
    }

    @Test func nestedWriteIsRefusedInsteadOfDeadlocking() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory)
        defer { try? database.close() }
        #expect(throws: StoreError.nestedWrite) {
            try database.write { _ in try database.write { _ in } }
        }
    }

    @Test func transactionCannotBeUsedAfterItsBody() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory)
        defer { try? database.close() }
        var escaped: ReadTransaction?
        try database.read { escaped = $0 }
        let transaction = try #require(escaped)
        #expect(throws: StoreError.transactionFinished) { try transaction.board(id: "x") }
    }

    @Test func typedAPIErrorsCarryTheSQL() throws {
        let directory = try TemporaryDirectory()
        let database = try openDatabase(directory)
        defer { try? database.close() }
        try database.write { try $0.insertBoard(makeBoard()) }
        var label = makeSticker("s1", state: .label)
        label.committedAt = nil  // The schema requires a commit time on every label.
        let error = try #require(throws: (any Error).self) {
            try database.write { try $0.insertSticker(label) }
        }
        #expect(StoreConstraint(error) == .check)
        switch error {
        case let error as SQLiteError:
            #expect(error.sql?.hasPrefix("INSERT INTO stickers") == true)
            #expect(error.description.contains("SQLITE_CONSTRAINT_CHECK"))
        case let error as PostgresError:
            #expect(error.sql?.hasPrefix("INSERT INTO stickers") == true)
            #expect(error.description.contains("23514"))
        default:
            Issue.record("unexpected \(error)")
        }

        #expect(throws: StoreError.invalidLimit(0, maximum: 1_000)) {
            try database.read { try $0.listStickers(boardId: "board-1", limit: 0) }
        }
    }
}
