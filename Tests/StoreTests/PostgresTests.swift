import Foundation
import Testing
@testable import Store
import TestDatabases

/// What only PostgreSQL does: its session settings, and nodes that open one database together.
@Suite(.enabled(if: !TestDatabases.isSQLite, "PostgreSQL settings")) struct PostgresTests {
    /// A new database's location with `-c SETTING` added to the connection's options.
    private func location(_ directory: TemporaryDirectory, setting: String) throws -> String {
        let location = try TestDatabases.location(sqlitePath: directory.file("data/test.sqlite"))
        return location.replacingOccurrences(of: "options='", with: "options='-c \(setting) ")
    }

    @Test func blobsReadBackWhateverByteaOutputTheServerSets() throws {
        let directory = try TemporaryDirectory()
        // A role or database set to the old escape format (servers shared with older programs).
        let database = try Database(location: try location(directory, setting: "bytea_output=escape"),
                                    migrationsDirectory: repositoryMigrations)
        defer { try? database.close() }
        try database.write { try $0.insertBoard(makeBoard("b1")) }
        #expect(try database.read { try $0.board(id: "b1") }?.tokenHash == makeBoard("b1").tokenHash)
    }

    @Test func aNodeWaitsForAnotherNodesMigrationLongerThanTheStatementTimeout() throws {
        let directory = try TemporaryDirectory()
        let target = try TestDatabases.location(sqlitePath: directory.file("data/test.sqlite"))
        // Another node holds the migration lock for 1.5 s.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        holder.arguments = [try #require(TestDatabases.postgres), "-X", "-q", "-c",
                            "SELECT pg_advisory_lock(\(MigrationRunner.advisoryLockKey)), pg_sleep(1.5)"]
        try holder.run()
        defer { holder.waitUntilExit() }
        Thread.sleep(forTimeInterval: 0.5)
        var configuration = DatabaseConfiguration()
        configuration.statementTimeoutMilliseconds = 200
        let started = Date()
        let database = try Database(location: target, migrationsDirectory: repositoryMigrations, configuration: configuration)
        defer { try? database.close() }
        #expect(Date().timeIntervalSince(started) > 0.5, "opened while the lock was held")
        #expect(!database.migrationsAppliedAtOpen.isEmpty)
        // The pool's own statements keep the configured timeout.
        let timedOut = try #require(throws: StoreError.self) {
            try database.read { try $0.query("SELECT pg_sleep(1)") }
        }
        #expect("\(timedOut)".contains("statement timeout"), "\(timedOut)")
    }
}
