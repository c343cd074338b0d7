import Foundation
import Store
import Synchronization

/// Where the test suites keep their databases: a SQLite file each by default, or, when
/// `INKSTICKER_TEST_POSTGRES` holds the connection string of a cluster the suite started
/// (`scripts/postgres.sh`), a fresh schema each in that PostgreSQL: the same tests then run on
/// the other engine.
public enum TestDatabases {
    /// The PostgreSQL connection string, when the tests run on PostgreSQL.
    public static let postgres: String? = {
        guard let value = ProcessInfo.processInfo.environment["INKSTICKER_TEST_POSTGRES"], !value.isEmpty else { return nil }
        return value
    }()

    /// The engine the tests run on.
    public static var engine: StoreEngine { postgres == nil ? .sqlite : .postgresql }

    /// True on SQLite: for tests of SQLite's own files, pragmas and plans.
    public static var isSQLite: Bool { postgres == nil }

    /// A location for a new, empty database: `sqlitePath` itself, or on PostgreSQL the
    /// connection string of a new schema (its own tables, migrations and sequences).
    /// The same `sqlitePath` always gives the same database (a test that reopens it).
    public static func location(sqlitePath: String) throws -> String {
        guard let postgres else { return sqlitePath }
        return try schemas.withLock { schemas in
            if let known = schemas[sqlitePath] { return known }
            let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try psql(postgres, "CREATE SCHEMA \(schema)")
            let location = postgres + " options='-c search_path=\(schema)'"
            schemas[sqlitePath] = location
            return location
        }
    }

    private static let schemas = Mutex<[String: String]>([:])

    /// Runs `sql` with psql (from Debian's postgresql-client, installed with the server).
    public static func psql(_ connection: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [connection, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "TestDatabases", code: Int(process.terminationStatus),
                          userInfo: [NSLocalizedDescriptionKey: "psql failed: \(sql)"])
        }
    }
}
