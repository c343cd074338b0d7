import Foundation
import Testing
@testable import Store
import TestDatabases

/// SQLite's migration files; PostgreSQL's run in every suite on PostgreSQL (`PostgresTests` for its own settings).
@Suite(.enabled(if: TestDatabases.isSQLite, "SQLite migrations")) struct MigrationTests {
    /// A copy of the repository's migrations that a test may edit.
    private func copyMigrations(into directory: TemporaryDirectory) throws -> String {
        let copy = directory.file("Migrations")
        try FileManager.default.copyItem(atPath: repositoryMigrations, toPath: copy)
        return copy
    }

    private func tableNames(_ database: Database) throws -> Set<String> {
        try database.read { transaction in
            try transaction.withStatement("SELECT name FROM sqlite_schema WHERE type = 'table'") {
                Set(try $0.map { $0.string(at: 0) })
            }
        }
    }

    @Test func freshDatabaseAppliesEveryMigrationInOrder() throws {
        let directory = try TemporaryDirectory()
        let migrations = try Migration.load(from: repositoryMigrations)
        #expect(migrations.map(\.version) == Array(1...migrations.count))
        let database = try openDatabase(directory)
        defer { try? database.close() }

        #expect(database.migrationsAppliedAtOpen == migrations.map(\.version))
        let tables = try tableNames(database)
        for table in ["boards", "stickers", "inks", "events", "idempotency_keys", "schema_migrations"] {
            #expect(tables.contains(table), "missing table \(table)")
        }
        let applied = try database.appliedMigrations()
        #expect(applied.map(\.version) == migrations.map(\.version))
        #expect(applied.map(\.name) == migrations.map(\.name))
        // The recorded checksum is the SHA-256 of the file bytes, recomputed independently here.
        for record in applied {
            let migration = try #require(migrations.first { $0.version == record.version })
            let bytes = try #require(FileManager.default.contents(
                atPath: (repositoryMigrations as NSString).appendingPathComponent(migration.fileName)))
            #expect(record.checksum == SHA256.hexDigest([UInt8](bytes)))
            #expect(record.appliedAt > 1_600_000_000_000)
        }
    }

    @Test func rerunningIsANoOp() throws {
        let directory = try TemporaryDirectory()
        let first = try openDatabase(directory)
        let before = try first.appliedMigrations()
        try first.close()

        let second = try openDatabase(directory)
        defer { try? second.close() }
        #expect(second.migrationsAppliedAtOpen.isEmpty)
        #expect(try second.appliedMigrations() == before)  // Same rows, same applied_at.
    }

    @Test func changedMigrationFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        let migrations = try copyMigrations(into: directory)
        let path = directory.file("db.sqlite")
        try Database(path: path, migrationsDirectory: migrations).close()

        let file = (migrations as NSString).appendingPathComponent("0002_stickers.sql")
        let handle = try #require(FileHandle(forWritingAtPath: file))
        handle.seekToEndOfFile()
        handle.write(Data("\n-- an innocent-looking comment\n".utf8))
        try handle.close()

        let error = try #require(throws: MigrationError.self) {
            try Database(path: path, migrationsDirectory: migrations)
        }
        guard case let .checksumMismatch(version, name, recorded, current) = error else {
            Issue.record("expected checksumMismatch, got \(error)")
            return
        }
        #expect(version == 2)
        #expect(name == "stickers")
        #expect(recorded != current)
        #expect(current == SHA256.hexDigest([UInt8](try #require(FileManager.default.contents(atPath: file)))))
        #expect(error.description.contains("changed after it was applied"))
    }

    @Test func databaseWithUnknownNewerMigrationIsRefused() throws {
        let directory = try TemporaryDirectory()
        let migrations = try copyMigrations(into: directory)
        let path = directory.file("db.sqlite")
        let extra = (migrations as NSString).appendingPathComponent("0099_future.sql")
        try Data("CREATE TABLE future (x INTEGER) STRICT;".utf8).write(to: URL(fileURLWithPath: extra))
        let newer = try Database(path: path, migrationsDirectory: migrations)
        #expect(newer.migrationsAppliedAtOpen.last == 99)
        try newer.close()

        // This "older build" knows only the repository's migrations.
        let error = try #require(throws: MigrationError.self) {
            try Database(path: path, migrationsDirectory: repositoryMigrations)
        }
        let latestKnown = try Migration.load(from: repositoryMigrations).map(\.version).max() ?? 0
        #expect(error == .databaseIsNewer(unknownVersions: [99], latestKnown: latestKnown))
    }

    @Test func failingMigrationRollsBackAndIsNotRecorded() throws {
        let directory = try TemporaryDirectory()
        let migrations = directory.file("M")
        try FileManager.default.createDirectory(atPath: migrations, withIntermediateDirectories: true)
        try Data("CREATE TABLE a (x INTEGER) STRICT;".utf8)
            .write(to: URL(fileURLWithPath: migrations + "/0001_a.sql"))
        // The first statement would succeed; the second fails, so neither may remain.
        try Data("CREATE TABLE b (x INTEGER) STRICT; INSERT INTO nowhere VALUES (1);".utf8)
            .write(to: URL(fileURLWithPath: migrations + "/0002_b.sql"))
        let path = directory.file("db.sqlite")
        let error = try #require(throws: MigrationError.self) {
            try Database(path: path, migrationsDirectory: migrations)
        }
        guard case let .failed(version, _, sqliteError) = error else {
            Issue.record("expected failed, got \(error)")
            return
        }
        #expect(version == 2)
        #expect(sqliteError.contains("nowhere"))

        let connection = try SQLiteConnection(path: path)
        let state = try connection.withStatement("""
            SELECT (SELECT group_concat(version) FROM schema_migrations),
                   (SELECT count(*) FROM sqlite_schema WHERE name = 'b')
            """) { try $0.first { ($0.string(at: 0), $0.int(at: 1)) } }
        #expect(state?.0 == "1")
        #expect(state?.1 == 0)
    }

    @Test func renamedOrOutOfOrderMigrationsAreRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("db.sqlite")
        let a = Migration(version: 1, name: "a", sql: "CREATE TABLE a (x INTEGER);")
        let c = Migration(version: 3, name: "c", sql: "CREATE TABLE c (x INTEGER);")
        try Database(path: path, migrations: [a, c]).close()

        let renamed = Migration(version: 1, name: "renamed", sql: a.sql)
        #expect(throws: MigrationError.nameMismatch(version: 1, recorded: "a", current: "renamed")) {
            try Database(path: path, migrations: [renamed, c])
        }
        let late = Migration(version: 2, name: "b", sql: "CREATE TABLE b (x INTEGER);")
        #expect(throws: MigrationError.outOfOrder(version: 2, latestApplied: 3)) {
            try Database(path: path, migrations: [a, late, c])
        }
    }

    @Test(arguments: ["1_short.sql", "0001-dash.sql", "0000_zero.sql", "0001_Upper.sql", "abcd_x.sql", "0001_.sql"])
    func malformedFileNamesAreRefused(name: String) throws {
        let directory = try TemporaryDirectory()
        try Data("SELECT 1;".utf8).write(to: URL(fileURLWithPath: directory.file(name)))
        #expect(throws: MigrationError.invalidFileName(name)) { try Migration.load(from: directory.path) }
    }

    @Test func duplicateVersionsAndNonSQLFiles() throws {
        let directory = try TemporaryDirectory()
        try Data("# notes".utf8).write(to: URL(fileURLWithPath: directory.file("README.md")))
        try Data("SELECT 1;".utf8).write(to: URL(fileURLWithPath: directory.file("0001_a.sql")))
        #expect(try Migration.load(from: directory.path).map(\.fileName) == ["0001_a.sql"])
        try Data("SELECT 2;".utf8).write(to: URL(fileURLWithPath: directory.file("0001_b.sql")))
        #expect(throws: MigrationError.duplicateVersion(1, files: ["0001_a.sql", "0001_b.sql"])) {
            try Migration.load(from: directory.path)
        }
    }

    @Test func locatorPrefersExplicitThenWorkingDirectoryThenExecutableAncestors() throws {
        let directory = try TemporaryDirectory()
        let root = directory.file("repo")
        let binary = root + "/.build/release/inksticker"
        try FileManager.default.createDirectory(atPath: root + "/.build/release", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/Migrations", withIntermediateDirectories: true)
        let elsewhere = directory.file("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere + "/Migrations", withIntermediateDirectories: true)
        let empty = directory.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)

        #expect(try MigrationDirectory.locate(explicitPath: elsewhere + "/Migrations", workingDirectory: empty,
                                              executablePath: binary) == elsewhere + "/Migrations")
        #expect(try MigrationDirectory.locate(workingDirectory: elsewhere, executablePath: binary)
                    == elsewhere + "/Migrations")
        #expect(try MigrationDirectory.locate(workingDirectory: empty, executablePath: binary)
                    == root + "/Migrations")

        // A configured path that does not exist is an error, not a reason to look elsewhere.
        #expect(throws: MigrationError.directoryNotFound(searched: [empty + "/nope"])) {
            try MigrationDirectory.locate(explicitPath: empty + "/nope", workingDirectory: elsewhere,
                                          executablePath: binary)
        }
        let error = try #require(throws: MigrationError.self) {
            try MigrationDirectory.locate(workingDirectory: empty, executablePath: empty + "/bin/tool")
        }
        guard case let .directoryNotFound(searched) = error else {
            Issue.record("expected directoryNotFound, got \(error)")
            return
        }
        #expect(searched.first == empty + "/Migrations")
        #expect(searched.contains(empty + "/bin/Migrations"))
        #expect(searched.last == "/Migrations")
    }
}
