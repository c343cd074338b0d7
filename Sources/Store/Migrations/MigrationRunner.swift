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

/// Applies migrations at start-up, on SQLite's writer connection or on one PostgreSQL connection.
///
/// Each pending migration runs in its own transaction together with its `schema_migrations`
/// row, so a failure leaves the database at the previous version. On PostgreSQL the whole run
/// holds an advisory lock: nodes starting at once wait for each other, and each migration is
/// applied exactly once. Migration SQL runs with no application-defined SQL functions
/// registered: it cannot call back into Swift.
enum MigrationRunner {
    /// Key of the advisory lock held while migrating (PostgreSQL).
    static let advisoryLockKey: Int64 = 0x496E_6B53_7469_636B  // "InkStick"

    static func createTable(_ engine: StoreEngine) -> String {
        switch engine {
        case .sqlite:
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version    INTEGER PRIMARY KEY NOT NULL,
                name       TEXT NOT NULL,
                checksum   TEXT NOT NULL CHECK (length(checksum) = 64),
                applied_at INTEGER NOT NULL
            ) STRICT
            """
        case .postgresql:
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version    BIGINT PRIMARY KEY NOT NULL,
                name       TEXT NOT NULL,
                checksum   TEXT NOT NULL CHECK (length(checksum) = 64),
                applied_at BIGINT NOT NULL
            )
            """
        }
    }

    /// Verifies what is recorded against `migrations`, then applies the pending ones in order.
    ///
    /// - Returns: the versions applied by this call (empty when already up to date).
    @discardableResult
    static func migrate(_ connection: any StoreConnection, migrations: [Migration], now: Int64) throws -> [Int] {
        guard connection.engine == .postgresql else { return try migrateLocked(connection, migrations: migrations, now: now) }
        try connection.run("SELECT pg_advisory_lock($1)", [.integer(advisoryLockKey)])
        defer { _ = try? connection.run("SELECT pg_advisory_unlock($1)", [.integer(advisoryLockKey)]) }
        return try migrateLocked(connection, migrations: migrations, now: now)
    }

    private static func migrateLocked(_ connection: any StoreConnection, migrations: [Migration], now: Int64) throws -> [Int] {
        try connection.executeScript(createTable(connection.engine))
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

    static func appliedMigrations(_ connection: any StoreConnection) throws -> [AppliedMigration] {
        try connection.rows("SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version", []) {
            AppliedMigration(version: $0.int(at: 0), name: $0.string(at: 1),
                             checksum: $0.string(at: 2), appliedAt: $0.int64(at: 3))
        }
    }

    private static func apply(_ migration: Migration, on connection: any StoreConnection, now: Int64) throws {
        try connection.executeScript(connection.engine == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            try connection.executeScript(migration.sql)
            try connection.run("INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES ($1, $2, $3, $4)",
                               [.integer(Int64(migration.version)), .text(migration.name), .text(migration.checksum), .integer(now)])
            try connection.executeScript("COMMIT")
        } catch {
            if connection.isInTransaction { try? connection.executeScript("ROLLBACK") }
            if error is SQLiteError || error is PostgresError {
                throw MigrationError.failed(version: migration.version, name: migration.name, reason: "\(error)")
            }
            throw error
        }
    }
}
