/// A migration recorded in `schema_migrations`.
public struct AppliedMigration: Sendable, Hashable {
    /// The migration's number.
    public let version: Int
    /// The migration's name (file name without number and extension).
    public let name: String
    /// Lowercase hex SHA-256 of the file bytes when applied.
    public let checksum: String
    /// When it was applied, in milliseconds since the Unix epoch (UTC).
    public let appliedAt: Int64
}

/// Applies migrations on the writer connection at start-up.
///
/// Each pending migration runs in its own `BEGIN IMMEDIATE` transaction together with its
/// `schema_migrations` row, so a failure leaves the database at the previous version.
/// Migration SQL runs with no application-defined SQL functions registered: it cannot call
/// back into Swift.
enum MigrationRunner {
    static let createTable = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version    INTEGER PRIMARY KEY NOT NULL,
            name       TEXT NOT NULL,
            checksum   TEXT NOT NULL CHECK (length(checksum) = 64),
            applied_at INTEGER NOT NULL
        ) STRICT
        """

    /// Verifies what is recorded against `migrations`, then applies the pending ones in order.
    ///
    /// - Returns: the versions applied by this call (empty when already up to date).
    @discardableResult
    static func migrate(_ connection: SQLiteConnection, migrations: [Migration], now: Int64) throws -> [Int] {
        try connection.execute(createTable)
        let applied = try appliedMigrations(connection)
        let known = Dictionary(migrations.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })

        let unknown = applied.map(\.version).filter { known[$0] == nil }
        if !unknown.isEmpty {
            throw MigrationError.databaseIsNewer(unknownVersions: unknown,
                                                 latestKnown: migrations.map(\.version).max() ?? 0)
        }
        for record in applied {
            guard let migration = known[record.version] else { continue }
            guard migration.checksum == record.checksum else {
                throw MigrationError.checksumMismatch(version: record.version, name: record.name,
                                                      recorded: record.checksum, current: migration.checksum)
            }
            guard migration.name == record.name else {
                throw MigrationError.nameMismatch(version: record.version, recorded: record.name,
                                                  current: migration.name)
            }
        }

        let appliedVersions = Set(applied.map(\.version))
        let latestApplied = applied.map(\.version).max() ?? 0
        let pending = migrations.filter { !appliedVersions.contains($0.version) }
        if let early = pending.first(where: { $0.version < latestApplied }) {
            throw MigrationError.outOfOrder(version: early.version, latestApplied: latestApplied)
        }
        for migration in pending {
            try apply(migration, on: connection, now: now)
        }
        return pending.map(\.version)
    }

    static func appliedMigrations(_ connection: SQLiteConnection) throws -> [AppliedMigration] {
        try connection.withStatement(
            "SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version"
        ) { statement in
            try statement.map {
                AppliedMigration(version: $0.int(at: 0), name: $0.string(at: 1),
                                 checksum: $0.string(at: 2), appliedAt: $0.int64(at: 3))
            }
        }
    }

    private static func apply(_ migration: Migration, on connection: SQLiteConnection, now: Int64) throws {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            try connection.execute(migration.sql)
            try connection.withStatement(
                "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)"
            ) { statement in
                try statement.bind(migration.version, migration.name, migration.checksum, now)
                try statement.execute()
            }
            try connection.execute("COMMIT")
        } catch {
            if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
            if let sqliteError = error as? SQLiteError {
                throw MigrationError.failed(version: migration.version, name: migration.name, error: sqliteError)
            }
            throw error
        }
    }
}
